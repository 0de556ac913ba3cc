// RoCE v2 frames of a uetsim pcap capture, decoded by tshark (InfiniBand over UDP 4791): the
// fields the RoCE system tests judge the wire by. Header-only; it runs tshark through
// shell_output.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_uetsim.h"
#include "tlm/roce_opcode.h"

namespace uetsim::test {

struct roce_frame
{
    double time_s = 0;        // when the frame started serializing
    std::string src;          // IPv4 source, e.g. 10.0.0.1 for host0
    unsigned dst_port = 0;    // UDP destination port (4791 for RoCE v2); 0 for a non-UDP frame
    unsigned wire_bytes = 0;  // the frame's size with its FCS (pcap leaves the FCS out)
    int opcode = -1;          // BTH opcode, -1 for a frame without a BTH
    uint32_t dest_qp = 0;
    uint32_t psn = 0;
    int aeth_opcode = -1;  // AETH syndrome bits 6:5: 0 ACK, 3 NAK; -1 without an AETH
    int dscp = -1;         // the IPv4 DSCP (the RoCE NIC's traffic class x 8); -1 without IPv4

    bool is_data() const { return opcode >= 0 && opcode <= ib::rc_rdma_write_only; }
    bool is_ack() const { return opcode == ib::rc_acknowledge && aeth_opcode == 0; }
    bool is_nak() const { return opcode == ib::rc_acknowledge && aeth_opcode == 3; }
};

inline std::vector<roce_frame> read_roce_frames(const std::string& pcap)
{
    const std::string out = shell_output(
        "tshark -r " + pcap +
        " -T fields -E separator=, -E occurrence=f -e frame.time_epoch -e ip.src -e "
        "udp.dstport -e frame.len -e infiniband.bth.opcode -e infiniband.bth.destqp -e "
        "infiniband.bth.psn -e infiniband.aeth.syndrome.opcode -e ip.dsfield.dscp 2>/dev/null");
    std::vector<roce_frame> frames;
    std::istringstream lines(out);
    std::string line;
    auto num = [](const std::string& s) -> long long {
        if (s.empty()) return -1;
        return std::stoll(s, nullptr, 0);  // tshark prints opcodes and QPs in hex (0x..)
    };
    while (std::getline(lines, line)) {
        std::vector<std::string> c;
        std::istringstream cells(line);
        std::string cell;
        while (std::getline(cells, cell, ',')) c.push_back(cell);
        c.resize(9);
        roce_frame f;
        f.time_s = std::stod(c[0]);
        f.src = c[1];
        f.dst_port = c[2].empty() ? 0 : unsigned(num(c[2]));
        f.wire_bytes = unsigned(num(c[3])) + 4;
        f.opcode = int(num(c[4]));
        f.dest_qp = c[5].empty() ? 0 : uint32_t(num(c[5]));
        f.psn = c[6].empty() ? 0 : uint32_t(num(c[6]));
        f.aeth_opcode = int(num(c[7]));
        f.dscp = int(num(c[8]));
        frames.push_back(f);
    }
    return frames;
}

}  // namespace uetsim::test
