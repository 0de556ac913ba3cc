// The pcie-stats record on a fabric elaborated in process: one 1 MiB Flows message from host0 to
// host1 through a single switch, sampled every 5 us. The sender's host side carries the payload
// fetches' completions, its NIC side their requests; the receiver's NIC side the data writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>

#include "hw/kernel/time.h"
#include "testbench/elab/fabric.h"
#include "testbench/traffic/flows.h"
#include "testbench/records/pcie_records.h"
#include "testbench/records/periodic_start.h"
#include "testbench/records/record_clock.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

constexpr uint64_t k_message = 1u << 20;
constexpr uint64_t k_packets = k_message / 4096;  // at the default RdmaDataMSS

scenario two_hosts(nic_kind nic)
{
    scenario sc;
    sc.simulation.name = "pcie";
    sc.simulation.stop_time_s = 1e-3;
    sc.simulation.nd_stats_interval_s = 5e-6;
    sc.topology.kind = topology_kind::single_switch;
    sc.topology.hosts = 2;
    sc.nic.type = nic;
    flow_spec f;
    f.src = 0;
    f.dst = 1;
    f.bytes = k_message;
    sc.flows.messages.push_back(f);
    return sc;
}

// Elaborates the scenario's fabric with a pcie_records, runs it to the end of its traffic and
// returns the record (once per process: each TEST runs in its own).
test::csv run(const scenario& sc, size_t* nics = nullptr, double* end_s = nullptr)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    const std::string path = test::scratch_dir("pcie") + "/pcie-pcie-stats-0.csv";
    // Leaked on purpose: SystemC objects live to the end of the process.
    auto* pool = new packet_pool;
    auto* traffic = new flows("flows", sc, *pool);
    auto* fab = new fabric(sc, *pool, *traffic);
    const double interval = sc.simulation.nd_stats_interval_s;
    auto* clock = new record_clock("clock", first_periodic_row_s(sc, interval), interval);
    auto* rec = new pcie_records("pcie_stats", sc, *fab, path, *clock);
    traffic->on_all_done([] { sc_core::sc_stop(); });
    fab->bind_host_sides();  // the built-in host side, as a run binds it before it starts
    sc_core::sc_start(seconds(sc.simulation.stop_time_s));
    rec->finish();
    EXPECT_EQ(rec->path(), path);
    EXPECT_EQ(traffic->completed(), sc.flows.messages.size());
    EXPECT_EQ(traffic->scoreboard_report(), "");
    if (nics) *nics = fab->nic_count();
    if (end_s) *end_s = to_seconds(sc_core::sc_time_stamp());
    test::csv t = test::read_csv(path);
    std::filesystem::remove_all(std::filesystem::path(path).parent_path());
    return t;
}

const std::vector<std::string> k_columns = {"time_utc",
                                            "sim_time_sec",
                                            "component_name",
                                            "node_id",
                                            "side",
                                            "lanes",
                                            "lane_rate_Gbps",
                                            "link_rate_Gbps",
                                            "total_transfers_tx",
                                            "ivl_transfers_tx",
                                            "total_bytes_tx",
                                            "ivl_bytes_tx",
                                            "total_payload_bytes_tx",
                                            "ivl_payload_bytes_tx",
                                            "tx_rate_Gbps",
                                            "tx_percent_util",
                                            "doorbells",
                                            "connection_sends",
                                            "payload_fetches",
                                            "data_writes",
                                            "completion_writes",
                                            "connection_writes"};

}  // namespace

TEST(pcie_records, one_message_between_two_nic_hosts)
{
    size_t nics = 0;
    double end_s = 0;
    const test::csv t = run(two_hosts(nic_kind::uet), &nics, &end_s);
    ASSERT_EQ(nics, 2u);
    EXPECT_EQ(t.header, k_columns);
    // Two rows per host per interval, in the order host0 nic, host0 host, host1 nic, host1 host.
    ASSERT_GE(t.rows.size(), 8u);
    ASSERT_EQ(t.rows.size() % 4, 0u);
    const size_t sets = t.rows.size() / 4;
    for (size_t s = 0; s < sets; ++s) {
        for (size_t i = 0; i < 4; ++i) {
            const size_t r = s * 4 + i;
            EXPECT_EQ(t.str(r, "component_name"), i < 2 ? "host0" : "host1");
            EXPECT_EQ(t.num(r, "node_id"), i < 2 ? 0 : 1);
            EXPECT_EQ(t.str(r, "side"), i % 2 ? "host" : "nic");
            EXPECT_EQ(t.num(r, "lanes"), 16);
            EXPECT_DOUBLE_EQ(t.num(r, "lane_rate_Gbps"), 31.52);
            EXPECT_DOUBLE_EQ(t.num(r, "link_rate_Gbps"), 504.32);
            EXPECT_EQ(t.num(r, "sim_time_sec"), t.num(s * 4, "sim_time_sec"));
        }
        // Rows every interval, the last set at the end of the run.
        const double at = t.num(s * 4, "sim_time_sec");
        if (s + 1 < sets)
            EXPECT_NEAR(at, 5e-6 * double(s + 1), 1e-15);
        else
            EXPECT_DOUBLE_EQ(at, end_s);
        EXPECT_EQ(t.str(s * 4, "time_utc"), "2026-01-01T00:00:00Z");
    }

    // The interval columns add up to the totals; the rate is the interval's link bytes.
    std::map<size_t, std::map<std::string, double>> sums;  // by position in a set
    double prev_time = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const size_t k = r % 4;
        for (const char* c : {"transfers_tx", "bytes_tx", "payload_bytes_tx"}) {
            sums[k][c] += t.num(r, std::string("ivl_") + c);
            EXPECT_EQ(sums[k][c], t.num(r, std::string("total_") + c)) << r << " " << c;
        }
        const double now = t.num(r, "sim_time_sec");
        const double interval = now - prev_time;
        if (k == 3) prev_time = now;
        // Rate and utilisation count the lane time that has passed: never above the link.
        EXPECT_NEAR(t.num(r, "tx_rate_Gbps"),
                    t.num(r, "tx_percent_util") / 100 * t.num(r, "link_rate_Gbps"), 1e-6)
            << r;
        EXPECT_GE(t.num(r, "tx_percent_util"), 0);
        EXPECT_LE(t.num(r, "tx_percent_util"), 100 + 1e-9) << r;
        sums[k]["crossed_bits"] += t.num(r, "tx_rate_Gbps") * 1e9 * interval;
    }

    const size_t last = t.rows.size() - 4;
    auto at = [&](size_t k, const std::string& c) { return t.num(last + k, c); };
    // Once everything has crossed, the rates over the run add up to the link bytes.
    for (size_t k = 0; k < 4; ++k)
        EXPECT_NEAR(sums[k]["crossed_bits"], at(k, "total_bytes_tx") * 8,
                    1e-6 * at(k, "total_bytes_tx") * 8 + 64)
            << k;
    // host0 NIC side: one 64 + 34 B read request per packet.
    EXPECT_EQ(at(0, "payload_fetches"), k_packets);
    EXPECT_EQ(at(0, "total_transfers_tx"), k_packets);
    EXPECT_EQ(at(0, "total_bytes_tx"), k_packets * 98);
    EXPECT_EQ(at(0, "total_payload_bytes_tx"), k_packets * 64);
    EXPECT_EQ(at(0, "data_writes"), 0);
    // host0 host side: the completions, 8 transfers of 512 + 34 B per packet.
    EXPECT_EQ(at(1, "payload_fetches"), k_packets);
    EXPECT_EQ(at(1, "total_transfers_tx"), k_packets * 8);
    EXPECT_EQ(at(1, "total_bytes_tx"), k_packets * 4368);
    EXPECT_EQ(at(1, "total_payload_bytes_tx"), k_message);
    // host1 NIC side: the received data, one write per packet.
    EXPECT_EQ(at(2, "data_writes"), k_packets);
    EXPECT_EQ(at(2, "payload_fetches"), 0);
    EXPECT_EQ(at(2, "total_bytes_tx"), k_packets * 4368);
    EXPECT_EQ(at(2, "total_payload_bytes_tx"), k_message);
    // host1 host side: nothing (Flows messages are posted without doorbells).
    EXPECT_EQ(at(3, "total_bytes_tx"), 0);
    for (size_t k = 0; k < 4; ++k)
        for (const char* c :
             {"doorbells", "connection_sends", "completion_writes", "connection_writes"})
            EXPECT_EQ(at(k, c), 0) << k << " " << c;

    // Busy time: each interval's utilisation times its length adds up, over the run, to the
    // lanes' time for what they carried (within 1 ps per transaction of rounding): 256 x 69.29 ns
    // of completions (host0 host side) and of received data (host1 NIC side), 256 x 1.55 ns of
    // read requests (host0 NIC side). Time is charged when a transaction is queued, so one
    // interval's utilisation can exceed 100 % when fetches are queued ahead (the first one here).
    auto busy_s = [&](size_t k) {
        double sum = 0, prev = 0;
        for (size_t s = 0; s < sets; ++s) {
            const double now = t.num(s * 4 + k, "sim_time_sec");
            sum += t.num(s * 4 + k, "tx_percent_util") / 100 * (now - prev);
            prev = now;
        }
        return sum;
    };
    const double tolerance = double(k_packets) * 1e-12;
    EXPECT_NEAR(busy_s(0), double(k_packets) * 98 * 8 / 504.32e9, tolerance);
    EXPECT_NEAR(busy_s(1), double(k_packets) * 4368 * 8 / 504.32e9, tolerance);
    EXPECT_NEAR(busy_s(2), double(k_packets) * 4368 * 8 / 504.32e9, tolerance);
    EXPECT_EQ(busy_s(3), 0);
}

TEST(pcie_records, raw_hosts_write_only_the_header)
{
    size_t nics = 1;
    const test::csv t = run(two_hosts(nic_kind::raw), &nics);
    EXPECT_EQ(nics, 0u);
    EXPECT_EQ(t.header, k_columns);
    EXPECT_TRUE(t.rows.empty());
}
