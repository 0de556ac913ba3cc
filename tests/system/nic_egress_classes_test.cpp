// Per-class egress in whole runs (the NIC buffers pages: one egress pool and queue per traffic
// class, the transmit scheduler among them, ecn-pfc-stats rows for every class with a receive
// pool). RoCE NICs on one 400 Gbps switch; data in classes 0 and 2, control in class 1; both
// NICs' PoolAllocationVectors give classes 0, 1 and 2 a pool.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/roce_pcap.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

const std::string k_three_classes =
    "RoceNic: {EgressPoolAllocationVector: [0.5, 0.1, 0.4, 0, 0, 0, 0, 0], "
    "IngressPoolAllocationVector: [0.5, 0.1, 0.4, 0, 0, 0, 0, 0]";

std::string flow(int src, int dst, int tc, const std::string& bytes)
{
    return "  - {Src: " + std::to_string(src) + ", Dst: " + std::to_string(dst) +
           ", Bytes: " + bytes + ", TrafficClass: " + std::to_string(tc) + "}\n";
}

void expect_clean(const std::string& dir, const std::string& name)
{
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/" + name + "-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(m["packets_dropped"].get<uint64_t>(), 0u);
}

}  // namespace

// One sender, two 2 MiB flows to two receivers: class 0 and class 2, WeightedRoundRobin with
// weights [1, 1, 3]. Only the sender's link is shared. Once both classes' queues stay full, its
// data frames alternate three of class 2 for one of class 0 (class 1 holds no data and gives up
// its turns): any 400 frames of that stretch hold 300 of class 2 and 100 of class 0, the
// weights' 3 : 1 in frames and, every data frame being full (2 MiB = 512 x 4,096 B, 4,154 B on
// the wire), in bytes. Frames 200 to 599 lie inside it: the first frames follow the payload
// fetches (PCIe serves them in order, both classes in turn, until the pools fill), and class 2's
// 512 frames end past frame 680 (512 x 4/3). After class 2's last frame only class 0 is left.
TEST(nic_egress_classes, two_data_classes_share_the_senders_link_by_the_wrr_weights)
{
    ASSERT_NE(shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string dir = scratch_dir("egress-wrr");
    const std::string y =
        "Simulation: {Name: wrr, StopTime: 10ms}\n"
        "Topology: {Kind: single-switch, Hosts: 3, LinkRate: 400Gbps}\n"
        "Nic: {Type: roce}\n" +
        k_three_classes +
        ", EgressQueueSchedulingType: WeightedRoundRobin, "
        "EgressWRRQueueWeights: [1, 1, 3, 0, 0, 0, 0, 0]}\n"
        "Capture: {Links: [host0-switch0]}\n"
        "Records: {Enabled: [flow-perf]}\n"
        "Flows:\n" +
        flow(0, 1, 0, "2MiB") + flow(0, 2, 2, "2MiB");
    const command_result r =
        run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_clean(dir, "wrr");
    // The sender's data frames in wire order, by DSCP (the RoCE NIC's class x 8).
    std::vector<int> classes;
    for (const roce_frame& f : read_roce_frames(dir + "/wrr-host0-switch0.pcap")) {
        if (f.src != "10.0.0.1" || !f.is_data()) continue;
        classes.push_back(f.dscp / 8);
        ASSERT_EQ(f.wire_bytes, 4154u);  // every data frame full
    }
    ASSERT_EQ(classes.size(), 1024u);
    uint64_t bytes[3] = {};
    for (size_t i = 200; i < 600; ++i) bytes[classes[i]] += 4154;
    EXPECT_EQ(bytes[2], 300u * 4154u);
    EXPECT_EQ(bytes[0], 100u * 4154u);
    EXPECT_EQ(bytes[1], 0u);
    const size_t last2 = size_t(std::find(classes.rbegin(), classes.rend(), 2) - classes.rbegin());
    const size_t end = classes.size() - last2;  // one past class 2's last frame
    EXPECT_GE(end, 683u);                       // 512 x 4/3: class 0 had its turns
    for (size_t i = end; i < classes.size(); ++i) EXPECT_EQ(classes[i], 0);
}

// An 8:1 incast in which each sender sends 1 MiB in class 0 and 1 MiB in class 2, with the
// switch lossless on classes 0 to 2 (EnablePFC, each class in its own pool). The switch pauses
// the senders on both data classes; every NIC's ecn-pfc-stats rows cover exactly the classes
// with a receive pool (0, 1, 2) once non-zero: each sender gets rows for class 0 and class 2,
// none for 3 to 7, and no NIC row is all zeros. Class 2's pause frames are new: with one row
// set fixed at classes 0 and 1 they were never written.
TEST(nic_egress_classes, ecn_pfc_stats_has_a_row_for_each_class_with_a_receive_pool)
{
    const std::string dir = scratch_dir("egress-pfc-rows");
    std::string y =
        "Simulation: {Name: rows, StopTime: 50ms, NDStatsReportInterval: 10us}\n"
        "Topology: {Kind: single-switch, Hosts: 9, LinkRate: 400Gbps}\n"
        "Nic: {Type: roce}\n" +
        k_three_classes +
        "}\n"
        "Switch: {EnablePFC: [1, 1, 1, 0, 0, 0, 0, 0], "
        "TrafficClassPoolMapping: [0, 1, 2, 0, 0, 0, 0, 0], "
        "PoolAllocationMap: [0.5, 0.1, 0.4, 0, 0, 0, 0, 0]}\n"
        "Records: {Enabled: [ecn-pfc-stats, flow-perf]}\n"
        "Flows:\n";
    for (int s = 1; s <= 8; ++s) y += flow(s, 0, 0, "1MiB") + flow(s, 0, 2, "1MiB");
    const command_result r =
        run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_clean(dir, "rows");
    EXPECT_EQ(read_csv(dir + "/rows-flow-perf-0.csv").rows.size(), 16u);
    const csv e = read_csv(dir + "/rows-ecn-pfc-stats-0.csv");
    std::map<std::string, std::map<int, double>> xoff_rx;  // host -> class -> largest count
    for (size_t i = 0; i < e.rows.size(); ++i) {
        if (e.str(i, "component_type") != "NIC") continue;
        const int tc = int(e.num(i, "priority"));
        EXPECT_LE(tc, 2) << e.str(i, "component_name") << ": a class without a receive pool";
        EXPECT_GT(e.num(i, "pfcxoff_tx") + e.num(i, "pfcxon_tx") + e.num(i, "pfcxoff_rx") +
                      e.num(i, "pfcxon_rx"),
                  0)
            << "a NIC row is written only once non-zero";
        double& v = xoff_rx[e.str(i, "component_name")][tc];
        v = std::max(v, e.num(i, "pfcxoff_rx"));
    }
    for (int s = 1; s <= 8; ++s) {
        const std::string h = "host" + std::to_string(s);
        EXPECT_GT(xoff_rx[h][0], 0) << h << " paused on class 0";
        EXPECT_GT(xoff_rx[h][2], 0) << h << " paused on class 2";
    }
}
