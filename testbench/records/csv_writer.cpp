#include "testbench/records/csv_writer.h"

#include <cmath>
#include <ctime>
#include <stdexcept>

namespace uetsim {

csv_writer::csv_writer(const std::string& path, const std::vector<std::string>& columns)
    : m_path(path)
{
    m_file = std::fopen(path.c_str(), "w");
    if (!m_file) throw std::runtime_error("cannot write record " + path);
    std::string header;
    for (size_t i = 0; i < columns.size(); ++i) header += (i ? "," : "") + columns[i];
    header += '\n';
    if (std::fwrite(header.data(), 1, header.size(), m_file) != header.size()) failed(errno);
}

csv_writer::~csv_writer()
{
    close();
}

namespace {

record_write_failure_handler& write_failure_handler()
{
    static record_write_failure_handler h;
    return h;
}

}  // namespace

void set_record_write_failure_handler(record_write_failure_handler h)
{
    write_failure_handler() = std::move(h);
}

void csv_writer::failed(int err)
{
    if (m_error) return;
    m_error = err ? err : EIO;
    if (write_failure_handler()) write_failure_handler()(m_path, m_error);
}

void csv_writer::close()
{
    if (!m_file) return;
    if (std::fflush(m_file) != 0) failed(errno);
    if (std::fclose(m_file) != 0) failed(errno);
    m_file = nullptr;
}

std::string utc_after(const std::string& epoch, double seconds)
{
    std::tm tm{};
    if (!strptime(epoch.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm))
        throw std::invalid_argument("bad epoch " + epoch);
    std::time_t t = timegm(&tm) + static_cast<std::time_t>(std::floor(seconds));
    std::tm out{};
    gmtime_r(&t, &out);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &out);
    return buf;
}

}  // namespace uetsim
