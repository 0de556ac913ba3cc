// nic-pipeline-stats and inspect's nic_pipeline through the real command: one 4 MiB message
// between two hosts of a single switch, RdmaDataMSS 1,024, with the receiver's SackUpdate
// interval at 40 cycles (25 M packets/s, below the wire's 44.2 M).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

const char* const scenario_text =
    "Simulation: {Name: np, NDStatsReportInterval: 20us}\n"
    "Records: {Enabled: [flow-perf, nic-pipeline-stats]}\n"
    "Topology: {Kind: single-switch, Hosts: 2}\n"
    "UetNic: {RdmaDataMSS: 1024, SackUpdateIntervalCycles: 40}\n"
    "Flows:\n"
    "  - {Src: 0, Dst: 1, Bytes: 4194304}\n";

}  // namespace

TEST(nic_pipeline_stats, inspect_names_the_binding_stage_and_its_bound)
{
    const std::string dir = scratch_dir("np-inspect");
    const std::string file = write_file(dir + "/np.yaml", scenario_text);
    const command_result r = run_uetsim({"inspect", file, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& p = j.at("nic_pipeline");
    EXPECT_EQ(p.at("binding_stage"), "SackUpdate");
    EXPECT_TRUE(p.at("nic_binds_before_wire").get<bool>());
    bool seen = false;
    for (const auto& s : p.at("stages"))
        if (s.at("stage") == "SackUpdate") {
            seen = true;
            EXPECT_DOUBLE_EQ(s.at("bound_pps").get<double>(), 25e6);
            EXPECT_DOUBLE_EQ(s.at("bound_gbps").get<double>(), 204.8);
            EXPECT_EQ(s.at("interval_cycles"), 40);
        }
    EXPECT_TRUE(seen);
    // The PDC context cache is off by default; the context size is the 256 B default.
    EXPECT_EQ(p.at("pdc_context_cache_entries"), 0);
    EXPECT_EQ(p.at("pdc_context_bytes"), 256);
    // A miss on the idle default link: request (64 + 34) B and completion (256 + 34) B at
    // 504.32 Gb/s, no latency: 1.555 + 4.600 ns.
    EXPECT_NEAR(p.at("pdc_context_miss_s").get<double>(), (98 + 290) * 8 / 504.32e9, 2e-12);
}

TEST(nic_pipeline_stats, the_binding_stage_is_busy_and_the_others_are_not)
{
    const std::string dir = scratch_dir("np-run");
    const std::string file = write_file(dir + "/np.yaml", scenario_text);
    const command_result r = run_uetsim({"run", file, "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;

    // 4,096 packets at 40 ns each: at least 163.84 us.
    const csv perf = read_csv(dir + "/np-flow-perf-0.csv");
    ASSERT_EQ(perf.rows.size(), 1u);
    EXPECT_GE(perf.num(0, "fct_usec"), 163.84);
    EXPECT_LE(perf.num(0, "fct_usec"), 163.84 * 1.05);

    const csv st = read_csv(dir + "/np-nic-pipeline-stats-0.csv");
    double sack = 0, scheduler = 0, rx_parse = 0;
    uint64_t sack_items = 0;
    for (size_t i = 0; i < st.rows.size(); ++i) {
        const std::string& host = st.str(i, "component_name");
        const std::string& stage = st.str(i, "stage");
        const double busy = st.num(i, "ivl_busy_fraction");
        if (host == "host1" && stage == "SackUpdate") {
            sack = std::max(sack, busy);
            sack_items = uint64_t(st.num(i, "items"));
        }
        if (host == "host1" && stage == "RxParse") rx_parse = std::max(rx_parse, busy);
        if (host == "host0" && stage == "Scheduler") scheduler = std::max(scheduler, busy);
    }
    EXPECT_GT(sack, 0.95);
    EXPECT_EQ(rx_parse, 0.0);      // a latency only
    EXPECT_LT(scheduler, 0.1);     // 2 ns of every 40
    EXPECT_GE(sack_items, 4096u);  // every data packet, and the probe
}

TEST(nic_pipeline_stats, mac_drops_show_in_the_retransmit_queue_and_outstanding_packets)
{
    // As above with RxParse at 40 cycles a frame behind a 16-entry MAC receive FIFO: the
    // receiver drops frames, the sender's timeouts queue them for retransmission, and the run
    // still completes.
    const std::string dir = scratch_dir("np-drops");
    std::string text = scenario_text;
    const std::string listed = "[flow-perf, nic-pipeline-stats]";
    text.replace(text.find(listed), listed.size(),
                 "[flow-perf, uet-transport-stats, nic-pipeline-stats]");
    const std::string file = write_file(dir + "/np.yaml", text);
    const command_result r =
        run_uetsim({"run", file, "--quiet", "--out", dir, "--set", "UetNic.RxParseQueueDepth=16",
                    "--set", "UetNic.RxParseIntervalCycles=40"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const csv st = read_csv(dir + "/np-nic-pipeline-stats-0.csv");
    double drops = 0, rtx_max = 0, outstanding_max = 0, outstanding_p99 = 0, rx_fifo_max = 0;
    for (size_t i = 0; i < st.rows.size(); ++i) {
        if (st.str(i, "component_name") == "host1") {
            drops = st.num(i, "mac_rx_drops");
            if (st.str(i, "stage") == "RxParse") rx_fifo_max = st.num(i, "fifo_max");
        }
        if (st.str(i, "component_name") == "host0") {
            rtx_max = st.num(i, "rtx_queue_max");
            outstanding_max = st.num(i, "outstanding_pkts_max");
            outstanding_p99 = st.num(i, "outstanding_pkts_p99");
        }
    }
    const csv tr = read_csv(dir + "/np-uet-transport-stats-0.csv");
    double rto = 0;
    for (size_t i = 0; i < tr.rows.size(); ++i)
        if (tr.str(i, "component_name") == "host0") rto = tr.num(i, "num_rto");
    ASSERT_GT(drops, 0);
    EXPECT_LE(rx_fifo_max, 16);  // the MAC FIFO never holds more than its depth
    // Every dropped frame (data; no ACK reaches a FIFO this full on host0) is retransmitted
    // after its timer: at least one waits in the retransmit queue, never more than were lost.
    EXPECT_GT(rto, 0);
    EXPECT_GE(rtx_max, 1);
    EXPECT_LE(rtx_max, rto);
    EXPECT_GE(outstanding_max, rtx_max);
    EXPECT_LE(outstanding_p99, outstanding_max);
    EXPECT_GT(outstanding_p99, 0);
}
