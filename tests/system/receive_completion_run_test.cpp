// Receive completions in whole runs (docs/receive-completions.md), on one switch, both NIC types:
// - Flows: the same 1 MiB message timed at its initiator and at its target. The traffic is the
//   same. From the last packet's arrival, the target's completion takes the last payload's PCIe
//   write (4,096 B = 8 TLPs of 512 + 34 B = 4,368 B at 504.32 Gbps = 69.29 ns at most) and the
//   entry's (98 B, 1.55 ns); the initiator's takes the ACK's way back across the switch, at least
//   2 x 100 ns of NIC links + 500 ns of forwarding + 2 x 1.56 ns for UET's 78 B ACK = 703.12 ns
//   (RoCE's 126 B ACK: 705.04 ns). So the initiator's comes at least 703.12 - 69.29 - 1.55 =
//   632.28 ns later (the UET NIC also holds its ACK for the service time, so it is later still);
// - the RDMA application with CompletionAt: target: every WQE's rdma-perf latency is shorter
//   than the same WQE's with CompletionAt: initiator, by at least the same 632.28 ns, and the
//   run's traffic (WQEs posted) is the same;
// - every run's scoreboard is clean; a value other than initiator or target exits 2 naming the
//   key.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

constexpr double k_ack_way_back_us = 0.63228;

std::string base(const std::string& nic, const std::string& simulation = "")
{
    return "Simulation: {Name: rcq" + simulation +
           "}\n"
           "Topology: {Kind: single-switch, Hosts: 2, LinkRate: 400Gbps}\n"
           "Nic: {Type: " +
           nic + "}\n";
}

std::string run_in(const std::string& tag, const std::string& yaml)
{
    const std::string dir = scratch_dir(tag);
    const auto r = run_uetsim({"run", write_file(dir + "/s.yaml", yaml), "--quiet", "--out", dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/rcq-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    return dir;
}

double flow_finish_us(const std::string& nic, const std::string& at)
{
    const std::string dir =
        run_in("rcq_flow_" + nic + "_" + at, base(nic) +
                                                 "Records: {Enabled: [flow-perf, pcie-stats]}\n"
                                                 "Flows:\n  - {Src: 0, Dst: 1, Bytes: 1MiB, "
                                                 "CompletionAt: " +
                                                 at + "}\n");
    const csv f = read_csv(dir + "/rcq-flow-perf-0.csv");
    EXPECT_EQ(f.rows.size(), 1u);
    return f.rows.empty() ? 0 : f.num(0, "fct_usec");
}

// rdma-perf latency by (connection, WQE).
std::map<std::pair<std::string, int>, double> wqe_latencies(const std::string& nic,
                                                            const std::string& at)
{
    const std::string dir =
        run_in("rcq_app_" + nic + "_" + at,
               base(nic, ", ClientStartInterval: 10us, WarmUp: 0s, RunTime: 200us, CoolDown: 0s") +
                   "RdmaApplication: {Enabled: true, MaxPendingWQEs: 2, WqeSize: 64KiB, "
                   "CompletionAt: " +
                   at + "}\nRecords: {Enabled: [rdma-perf]}\n");
    const csv p = read_csv(dir + "/rcq-rdma-perf-0.csv");
    std::map<std::pair<std::string, int>, double> out;
    for (size_t i = 0; i < p.rows.size(); ++i)
        out[{p.str(i, "application_name"), int(p.num(i, "wqe_id"))}] = p.num(i, "perf_metric_usec");
    return out;
}

void expect_target_before_initiator(const std::string& nic)
{
    const double initiator = flow_finish_us(nic, "initiator");
    const double target = flow_finish_us(nic, "target");
    EXPECT_LT(target, initiator);
    EXPECT_GE(initiator - target, k_ack_way_back_us);

    const auto ini = wqe_latencies(nic, "initiator");
    const auto tgt = wqe_latencies(nic, "target");
    ASSERT_GT(ini.size(), 10u);
    // The closed loop posts on the Initiator's completion either way: the same WQEs, give or
    // take the one whose receive completion lands before the stop and its ACK after.
    EXPECT_GE(tgt.size(), ini.size());
    EXPECT_LE(tgt.size(), ini.size() + 2);
    size_t compared = 0;
    for (const auto& [wqe, latency] : ini) {
        auto it = tgt.find(wqe);
        ASSERT_NE(it, tgt.end()) << wqe.first << " WQE " << wqe.second;
        EXPECT_LE(it->second, latency - k_ack_way_back_us) << wqe.first << " WQE " << wqe.second;
        ++compared;
    }
    EXPECT_EQ(compared, ini.size());
}

}  // namespace

TEST(receive_completion_run, uet_target_completions_come_before_the_initiators)
{
    expect_target_before_initiator("uet");
}

TEST(receive_completion_run, roce_target_completions_come_before_the_initiators)
{
    expect_target_before_initiator("roce");
}

TEST(receive_completion_run, an_unknown_completion_point_exits_2_naming_the_key)
{
    const std::string dir = scratch_dir("rcq_bad");
    const auto app = run_uetsim(
        {"validate", write_file(dir + "/a.yaml", base("uet") + "RdmaApplication: {CompletionAt: "
                                                               "responder}\n")});
    EXPECT_EQ(app.exit_code, 2);
    EXPECT_NE(app.err.find("RdmaApplication.CompletionAt"), std::string::npos) << app.err;
    EXPECT_NE(app.err.find("responder"), std::string::npos) << app.err;
    const auto flow = run_uetsim(
        {"validate",
         write_file(dir + "/f.yaml", base("uet") + "Flows:\n  - {Src: 0, Dst: 1, Bytes: 1KiB, "
                                                   "CompletionAt: sender}\n")});
    EXPECT_EQ(flow.exit_code, 2);
    EXPECT_NE(flow.err.find("CompletionAt"), std::string::npos) << flow.err;
    EXPECT_NE(flow.err.find("sender"), std::string::npos) << flow.err;
}
