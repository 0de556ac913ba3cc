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
// With `to_stop_time`, the run goes on to Simulation.StopTime after the traffic is done, for the
// writes still queued on a PCIe link.
test::csv run(const scenario& sc, size_t* nics = nullptr, double* end_s = nullptr,
              bool to_stop_time = false)
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
    if (!to_stop_time) traffic->on_all_done([] { sc_core::sc_stop(); });
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
                                            "connection_writes",
                                            "total_credit_wait_ns",
                                            "ivl_credit_wait_ns",
                                            "posted_credit_waits",
                                            "non_posted_credit_waits",
                                            "completion_credit_waits"};

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

    // At the defaults (no latency) credits never hold a TLP back.
    for (size_t r = 0; r < t.rows.size(); ++r)
        for (const char* c : {"total_credit_wait_ns", "ivl_credit_wait_ns", "posted_credit_waits",
                              "non_posted_credit_waits", "completion_credit_waits"})
            EXPECT_EQ(t.num(r, c), 0) << r << " " << c;

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

// A receiver made credit-bound: host1 advertises 32 posted data credits (one 512 B TLP) and
// returns them 1 us after each TLP has arrived, so its NIC writes received data at one TLP per
// credit round trip, 8,660.77 + 1,000,000 ps: 546 B x 8 / 1.00866077 us = 4.33049 Gbps on the
// lanes (512 B of it payload: 4.06083 Gbps), however fast the network delivers. Every row inside
// the credit-bound stretch shows that rate and the wait of 1,000,000 ps per TLP; the message
// still completes, every byte once: the sender's message completes when its last packet is
// acknowledged, the receiver's writes go on to about 4.13 ms. Both NIC types write through the
// same link.
void credit_bound_receiver(nic_kind nic)
{
    scenario sc = two_hosts(nic);
    sc.simulation.stop_time_s = 5e-3;
    sc.simulation.nd_stats_interval_s = 200e-6;
    sc.flows.messages[0].bytes = 2u << 20;
    sc.pcie.host_side_credits[pcie_tlp_type::posted].data = 32;
    sc.pcie.credit_return_latency_s = 1e-6;
    const test::csv t = run(sc, nullptr, nullptr, true);
    const double round_trip_s = (546 * 8 / 504.32e9) + 1e-6;
    const double lane_gbps = 546 * 8 / round_trip_s / 1e9;
    EXPECT_NEAR(lane_gbps, 4.33049, 1e-5);
    EXPECT_NEAR(512 * 8 / round_trip_s / 1e9, 4.06083, 1e-5);
    const size_t sets = t.rows.size() / 4;
    size_t checked = 0;
    // host1's NIC side is row 2 of each set; a row is inside the stretch when it and the next
    // one both waited for credits.
    for (size_t s = 1; s + 1 < sets; ++s) {
        const size_t r = s * 4 + 2;
        if (t.num(r, "ivl_credit_wait_ns") == 0 || t.num(r + 4, "ivl_credit_wait_ns") == 0)
            continue;
        const double interval = t.num(r, "sim_time_sec") - t.num(r - 4, "sim_time_sec");
        // Within one TLP of the interval's share of round trips.
        const double tlps = interval / round_trip_s;
        EXPECT_NEAR(t.num(r, "tx_rate_Gbps"), lane_gbps, lane_gbps / tlps) << r;
        EXPECT_NEAR(t.num(r, "ivl_credit_wait_ns"), tlps * 1e3, 1e3 * 1.5) << r;
        ++checked;
    }
    EXPECT_GE(checked, 15u);  // 2 MiB take 4,096 round trips: 4.13 ms, 20 intervals
    const size_t last = t.rows.size() - 4;
    // Every data TLP but the first of the stretch waited; nothing else did.
    EXPECT_EQ(t.num(last + 2, "posted_credit_waits"), (2u << 20) / 512 - 1);
    EXPECT_NEAR(t.num(last + 2, "total_credit_wait_ns"), ((2u << 20) / 512 - 1) * 1e3, 1.0);
    EXPECT_EQ(t.num(last + 2, "non_posted_credit_waits"), 0);
    EXPECT_EQ(t.num(last + 0, "total_credit_wait_ns"), 0);  // host0's requests: host0 has room
    EXPECT_EQ(t.num(last + 1, "total_credit_wait_ns"), 0);  // completions: infinite at the NIC
}

TEST(pcie_records, a_credit_bound_uet_receiver_writes_one_tlp_per_credit_round_trip)
{
    credit_bound_receiver(nic_kind::uet);
}

TEST(pcie_records, a_credit_bound_roce_receiver_writes_one_tlp_per_credit_round_trip)
{
    credit_bound_receiver(nic_kind::roce);
}
