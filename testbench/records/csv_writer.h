// One record file: `{out}/{name}-{record}-0.csv`, a header row, then rows already formatted as
// cells (record_csv in column_table.h formats them from the record's column table).
#pragma once

#include <cerrno>
#include <cstdio>
#include <functional>
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

    // A row of comma-separated cells (no newline). A write the file system refuses (disk
    // full, file size limit) is reported once to the write failure handler.
    void raw_row(const std::string& cells)
    {
        if (std::fwrite(cells.data(), 1, cells.size(), m_file) != cells.size() ||
            std::fputc('\n', m_file) == EOF)
            failed(errno);
        ++m_rows;
    }

    const std::string& path() const { return m_path; }
    size_t rows() const { return m_rows; }
    // Flushes and closes; a refused write shows here at the latest (reported as in raw_row).
    void close();
    // The errno of the first refused write; 0 when every byte reached the file.
    int error() const { return m_error; }

private:
    void failed(int err);

    std::string m_path;
    std::FILE* m_file = nullptr;
    size_t m_rows = 0;
    int m_error = 0;
};

// Called once per record file whose write the file system refused (the run stops there and
// exits with code 2, docs/command.md); a process-wide handler, empty by default.
using record_write_failure_handler = std::function<void(const std::string& path, int err)>;
void set_record_write_failure_handler(record_write_failure_handler h);

// ISO 8601 UTC of `epoch` (YYYY-MM-DDThh:mm:ssZ) plus `seconds`, to whole seconds:
// records' time_utc is simulated, not wall-clock, so that runs are reproducible.
std::string utc_after(const std::string& epoch, double seconds);

}  // namespace uetsim
