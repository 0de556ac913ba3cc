// net-buff-stats in whole runs, read from its CSV: a 7:1 incast on one switch into host 0 whose
// NIC-to-host PCIe direction runs at 8 lanes (252 Gbps, below the 400 Gbps link), so received
// data backs up in host 0's RX_TC0 pool; each sender's TX_TC0 reservations stay within its
// 230,400 B data pool. Rows per pool with the pages' names and sizes, every interval, written
// only with both switches on (Records.Enabled lists it and the NIC's EnableBufferStats).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

std::string scenario(const std::string& records)
{
    std::string s =
        "Simulation: {Name: nb, StopTime: 20ms, NetworkBufferStatsReportingInterval: 20us}\n"
        "Topology: {Kind: single-switch, Hosts: 8, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "Pcie: {NicSideLaneCount: 8}\n"
        "Records: {Enabled: [" +
        records +
        "]}\n"
        "Flows:\n";
    for (int h = 1; h <= 7; ++h) s += "  - {Src: " + std::to_string(h) + ", Dst: 0, Bytes: 2MiB}\n";
    return s;
}

struct run
{
    std::string dir;
    int exit_code;
};

run run_with(const std::string& tag, const std::string& records,
             const std::vector<std::string>& sets)
{
    const std::string dir = scratch_dir(tag);
    std::vector<std::string> args = {"run", write_file(dir + "/s.yaml", scenario(records)),
                                     "--quiet", "--out", dir};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return {dir, r.exit_code};
}

const char* const nb_file = "/nb-net-buff-stats-0.csv";

}  // namespace

TEST(net_buff_stats, incast_fills_the_receivers_rx_pool_and_tx_reservations_stay_in_the_pool)
{
    const run r = run_with("nb_incast", "flow-perf, nd-stats, net-buff-stats",
                           {"UetNic.EnableBufferStats=true"});
    ASSERT_EQ(r.exit_code, 0);
    const nlohmann::json m = nlohmann::json::parse(read_text(r.dir + "/nb-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(read_csv(r.dir + "/nb-flow-perf-0.csv").rows.size(), 7u);

    const csv c = read_csv(r.dir + nb_file);
    const std::vector<std::string> columns = {"job_id",
                                              "time_utc",
                                              "sim_time_sec",
                                              "component_name",
                                              "node_id",
                                              "buffer_id",
                                              "tc",
                                              "occupancy_B",
                                              "max_occupancy_B",
                                              "buffer_max_size_B",
                                              "num_enq",
                                              "num_deq",
                                              "interval_num_enq",
                                              "interval_num_deq",
                                              "interval_enq_B",
                                              "interval_deq_B",
                                              "interval_max_occupancy_B",
                                              "enq_Gbps",
                                              "deq_Gbps",
                                              "overflow",
                                              "percent_occupancy"};
    EXPECT_EQ(c.header, columns);

    // Four pools per NIC, named and sized as the records page's table; eight NICs.
    const std::map<std::string, double> sizes = {{"RX_TC0_BUFFER", 3'600'000},
                                                 {"RX_TC1_BUFFER", 400'000},
                                                 {"TX_TC0_BUFFER", 230'400},
                                                 {"TX_TC1_BUFFER", 25'600}};
    std::map<std::string, size_t> rows_of;
    for (size_t i = 0; i < c.rows.size(); ++i) {
        const std::string id = c.str(i, "buffer_id");
        ASSERT_TRUE(sizes.count(id)) << id;
        EXPECT_EQ(c.num(i, "buffer_max_size_B"), sizes.at(id));
        EXPECT_EQ(c.num(i, "tc"), id[5] - '0');
        EXPECT_EQ(c.str(i, "job_id"), "nb");
        EXPECT_LE(c.num(i, "max_occupancy_B"), c.num(i, "buffer_max_size_B")) << id;
        EXPECT_LE(c.num(i, "interval_max_occupancy_B"), c.num(i, "max_occupancy_B"));
        EXPECT_GE(c.num(i, "interval_max_occupancy_B"), c.num(i, "occupancy_B"));
        ++rows_of[c.str(i, "component_name") + "/" + id];
    }
    EXPECT_EQ(rows_of.size(), 8u * 4u);
    const size_t per_pool = rows_of.begin()->second;
    EXPECT_GT(per_pool, 10u);  // one every 20 us while the incast runs, and a last one
    for (const auto& [k, n] : rows_of) EXPECT_EQ(n, per_pool) << k;

    // host0's receive data pool: received data waits for the 252 Gbps PCIe direction, so its
    // occupancy rises well above one packet (4,184 B) during the incast, then drains.
    double rx0_peak = 0, rx0_first = -1, rx0_last = -1, rx0_enq = 0, rx0_deq = 0;
    double tx0_peak = 0, tx0_enq = 0;
    for (size_t i = 0; i < c.rows.size(); ++i) {
        const std::string who = c.str(i, "component_name"), id = c.str(i, "buffer_id");
        if (who == "host0" && id == "RX_TC0_BUFFER") {
            if (rx0_first < 0) rx0_first = c.num(i, "interval_max_occupancy_B");
            rx0_peak = std::max(rx0_peak, c.num(i, "interval_max_occupancy_B"));
            rx0_last = c.num(i, "occupancy_B");
            rx0_enq = c.num(i, "num_enq"), rx0_deq = c.num(i, "num_deq");
            EXPECT_EQ(c.num(i, "overflow"), 0);
        }
        if (who != "host0" && id == "TX_TC0_BUFFER") {
            tx0_peak = std::max(tx0_peak, c.num(i, "max_occupancy_B"));
            tx0_enq += c.num(i, "interval_num_enq");
            EXPECT_LE(c.num(i, "occupancy_B"), 230'400);
            EXPECT_EQ(c.num(i, "overflow"), 0);
        }
    }
    EXPECT_GT(rx0_peak, 100'000);  // about 24 full packets or more waiting for the host
    EXPECT_GT(rx0_peak, rx0_first);
    EXPECT_EQ(rx0_last, 0);        // all written to the host by the end
    EXPECT_EQ(rx0_enq, rx0_deq);   // every packet charged was released
    EXPECT_GE(rx0_enq, 7 * 512);   // 7 x 2 MiB of 4,096 B packets at least
    EXPECT_GT(tx0_peak, 4'202);    // the senders queue more than one packet
    EXPECT_LE(tx0_peak, 230'400);  // bounded by the data pool
    EXPECT_GE(tx0_enq, 7 * 512);   // every data packet reserved its pool once at least
}

TEST(net_buff_stats, with_only_one_of_the_two_switches_no_rows_are_written)
{
    // Records.Enabled lists it, no NIC has EnableBufferStats: no file.
    const run a = run_with("nb_no_nic", "flow-perf, net-buff-stats", {});
    EXPECT_FALSE(std::filesystem::exists(a.dir + nb_file));
    // The NIC's switch on, the record not listed (EnableNetworkBufferStatsReporting false).
    const run b = run_with("nb_not_listed", "flow-perf", {"UetNic.EnableBufferStats=true"});
    EXPECT_FALSE(std::filesystem::exists(b.dir + nb_file));
    // Only host3's NIC: its four pools only.
    const run one =
        run_with("nb_host3", "flow-perf, net-buff-stats", {"UetNic[host3].EnableBufferStats=true"});
    const csv c = read_csv(one.dir + nb_file);
    ASSERT_FALSE(c.rows.empty());
    for (size_t i = 0; i < c.rows.size(); ++i) EXPECT_EQ(c.str(i, "component_name"), "host3");
    // The flows' outcome does not depend on the record.
    EXPECT_TRUE(read_text(one.dir + "/nb-flow-perf-0.csv") ==
                read_text(b.dir + "/nb-flow-perf-0.csv"));
}
