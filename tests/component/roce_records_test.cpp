// roce-transport-stats on RoCE NICs whose counters the test sets: the output-files page's header
// verbatim and in order, every cell from its counter, the ivl_ columns as differences between
// rows, the RTT columns from the interval's samples, the columns the model has nothing for at 0,
// and nd-stats rx_drops of a RoCE NIC's port as the page's sum (pool-full drops + no-QP data +
// after-NAK drops). The transport itself is not run: the counters are the record's input.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "hw/kernel/time.h"
#include "hw/nic/roce/roce_nic.h"
#include "testbench/elab/fabric.h"
#include "testbench/nics/roce_nic_entry.h"
#include "testbench/nics/uet_nic_entry.h"
#include "testbench/traffic/flows.h"
#include "testbench/records/nd_stats_record.h"
#include "testbench/records/record_clock.h"
#include "testbench/records/record_registry.h"
#include "testbench/records/roce_records.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

// scala_simulation_output_files.txt, "roce-transport-stats — header verbatim".
const char* const k_header =
    "time_utc,sim_time_sec,component_name,node_id,num_pkts_sent,ivl_num_pkts_sent,num_verb_pkts_"
    "sent,ivl_num_verb_pkts_sent,num_non_verb_pkts_sent,ivl_num_non_verb_pkts_sent,num_conn_pkts_"
    "sent,ivl_num_conn_pkts_sent,num_conn_pkts_recvd,ivl_num_conn_pkts_recvd,rdma_write_cnt,ivl_"
    "rdma_write_cnt,rdma_send_cnt,ivl_rdma_send_cnt,rdma_atomic_cnt,ivl_rdma_atomic_cnt,num_acks_"
    "sent,ivl_num_acks_sent,num_acks_recvd,ivl_num_acks_recvd,num_sacks_sent,ivl_num_sacks_sent,"
    "num_sacks_recvd,ivl_num_sacks_recvd,num_nacks_sent,ivl_num_nacks_sent,num_nacks_recvd,ivl_"
    "num_nacks_recvd,num_writes_recvd,ivl_num_writes_recvd,num_sends_recvd,ivl_num_sends_recvd,"
    "num_cnp_sent,ivl_num_cnp_sent,num_cnp_recvd,ivl_num_cnp_recvd,num_seq_out_of_order,ivl_num_"
    "seq_out_of_order,num_duplicate,ivl_num_duplicate,ivl_min_size_reorder_buf_psn,max_size_"
    "reorder_buf_psn,ivl_max_size_reorder_buf_psn,avg_size_reorder_buf_psn,ivl_avg_size_reorder_"
    "buf_psn,num_wqe_created,ivl_num_wqe_created,num_wqe_completed,ivl_num_wqe_completed,num_rtx,"
    "ivl_num_rtx,num_rto,ivl_num_rto,ivl_min_calc_rtt_usec,max_calc_rtt_usec,ivl_max_calc_rtt_"
    "usec,avg_calc_rtt_usec,ivl_avg_calc_rtt_usec,num_rx_drops,ivl_num_rx_drops,num_rx_drops_no_"
    "qp_data,ivl_num_rx_drops_no_qp_data,num_rx_drops_no_qp_ctrl,ivl_num_rx_drops_no_qp_ctrl,num_"
    "rx_drops_after_nak,ivl_num_rx_drops_after_nak,num_rx_drops_ghost_ack,ivl_num_rx_drops_ghost_"
    "ack,num_tx_payload_discards,ivl_num_tx_payload_discards";

std::vector<std::string> split(const std::string& line)
{
    std::vector<std::string> out;
    std::stringstream in(line);
    std::string cell;
    while (std::getline(in, cell, ',')) out.push_back(cell);
    return out;
}

// Every counter a distinct value: field i holds base * (i + 1).
roce_transport_counters numbered(uint64_t base)
{
    roce_transport_counters c;
    uint64_t i = 0;
    for (uint64_t* f : {&c.pkts_sent,
                        &c.verb_pkts_sent,
                        &c.non_verb_pkts_sent,
                        &c.conn_pkts_sent,
                        &c.conn_pkts_recvd,
                        &c.rdma_write_cnt,
                        &c.rdma_send_cnt,
                        &c.acks_sent,
                        &c.acks_recvd,
                        &c.nacks_sent,
                        &c.nacks_recvd,
                        &c.writes_recvd,
                        &c.sends_recvd,
                        &c.cnp_sent,
                        &c.cnp_recvd,
                        &c.seq_out_of_order,
                        &c.duplicate,
                        &c.wqe_created,
                        &c.wqe_completed,
                        &c.rtx,
                        &c.rto,
                        &c.rx_drops_no_qp_data,
                        &c.rx_drops_no_qp_ctrl,
                        &c.rx_drops_after_nak,
                        &c.rx_drops_ghost_ack,
                        &c.tx_payload_discards})
        *f = base * ++i;
    return c;
}

}  // namespace

TEST(roce_records, header_is_the_pages_verbatim)
{
    const std::vector<std::string> want = split(k_header);
    ASSERT_EQ(want.size(), 74u);  // the page's header has 74 columns
    EXPECT_EQ(column_names(roce_transport_columns()), want);
    const record_def* d = find_record("roce-transport-stats");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->header(), want);
    EXPECT_EQ(d->file_name("x"), "x-roce-transport-stats-0.csv");
    // Listed in Records.Enabled and on by default, as uet-transport-stats is.
    EXPECT_TRUE(d->on_by_default);
    EXPECT_GE(d->enabled_position, 0);
    for (const auto& c : d->columns) EXPECT_FALSE(c.doc.empty()) << c.name;
}

// One row from counters set here: every cumulative cell its counter, every ivl_ cell the
// difference from the previous row's counters, the RTT cells from the samples.
TEST(roce_records, row_cells_from_the_counters)
{
    const std::string path = test::scratch_dir("roce_row") + "/row.csv";
    roce_transport_counters last = numbered(1), now = numbered(5);
    for (double rtt : {4.0, 10.0}) now.calc_rtt_usec.add(rtt);
    now.calc_rtt_usec.next_interval();
    for (double rtt : {6.0, 2.0, 7.0}) now.calc_rtt_usec.add(rtt);
    {
        record_csv<roce_transport_cells> csv(path, roce_transport_columns());
        csv.write({"2026-01-01T00:00:00.003Z", 0.003, "host3", 3, &now, &last});
        csv.close();
    }
    const test::csv t = test::read_csv(path);
    ASSERT_EQ(t.rows.size(), 1u);
    EXPECT_EQ(t.str(0, "time_utc"), "2026-01-01T00:00:00.003Z");
    EXPECT_EQ(t.num(0, "sim_time_sec"), 0.003);
    EXPECT_EQ(t.str(0, "component_name"), "host3");
    EXPECT_EQ(t.num(0, "node_id"), 3);
    const std::pair<const char*, int> counted[] = {
        {"num_pkts_sent", 1},
        {"num_verb_pkts_sent", 2},
        {"num_non_verb_pkts_sent", 3},
        {"num_conn_pkts_sent", 4},
        {"num_conn_pkts_recvd", 5},
        {"rdma_write_cnt", 6},
        {"rdma_send_cnt", 7},
        {"num_acks_sent", 8},
        {"num_acks_recvd", 9},
        {"num_nacks_sent", 10},
        {"num_nacks_recvd", 11},
        {"num_writes_recvd", 12},
        {"num_sends_recvd", 13},
        {"num_cnp_sent", 14},
        {"num_cnp_recvd", 15},
        {"num_seq_out_of_order", 16},
        {"num_duplicate", 17},
        {"num_wqe_created", 18},
        {"num_wqe_completed", 19},
        {"num_rtx", 20},
        {"num_rto", 21},
        {"num_rx_drops_no_qp_data", 22},
        {"num_rx_drops_no_qp_ctrl", 23},
        {"num_rx_drops_after_nak", 24},
        {"num_rx_drops_ghost_ack", 25},
        {"num_tx_payload_discards", 26},
    };
    for (const auto& [name, i] : counted) {
        EXPECT_EQ(t.num(0, name), 5.0 * i) << name;
        EXPECT_EQ(t.num(0, std::string("ivl_") + name), 4.0 * i) << name;
    }
    // num_rx_drops: the four reasons, (22 + 23 + 24 + 25) x 5 = 470; interval 376.
    EXPECT_EQ(t.num(0, "num_rx_drops"), 470);
    EXPECT_EQ(t.num(0, "ivl_num_rx_drops"), 376);
    // RTT: the run's 4, 10, 6, 2, 7 (max 10, mean 5.8); the interval's 6, 2, 7.
    EXPECT_EQ(t.num(0, "max_calc_rtt_usec"), 10);
    EXPECT_DOUBLE_EQ(t.num(0, "avg_calc_rtt_usec"), 5.8);
    EXPECT_EQ(t.num(0, "ivl_min_calc_rtt_usec"), 2);
    EXPECT_EQ(t.num(0, "ivl_max_calc_rtt_usec"), 7);
    EXPECT_DOUBLE_EQ(t.num(0, "ivl_avg_calc_rtt_usec"), 5);
    // What the model has none of stays 0.
    for (const char* name :
         {"rdma_atomic_cnt", "ivl_rdma_atomic_cnt", "num_sacks_sent", "ivl_num_sacks_sent",
          "num_sacks_recvd", "ivl_num_sacks_recvd", "ivl_min_size_reorder_buf_psn",
          "max_size_reorder_buf_psn", "ivl_max_size_reorder_buf_psn", "avg_size_reorder_buf_psn",
          "ivl_avg_size_reorder_buf_psn"})
        EXPECT_EQ(t.str(0, name), "0") << name;
    // The nd-stats sum: pool-full drops + no-QP data + after-NAK (not control, ghost or tx).
    EXPECT_EQ(roce_nd_rx_drops(7, now), 7u + 5 * 22 + 5 * 24);
    std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

// Two RoCE NICs on one switch, the record and nd-stats on a 1 us clock, and the counters of
// host0 raised before every tick: at tick k, 10 k more packets sent, one RTT sample of k us, k
// no-QP data drops, 2 k after-NAK drops, and ghost ACKs (which nd-stats does not count).
TEST(roce_records, rows_every_interval_with_interval_differences)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    scenario sc;
    sc.simulation.name = "roce";
    sc.simulation.nd_stats_interval_s = 1e-6;
    sc.topology.kind = topology_kind::single_switch;
    sc.topology.hosts = 2;
    sc.nic.type = nic_kind::roce;
    const std::string dir = test::scratch_dir("roce_rows");
    const std::string path = dir + "/roce-roce-transport-stats-0.csv";
    const std::string nd_path = dir + "/roce-nd-stats-0.csv";
    // Leaked on purpose: SystemC objects live to the end of the process.
    auto* pool = new packet_pool;
    auto* traffic = new flows("flows", sc, *pool);
    auto* fab = new fabric(sc, *pool, *traffic);
    ASSERT_EQ(fab->nic_count(), 2u);
    roce_nic* nic = as_roce_nic(fab->nic_at(0));
    ASSERT_NE(nic, nullptr);
    ASSERT_NE(as_roce_nic(fab->nic_at(1)), nullptr);
    EXPECT_EQ(as_uet_nic(fab->nic_at(0)), nullptr);
    auto* clock = new record_clock("clock", 1e-6, 1e-6);
    // With RoCE NICs the run writes roce-transport-stats, by default, and no UET records.
    const record_context ctx{sc, *fab, *traffic, nullptr, {*clock, *clock, *clock, *clock}};
    EXPECT_TRUE(record_wanted(roce_transport_record_def(), ctx));
    EXPECT_FALSE(record_wanted(*find_record("uet-transport-stats"), ctx));
    EXPECT_FALSE(record_wanted(*find_record("nic-pipeline-stats"), ctx));
    int tick = 0;
    clock->follow([&](double) {
        ++tick;
        roce_transport_counters& c = nic->counters();
        c.pkts_sent += 10 * uint64_t(tick);
        c.calc_rtt_usec.add(double(tick));
        c.rx_drops_no_qp_data += uint64_t(tick);
        c.rx_drops_after_nak += 2 * uint64_t(tick);
        c.rx_drops_ghost_ack += 100;
    });
    auto* rec = new roce_transport_record("roce_transport_stats", sc, *fab, path, *clock);
    auto* nd = new nd_stats_record_module("nd_stats", sc, *fab, nd_path, *clock);
    fab->bind_host_sides();  // the built-in host side, as a run binds it before it starts
    sc_core::sc_start(seconds(3.5e-6));
    rec->finish();
    nd->finish();

    const test::csv t = test::read_csv(path);
    EXPECT_EQ(t.header, split(k_header));
    // Ticks at 1, 2 and 3 us, and a last row at 3.5 us: two NICs each.
    ASSERT_EQ(t.rows.size(), 8u);
    for (size_t r = 0; r < t.rows.size(); r += 2) {
        const int k = std::min<int>(int(r / 2) + 1, 3);  // the last row: no tick since 3 us
        const bool last = r == 6;
        EXPECT_EQ(t.str(r, "component_name"), "host0");
        EXPECT_EQ(t.str(r + 1, "component_name"), "host1");
        EXPECT_NEAR(t.num(r, "sim_time_sec"), last ? 3.5e-6 : k * 1e-6, 1e-15);
        EXPECT_EQ(t.num(r, "num_pkts_sent"), 5 * k * (k + 1));  // 10 + 20 + ... + 10 k
        EXPECT_EQ(t.num(r, "ivl_num_pkts_sent"), last ? 0 : 10 * k);
        EXPECT_EQ(t.num(r, "ivl_min_calc_rtt_usec"), last ? 0 : k);
        EXPECT_EQ(t.num(r, "ivl_avg_calc_rtt_usec"), last ? 0 : k);
        EXPECT_EQ(t.num(r, "max_calc_rtt_usec"), k);
        EXPECT_DOUBLE_EQ(t.num(r, "avg_calc_rtt_usec"), (k + 1) / 2.0);
        EXPECT_EQ(t.num(r, "num_rx_drops"), 3 * k * (k + 1) / 2 + 100 * k);
        EXPECT_EQ(t.num(r + 1, "num_pkts_sent"), 0);
        EXPECT_EQ(t.num(r + 1, "max_calc_rtt_usec"), 0);
    }
    // nd-stats: host0's port rx_drops = 0 pool drops + no-QP data + after-NAK, cumulative.
    const test::csv n = test::read_csv(nd_path);
    int host0_rows = 0;
    for (size_t r = 0; r < n.rows.size(); ++r) {
        if (n.str(r, "component_name") != "host0") continue;
        const int k = std::min(++host0_rows, 3);
        EXPECT_EQ(n.num(r, "rx_drops"), 3 * k * (k + 1) / 2) << "row " << r;
    }
    EXPECT_EQ(host0_rows, 4);
    std::filesystem::remove_all(dir);
}
