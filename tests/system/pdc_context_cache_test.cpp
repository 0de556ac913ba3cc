// The PDC context cache through the real command: one NIC sends a 64 KiB message to each of 64
// peers at once (one PDC each, served in turn), with the PCIe link's 500 ns latency. With 8
// entries the scheduler's round robin over 64 PDCs misses on every pick (LRU's cyclic worst
// case) and waits for each context read; with 64 entries every context misses once and then
// stays. Outcomes from nic-pipeline-stats and flow-perf; the scoreboard stays clean.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

std::string scenario_text(int entries)
{
    std::string s =
        "Simulation: {Name: cc, NDStatsReportInterval: 50us}\n"
        "Records: {Enabled: [flow-perf, nic-pipeline-stats]}\n"
        "Topology: {Kind: single-switch, Hosts: 65}\n"
        "Pcie: {Latency: 500ns}\n"
        "UetNic: {PdcContextCacheEntries: " +
        std::to_string(entries) +
        "}\n"
        "Flows:\n";
    for (int d = 1; d <= 64; ++d)
        s += "  - {Src: 0, Dst: " + std::to_string(d) + ", Bytes: 65536}\n";
    return s;
}

struct outcome
{
    double last_fct_us = 0;
    double misses = 0, evictions = 0, hits = 0;  // host0, last row
    double peer_misses = 0;                      // host1, last row
    double open_tx_max = 0, peer_open_rx_max = 0, rtx_queue_max = -1;
};

outcome run(int entries)
{
    const std::string dir = scratch_dir("cc-" + std::to_string(entries));
    const std::string file = write_file(dir + "/cc.yaml", scenario_text(entries));
    const command_result r = run_uetsim({"run", file, "--quiet", "--out", dir});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    outcome o;
    const csv perf = read_csv(dir + "/cc-flow-perf-0.csv");
    EXPECT_EQ(perf.rows.size(), 64u);
    for (size_t i = 0; i < perf.rows.size(); ++i)
        o.last_fct_us = std::max(o.last_fct_us, perf.num(i, "fct_usec"));
    const csv st = read_csv(dir + "/cc-nic-pipeline-stats-0.csv");
    for (size_t i = 0; i < st.rows.size(); ++i) {
        if (st.str(i, "stage") != "Scheduler") continue;  // the NIC's columns, once per row set
        EXPECT_EQ(st.num(i, "pdc_context_cache_entries"), entries);
        if (st.str(i, "component_name") == "host0") {
            o.misses = st.num(i, "context_misses");
            o.evictions = st.num(i, "context_evictions");
            o.hits = st.num(i, "context_hits");
            o.open_tx_max = st.num(i, "open_tx_pdcs_max");
            o.rtx_queue_max = st.num(i, "rtx_queue_max");
        }
        if (st.str(i, "component_name") == "host1") {
            o.peer_misses = st.num(i, "context_misses");
            o.peer_open_rx_max = st.num(i, "open_rx_pdcs_max");
        }
    }
    return o;
}

}  // namespace

TEST(pdc_context_cache, eight_entries_for_64_peers_miss_and_take_longer_than_64)
{
    const outcome small = run(8);
    const outcome fits = run(64);

    // 64 entries: the 64 sending PDCs (ids 1..64, looked up by each pick and each ACK) miss once
    // each and are never evicted; a receiver's one PDC misses once.
    EXPECT_EQ(fits.misses, 64);
    EXPECT_EQ(fits.evictions, 0);
    EXPECT_GT(fits.hits, 1024);  // 1,024 picks at least, and the ACKs
    EXPECT_EQ(fits.peer_misses, 1);
    // All 64 messages are posted at once, each with a PDC of its own; a peer receives on one.
    EXPECT_EQ(fits.open_tx_max, 64);
    EXPECT_EQ(fits.peer_open_rx_max, 1);
    EXPECT_EQ(fits.rtx_queue_max, 0);  // nothing lost

    // 8 entries: every one of the 1,024 first transmissions' picks misses, and each miss
    // past the first 8 evicts.
    EXPECT_GE(small.misses, 1024);
    EXPECT_EQ(small.evictions, small.misses - 8);
    EXPECT_EQ(small.peer_misses, 1);

    // Each pick waits for a context read (over 1 us: the request and completion each cross the
    // 500 ns link), far above the 84 ns a 4 KiB packet takes on the wire.
    EXPECT_GT(small.last_fct_us, 3 * fits.last_fct_us);
}
