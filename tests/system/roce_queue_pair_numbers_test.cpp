// RoCE data queue pairs are numbered from 2 up, as on real NICs: QP0 and QP1 are the InfiniBand
// architecture's special queue pairs (SMI, GSI). The RDMA application's connections 0 and 1
// between two hosts are queue pairs 2 and 3: read back with tshark from the Initiator's link, no
// data frame or ACK names destination QP 0 or 1, the lowest QP is 2 and the queue pairs are
// exactly {2, 3}. A Flows message's queue pair is 0x800000 up.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/roce_pcap.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

command_result run_with(const std::string& out, const std::vector<std::string>& sets)
{
    std::vector<std::string> args = {"run", "--quiet", "--out", out};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    return run_uetsim(args);
}

void expect_scoreboard_ok(const std::string& manifest)
{
    const nlohmann::json m = nlohmann::json::parse(read_text(manifest));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
}

}  // namespace

TEST(roce_queue_pair_numbers, the_rdma_applications_connections_are_queue_pairs_2_and_3)
{
    ASSERT_NE(shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string out = scratch_dir("roce-qpn");
    const command_result r =
        run_with(out, {"Nic.Type=roce", "Topology.Kind=single-switch", "Topology.Hosts=2",
                       "RdmaApplication.NumConnections=2", "RdmaApplication.MaxPendingWQEs=1",
                       "Simulation.WarmUp=0", "Simulation.RunTime=0", "Simulation.CoolDown=20us",
                       "Records.Enabled=[rdma-perf]", "Capture.Links=[host0-switch0]"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_scoreboard_ok(out + "/uetsim-manifest.json");

    std::set<uint32_t> data_qps, ack_qps;
    size_t data = 0, on_special_qps = 0;
    for (const roce_frame& f : read_roce_frames(out + "/uetsim-host0-switch0.pcap")) {
        if (f.dst_port != 4791) continue;  // connection management, PFC
        if (f.is_data()) {
            ++data;
            data_qps.insert(f.dest_qp);
            on_special_qps += f.dest_qp < 2;
        } else if (f.is_ack()) {
            ack_qps.insert(f.dest_qp);
        }
    }
    ASSERT_GT(data, 0u);
    EXPECT_EQ(on_special_qps, 0u) << "data frames on QP0 (SMI) or QP1 (GSI)";
    EXPECT_EQ(*data_qps.begin(), 2u);
    EXPECT_EQ(data_qps, (std::set<uint32_t>{2, 3}));
    EXPECT_EQ(ack_qps, (std::set<uint32_t>{2, 3}));
}

TEST(roce_queue_pair_numbers, flows_messages_are_queue_pairs_from_0x800000)
{
    ASSERT_NE(shell_output("command -v tshark"), "") << "tshark decodes the capture";
    // examples/roce-incast.yaml: host1's one message is the first Flows queue pair of its NIC.
    const std::string out = scratch_dir("roce-qpn-flows");
    const command_result r =
        run_uetsim({"run", source_dir() + "/examples/roce-incast.yaml", "--quiet", "--out", out,
                    "--set", "Capture.Links=[host1-switch0]"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_scoreboard_ok(out + "/roce-incast-manifest.json");

    std::set<uint32_t> data_qps;
    for (const roce_frame& f : read_roce_frames(out + "/roce-incast-host1-switch0.pcap"))
        if (f.dst_port == 4791 && f.is_data()) data_qps.insert(f.dest_qp);
    EXPECT_EQ(data_qps, (std::set<uint32_t>{0x800000}));
}
