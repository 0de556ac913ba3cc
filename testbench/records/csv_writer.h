// One record file: `{out}/{name}-{record}-0.csv`, a header row, then rows already formatted as
// cells (record_csv in column_table.h formats them from the record's column table).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace uetsim {

class csv_writer
{
public:
    csv_writer(const std::string& path, const std::vector<std::string>& columns);
    ~csv_writer();
    csv_writer(const csv_writer&) = delete;
    csv_writer& operator=(const csv_writer&) = delete;

    // A row of comma-separated cells (no newline).
    void raw_row(const std::string& cells)
    {
        std::fwrite(cells.data(), 1, cells.size(), m_file);
        std::fputc('\n', m_file);
        ++m_rows;
    }

    const std::string& path() const { return m_path; }
    size_t rows() const { return m_rows; }
    void close();

private:
    std::string m_path;
    std::FILE* m_file = nullptr;
    size_t m_rows = 0;
};

// ISO 8601 UTC of `epoch` (YYYY-MM-DDThh:mm:ssZ) plus `seconds`, to whole seconds:
// records' time_utc is simulated, not wall-clock, so that runs are reproducible.
std::string utc_after(const std::string& epoch, double seconds);

}  // namespace uetsim
