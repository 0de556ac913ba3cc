// A PFC frame in a pcap capture decodes in tshark as an IEEE 802.1Qbb MAC control frame:
// ethertype 0x8808, opcode 0x0101, the class-enable vector and the pause time (quanta) of each
// named class; its length on the wire less the FCS is 60 B (UET) or 80 B (RoCE).
#include <gtest/gtest.h>

#include <string>

#include "testbench/capture/pcap_capture.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

TEST(capture, pfc_frames_decode_in_tshark_as_8021qbb)
{
    const std::string path = test::scratch_dir("pfc_cap") + "/pfc.pcap";
    {
        pcap_file f(path);
        packet p;
        p.kind = packet_kind::pfc;
        p.ip.src = 0x0a000003;
        p.wire_bytes = wire::pfc_uet_bytes;
        p.pfc.class_enable = 0b10;
        p.pfc.quanta[1] = 65535;
        f.write(p, 1'000'000);
        p.pfc.quanta[1] = 0;  // the resume
        f.write(p, 2'000'000);
        p.wire_bytes = wire::pfc_roce_bytes;
        p.pfc.class_enable = 0b01;
        p.pfc.quanta[1] = 0;
        p.pfc.quanta[0] = 1234;
        f.write(p, 3'000'000);
    }
    const std::string out = test::shell_output(
        "tshark -r " + path +
        " -T fields -E separator=, -e eth.dst -e eth.type -e macc.opcode -e macc.cbfc.enbv "
        "-e macc.cbfc.pause_time.c0 -e macc.cbfc.pause_time.c1 -e frame.len 2>/dev/null");
    EXPECT_EQ(out,
              "01:80:c2:00:00:01,0x8808,0x0101,0x0002,0,65535,60\n"
              "01:80:c2:00:00:01,0x8808,0x0101,0x0002,0,0,60\n"
              "01:80:c2:00:00:01,0x8808,0x0101,0x0001,1234,0,80\n");
}
