#include "sim/sweep/csv_table.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace uetsim::sweep {

namespace {

std::vector<std::string> split(const std::string& line)
{
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ',')) out.push_back(cell);
    if (!line.empty() && line.back() == ',') out.push_back("");
    return out;
}

}  // namespace

int csv_table::col(const std::string& name) const
{
    for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return int(i);
    return -1;
}

bool csv_table::number(size_t row, int c, double& out) const
{
    if (c < 0 || row >= rows.size() || size_t(c) >= rows[row].size()) return false;
    const std::string& s = rows[row][size_t(c)];
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end && *end == '\0';
}

bool read_csv_table(const std::string& path, csv_table& out)
{
    std::ifstream f(path);
    if (!f) return false;
    std::string line;
    if (std::getline(f, line)) out.header = split(line);
    while (std::getline(f, line))
        if (!line.empty()) out.rows.push_back(split(line));
    return true;
}

std::string csv_cell(const std::string& text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

}  // namespace uetsim::sweep
