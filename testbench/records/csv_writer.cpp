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
    std::fwrite(header.data(), 1, header.size(), m_file);
}

csv_writer::~csv_writer()
{
    close();
}

void csv_writer::close()
{
    if (m_file) std::fclose(m_file);
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
