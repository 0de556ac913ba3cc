// RoCE v2 frames in a pcap capture decode in tshark as InfiniBand over UDP 4791 (Wireshark's
// default for the port): the BTH's opcode, destination QP, PSN, solicited-event and AckReq bits,
// the AETH's syndrome and MSN on ACKs and NAKs, the CNP's opcode, the IPv4 DSCP and ECN the packet
// carries, and the sizes of the RoCE transport page: data = payload + 58 (4,154 B at 4096),
// ACK/NAK 126 B, CNP 122 B on the wire, each 4 B less in pcap (no FCS).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testbench/capture/pcap_capture.h"
#include "tests/support/run_uetsim.h"
#include "tlm/roce_opcode.h"

using namespace uetsim;

namespace {

packet roce(packet_kind kind, uint8_t opcode, uint32_t qp, uint32_t psn, uint32_t payload)
{
    packet p;
    p.kind = kind;
    p.ip.src = 0x0a000001;
    p.ip.dst = 0x0a000002;
    p.udp.src_port = 0xC000 | (qp & 0x3FFF);
    p.udp.dst_port = wire::roce_udp_port;
    p.payload_bytes = payload;
    p.wire_bytes = wire_size(kind, payload);
    p.bth.opcode = opcode;
    p.bth.dest_qp = qp;
    p.bth.psn = psn;
    return p;
}

packet data(uint8_t opcode, uint32_t psn, uint32_t payload, bool last)
{
    packet p = roce(packet_kind::roce_data, opcode, 0x000123, psn, payload);
    p.ip.dscp = 3 * 8;  // data class 3
    p.ip.ecn = ecn::ect0;
    p.bth.solicited = last;
    p.bth.ack_request = last;
    return p;
}

packet ack(uint32_t psn, uint8_t syndrome, uint32_t msn)
{
    packet p = roce(packet_kind::roce_ack, ib::rc_acknowledge, 0x000456, psn, 0);
    p.ip.dscp = 6 * 8;  // control class 6, Not-ECT
    p.bth.aeth_syndrome = syndrome;
    p.bth.msn = msn;
    return p;
}

}  // namespace

TEST(capture, roce_frames_decode_in_tshark_as_infiniband_over_udp_4791)
{
    ASSERT_NE(test::shell_output("command -v tshark"), "")
        << "tshark is not installed: this test decodes the capture with it (scripts/setup.sh "
           "installs it: apt-get install tshark)";

    std::vector<packet> frames = {
        data(ib::rc_send_first, 100, 4096, false),
        data(ib::rc_send_middle, 101, 4096, false),
        data(ib::rc_send_last, 102, 1000, true),
        data(ib::rc_send_only, 103, 8, true),
        data(ib::rc_rdma_write_first, 0xFFFFFE, 4096, false),
        data(ib::rc_rdma_write_middle, 0xFFFFFF, 4096, false),
        data(ib::rc_rdma_write_last, 0, 4096, true),  // the 24-bit PSN wraps
        data(ib::rc_rdma_write_only, 1, 64, true),
        ack(102, ib::aeth_ack_no_credit, 7),
        ack(101, ib::aeth_nak_psn_sequence_error, 6),  // NAK names the expected PSN
        roce(packet_kind::roce_cnp, ib::cnp, 0x000789, 0, 0),
    };
    frames.back().ip.dscp = 6 * 8;
    frames[2].ip.ecn = ecn::ce;  // a CE-marked packet keeps its mark in the capture

    const std::string path = test::scratch_dir("roce_cap") + "/roce.pcap";
    {
        pcap_file f(path);
        uint64_t t = 1'000'000;
        for (const packet& p : frames) f.write(p, t += 1'000'000);
    }
    const std::string out = test::shell_output(
        "tshark -r " + path +
        " -T fields -E separator=, -E occurrence=f -e frame.len -e ip.len -e ip.dsfield.dscp "
        "-e ip.dsfield.ecn -e udp.dstport -e infiniband.bth.opcode -e infiniband.bth.se "
        "-e infiniband.bth.p_key -e infiniband.bth.destqp -e infiniband.bth.a "
        "-e infiniband.bth.psn -e infiniband.aeth.syndrome -e infiniband.aeth.msn "
        "-e frame.cap_len 2>/dev/null");
    // Hand-computed: data frame.len = payload + 58 - 4 (FCS), ip.len = payload + 12 + 8 + 20;
    // ACK/NAK 126 - 4 = 122, ip.len 64 + 4 + 12 + 8 + 20 = 108; CNP 122 - 4 = 118, ip.len 104.
    // DSCP 24 / 48, ECN 2 = ECT(0), 3 = CE, 0 = Not-ECT; opcodes in decimal; syndrome 0x1F = 31
    // (ACK, invalid credit count), 0x60 = 96 (NAK, PSN sequence error). Captured: the headers,
    // 14 + 20 + 8 + 12 = 54 B, with the AETH 58 B, with the CNP's 16 reserved bytes 70 B
    // (Wireshark 4.0 has no name for opcode 0x81 and shows those as vendor-specific data).
    EXPECT_EQ(out,
              "4150,4136,24,2,4791,0,0,65535,0x000123,0,100,,,54\n"
              "4150,4136,24,2,4791,1,0,65535,0x000123,0,101,,,54\n"
              "1054,1040,24,3,4791,2,1,65535,0x000123,1,102,,,54\n"
              "62,48,24,2,4791,4,1,65535,0x000123,1,103,,,54\n"
              "4150,4136,24,2,4791,6,0,65535,0x000123,0,16777214,,,54\n"
              "4150,4136,24,2,4791,7,0,65535,0x000123,0,16777215,,,54\n"
              "4150,4136,24,2,4791,8,1,65535,0x000123,1,0,,,54\n"
              "118,104,24,2,4791,10,1,65535,0x000123,1,1,,,54\n"
              "122,108,48,0,4791,17,0,65535,0x000456,0,102,31,7,58\n"
              "122,108,48,0,4791,17,0,65535,0x000456,0,101,96,6,58\n"
              "118,104,48,0,4791,129,0,65535,0x000789,0,0,,,70\n");

    // No frame raises a dissector exception (Malformed) or an expert error: with at least 4 B
    // of payload (Wireshark reads the last 4 as an ICRC the pages do not have).
    EXPECT_EQ(test::shell_output("tshark -r " + path +
                                 " -Y '_ws.malformed || _ws.expert.severity >= error' 2>/dev/null"),
              "");
}
