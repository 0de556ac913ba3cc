// A record file read back for the sweep summary: header and rows of cells. The records are plain
// comma-separated text without quoting (docs/records.md), so a split on commas reads them.
#pragma once

#include <string>
#include <vector>

namespace uetsim::sweep {

struct csv_table
{
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;

    int col(const std::string& name) const;  // -1 when absent
    // The cell as a number; false when the column is absent or the cell is empty or not a number.
    bool number(size_t row, int col, double& out) const;
};

// False when the file does not exist.
bool read_csv_table(const std::string& path, csv_table& out);

// One CSV cell for the summary: quoted when it holds a comma, a quote or a line break.
std::string csv_cell(const std::string& text);

}  // namespace uetsim::sweep
