// Packet captures of chosen links (Capture.Links): one pcap file per link, both directions, with
// nanosecond timestamps at the start of each frame's serialization. Frames are written up to the
// end of their headers; the original length is the frame without its FCS.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "hw/link/link.h"

namespace uetsim {

class pcap_file
{
public:
    explicit pcap_file(const std::string& path);
    ~pcap_file();
    pcap_file(const pcap_file&) = delete;
    pcap_file& operator=(const pcap_file&) = delete;

    void write(const packet& p, uint64_t time_ps);
    const std::string& path() const { return m_path; }
    uint64_t frames() const { return m_frames; }

private:
    std::string m_path;
    std::FILE* m_file = nullptr;
    std::vector<uint8_t> m_buf;
    uint64_t m_frames = 0;
};

// Attaches a pcap file to each named link.
class pcap_capture
{
public:
    void attach(link& l, const std::string& path);
    std::vector<std::string> files() const;

private:
    std::vector<std::unique_ptr<pcap_file>> m_files;
};

}  // namespace uetsim
