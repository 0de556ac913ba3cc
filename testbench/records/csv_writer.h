// One record file: `{out}/{name}-{record}-0.csv`, a header row, then rows. Values are formatted
// with fmt's shortest round-trip form, so identical runs give byte-identical files.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace uetsim {

class csv_writer
{
public:
    csv_writer(const std::string& path, const std::vector<std::string>& columns);
    ~csv_writer();
    csv_writer(const csv_writer&) = delete;
    csv_writer& operator=(const csv_writer&) = delete;

    template <typename... Args>
    void row(const Args&... cells)
    {
        m_line.clear();
        append(cells...);
        m_line.back() = '\n';
        std::fwrite(m_line.data(), 1, m_line.size(), m_file);
        ++m_rows;
    }

    // A row already formatted as comma-separated cells (no newline).
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
    template <typename T, typename... Rest>
    void append(const T& v, const Rest&... rest)
    {
        fmt::format_to(std::back_inserter(m_line), "{},", v);
        if constexpr (sizeof...(rest) > 0) append(rest...);
    }

    std::string m_path;
    std::FILE* m_file = nullptr;
    std::string m_line;
    size_t m_rows = 0;
};

// ISO 8601 UTC of `epoch` (YYYY-MM-DDThh:mm:ssZ) plus `seconds`, to whole seconds:
// records' time_utc is simulated, not wall-clock, so that runs are reproducible.
std::string utc_after(const std::string& epoch, double seconds);

}  // namespace uetsim
