#include "testbench/capture/pcap_capture.h"

#include <stdexcept>

#include "testbench/capture/frame_bytes.h"

namespace uetsim {

namespace {

// pcap with nanosecond timestamps (magic 0xA1B23C4D), LINKTYPE_ETHERNET.
struct file_header
{
    uint32_t magic = 0xA1B23C4D;
    uint16_t major = 2, minor = 4;
    int32_t zone = 0;
    uint32_t sigfigs = 0;
    uint32_t snaplen = 65535;
    uint32_t linktype = 1;
};
struct record_header
{
    uint32_t sec, nsec, caplen, len;
};

}  // namespace

pcap_file::pcap_file(const std::string& path) : m_path(path)
{
    m_file = std::fopen(path.c_str(), "wb");
    if (!m_file) throw std::runtime_error("cannot write capture " + path);
    file_header h;
    std::fwrite(&h, sizeof h, 1, m_file);
}

pcap_file::~pcap_file()
{
    if (m_file) std::fclose(m_file);
}

void pcap_file::write(const packet& p, uint64_t time_ps)
{
    m_buf.clear();
    frame_headers(p, m_buf);
    const uint64_t ns = time_ps / 1000;
    record_header r{uint32_t(ns / 1'000'000'000), uint32_t(ns % 1'000'000'000),
                    uint32_t(m_buf.size()), p.wire_bytes - wire::eth_fcs};
    std::fwrite(&r, sizeof r, 1, m_file);
    std::fwrite(m_buf.data(), 1, m_buf.size(), m_file);
    ++m_frames;
}

void pcap_capture::attach(link& l, const std::string& path)
{
    m_files.push_back(std::make_unique<pcap_file>(path));
    pcap_file* f = m_files.back().get();
    l.add_tap([f](const packet& p, link::direction, const sc_core::sc_time& start) {
        f->write(p, start.value());
    });
}

std::vector<std::string> pcap_capture::files() const
{
    std::vector<std::string> out;
    for (const auto& f : m_files) out.push_back(f->path());
    return out;
}

}  // namespace uetsim
