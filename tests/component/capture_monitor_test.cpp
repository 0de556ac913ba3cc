// pcap captures decode in tshark as Ethernet / IPv4 / UDP to port 4793 with the entropy value as
// source port, and uet-monitor logs each data packet with the same entropy values.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "testbench/run/simulation.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

TEST(capture, one_mib_message_decodes_in_tshark_and_matches_uet_monitor)
{
    scenario sc;
    sc.simulation.name = "cap";
    flow_spec f;
    f.src = 0;
    f.dst = 8;
    f.bytes = 1u << 20;
    sc.flows.messages.push_back(f);
    sc.capture.links = {"host0-leaf0"};
    sc.records.monitor.enabled = true;
    const std::string dir = test::scratch_dir("cap");
    run_options o;
    o.out_dir = dir;
    run_summary s = run_simulation(sc, o);
    ASSERT_TRUE(s.scoreboard_ok) << s.scoreboard_message;

    // tshark reads every frame: 256 data packets out, 256 ACKs and one probe ACK back, one probe.
    const std::string fields = test::shell_output(
        "tshark -r " + dir +
        "/cap-host0-leaf0.pcap -T fields -e eth.type -e ip.proto "
        "-e ip.dsfield.ecn -e udp.srcport -e udp.dstport -e frame.len 2>/dev/null");
    std::map<int, int> by_len;
    std::multiset<int> data_sports;
    int lines = 0;
    size_t pos = 0;
    while (pos < fields.size()) {
        size_t nl = fields.find('\n', pos);
        std::string line = fields.substr(pos, nl - pos);
        pos = nl == std::string::npos ? fields.size() : nl + 1;
        if (line.empty()) continue;
        ++lines;
        unsigned type = 0, proto = 0, ecn = 0, sport = 0, dport = 0, len = 0;
        ASSERT_EQ(std::sscanf(line.c_str(), "0x%x %u %u %u %u %u", &type, &proto, &ecn, &sport,
                              &dport, &len),
                  6)
            << line;
        EXPECT_EQ(type, 0x0800u);
        EXPECT_EQ(proto, 17u);
        EXPECT_EQ(dport, 4793u);
        EXPECT_EQ(ecn, 1u);  // ECT(1) on every packet
        ++by_len[int(len)];
        if (len == 4096 + 106 - 4) data_sports.insert(int(sport));
    }
    EXPECT_EQ(by_len[4198], 256);  // data frames without FCS
    EXPECT_EQ(by_len[74], 257);    // 256 ACKs and the probe's ACK (78 B less FCS)
    EXPECT_EQ(by_len[58], 1);      // the probe
    EXPECT_EQ(lines, 256 + 257 + 1);
    // Default Packet Spraying: ports 256..383, each twice.
    for (int port = 256; port < 384; ++port) EXPECT_EQ(data_sports.count(port), 2u) << port;

    // uet-monitor: the sender's Tx rows carry the same entropy values, in the same order.
    test::csv mon = test::read_csv(dir + "/cap-uet-monitor-0.csv");
    ASSERT_EQ(mon.header.size(), 27u);
    std::multiset<int> monitor_sports;
    for (size_t i = 0; i < mon.rows.size(); ++i)
        if (mon.str(i, "component_name") == "host0" && mon.str(i, "direction") == "Tx" &&
            mon.str(i, "packet_type") == "RUD_REQUEST")
            monitor_sports.insert(std::stoi(mon.str(i, "entropy_value")));
    EXPECT_EQ(monitor_sports, data_sports);
}
