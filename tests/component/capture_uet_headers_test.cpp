// UET headers in a pcap capture, read back with tshark (UDP 4793 has no dissector in Wireshark
// 4.0: the UDP payload is the PDS header onward, as raw bytes).
// - Header cost (X22): a data packet carries PDS 16 B (RUD_CC_REQ) + SES 44 B, so a 4,096-byte
//   payload is a 4,202-byte frame on the wire (payload + 106), 4,198 in pcap (no FCS), UDP length
//   8 + 16 + 44 + 4,096 = 4,164; not the seed's 102 (PDS 12).
// - ACK_CC (X27): 32 B of PDS, whose last 8 B are UET 1.0's NSCC cc_state, big-endian:
//   service_time:16 · restore_cwnd:1 · rcv_cwnd_pen:7 · rcvd_bytes:24 · ooo_count:16.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "testbench/capture/pcap_capture.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

packet uet(packet_kind kind, uint32_t payload)
{
    packet p;
    p.kind = kind;
    p.ip.src = 0x0a000001;
    p.ip.dst = 0x0a000002;
    p.udp.src_port = 0x1234;
    p.payload_bytes = payload;
    p.wire_bytes = wire_size(kind, payload);
    return p;
}

packet ack(uint16_t service_time, bool restore, uint8_t penalty, uint64_t rcvd, uint16_t ooo)
{
    packet p = uet(packet_kind::uet_ack, 0);
    p.pds.cack_psn = 100;
    p.pds.ack_psn = 100;
    p.pds.service_time = service_time;
    p.pds.restore_cwnd = restore;
    p.pds.rcv_penalty = penalty;
    p.pds.rcvd_bytes = rcvd;
    p.pds.ooo_count = ooo;
    return p;
}

}  // namespace

TEST(capture, uet_data_frames_carry_106_bytes_of_headers_and_fcs)
{
    ASSERT_NE(test::shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string path = test::scratch_dir("uet_hdr_cap") + "/data.pcap";
    {
        pcap_file f(path);
        f.write(uet(packet_kind::uet_data, 4096), 1'000'000);
        f.write(uet(packet_kind::uet_data, 1), 2'000'000);
    }
    EXPECT_EQ(wire_size(packet_kind::uet_data, 4096), 4202u);
    // frame.len = payload + 106 - 4; ip.len = payload + 44 + 16 + 8 + 20; udp.length without IP.
    EXPECT_EQ(test::shell_output("tshark -r " + path +
                                 " -T fields -E separator=, -e frame.len -e ip.len -e udp.length "
                                 "2>/dev/null"),
              "4198,4184,4164\n"
              "103,89,69\n");
}

TEST(capture, ack_cc_carries_uet_1_0_nscc_cc_state)
{
    ASSERT_NE(test::shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string path = test::scratch_dir("uet_ack_cap") + "/ack.pcap";
    {
        pcap_file f(path);
        // rcvd_bytes beyond 24 bits: the field carries it modulo 2^24.
        f.write(ack(0x1234, true, 0x55, 0x01ABCDEF, 0x0102), 1'000'000);
        f.write(ack(0xFFFF, false, 127, 0x000010, 0), 2'000'000);
        f.write(ack(0x0001, true, 0, 0xFFFFFF, 0xFFFF), 3'000'000);
    }
    const std::string out = test::shell_output("tshark -r " + path +
                                               " -T fields -e udp.length -e data.data 2>/dev/null");
    // The PDS header is the UDP payload (32 B: UDP length 40); cc_state is its last 16 hex digits:
    // 1234 | 1 1010101 = d5 | abcdef | 0102 ...
    std::vector<std::string> state;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        const size_t tab = line.find('\t');
        ASSERT_EQ(line.substr(0, tab), "40") << line;
        const std::string pds = line.substr(tab + 1);
        ASSERT_EQ(pds.size(), 64u) << pds;
        EXPECT_EQ(pds.substr(2, 2), "00") << "flags: no restore bit outside cc_state";
        state.push_back(pds.substr(48));
    }
    ASSERT_EQ(state.size(), 3u);
    EXPECT_EQ(state[0], "1234d5abcdef0102");
    EXPECT_EQ(state[1], "ffff7f0000100000");  // restore 0, penalty 127
    EXPECT_EQ(state[2], "000180ffffffffff");  // restore 1, penalty 0
}

// RCCC (UET 1.0 receiver credit): an ACK_CC with cc_type 1 (the flags byte's low 4 bits) whose
// cc_state is credit:24 · rsvd:8 · rsvd:16 · ooo_count:16; a data packet's req_cc_state
// ccc_id:8 · credit_target:24 in the PDS header's last 4 bytes (flag 0x10); CREDIT (ctl_type 7)
// and CREDIT_REQ (8), 16-byte PDS control headers with the 24-bit value in the payload field.
TEST(capture, rccc_frames_carry_the_credit_cc_state_target_and_control_types)
{
    ASSERT_NE(test::shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string path = test::scratch_dir("uet_rccc_cap") + "/rccc.pcap";
    {
        pcap_file f(path);
        packet a = ack(0x1234, true, 0x55, 0x01ABCDEF, 0x0102);  // NSCC fields not written
        a.pds.cc_type = pds_cc::credit;
        a.pds.credit = 0x123456;
        f.write(a, 1'000'000);
        packet d = uet(packet_kind::uet_data, 4096);
        d.pds.cc_type = pds_cc::credit;
        d.pds.credit_target = 0xABCDEF;
        d.pds.first_psn = 0x11111111;
        f.write(d, 2'000'000);
        packet c = uet(packet_kind::uet_control, 0);
        c.pds.ctl_type = pds_ctl::credit;
        c.pds.credit = 0x000040;
        f.write(c, 3'000'000);
        packet r = uet(packet_kind::uet_control, 0);
        r.pds.ctl_type = pds_ctl::credit_request;
        r.pds.credit_target = 0x0000C7;
        f.write(r, 4'000'000);
    }
    const std::string out = test::shell_output(
        "tshark -r " + path + " -T fields -E separator=, -e frame.len -e data.data 2>/dev/null");
    std::vector<std::string> rows;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) rows.push_back(line);
    ASSERT_EQ(rows.size(), 4u) << out;
    // ACK: 78 B on the wire, 74 without the FCS; PDS type 0a, flags 01 (cc_type 1).
    EXPECT_EQ(rows[0].substr(0, 3), "74,");
    EXPECT_EQ(rows[0].substr(3, 4), "0a01");
    EXPECT_EQ(rows[0].substr(3 + 48), "1234560000000102");
    // Data: PDS type 02, flags 10; its 16th..13th bytes from the end of the PDS header.
    EXPECT_EQ(rows[1].substr(0, 5), "4198,");
    EXPECT_EQ(rows[1].substr(5, 4), "0210");
    EXPECT_EQ(rows[1].substr(5 + 24, 8), "00abcdef");
    // CREDIT and CREDIT_REQ: 62 B on the wire; PDS type 07, ctl_type 07 / 08, value last.
    EXPECT_EQ(rows[2],
              "58,0707000000000000000000000000"
              "0040");
    EXPECT_EQ(rows[3],
              "58,0708000000000000000000000000"
              "00c7");
    EXPECT_EQ(wire_size(packet_kind::uet_control, 0), 62u);
}
