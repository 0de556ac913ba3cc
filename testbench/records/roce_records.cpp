// roce-transport-stats: its column table (the output-files page's header, in its order), its
// registry declaration and its writer.
#include "testbench/records/roce_records.h"

#include "testbench/nics/roce_nic_entry.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/nic/roce/roce_nic.h"

namespace uetsim {

namespace {

class roce_transport_open : public open_record
{
public:
    roce_transport_open(record_context& ctx, const std::string& path)
        : m_rec("roce_transport_stats", ctx.sc, ctx.fab, path, ctx.clocks.periodic)
    {
    }
    void finish() override { m_rec.finish(); }

private:
    roce_transport_record m_rec;
};

bool has_roce_nic(const record_context& ctx)
{
    for (size_t h = 0; h < ctx.fab.nic_count(); ++h)
        if (as_roce_nic(ctx.fab.nic_at(h))) return true;
    return false;
}

}  // namespace

// A cumulative counter and its interval twin.
#define UETSIM_ROCE_PAIR(name, expr, doc)                                                        \
    {name, doc,                                                                                  \
     [](std::string& out, const roce_transport_cells& r) { ::uetsim::cell(out, r.now->expr); }}, \
    {                                                                                            \
        "ivl_" name, doc, [](std::string& out, const roce_transport_cells& r) {                  \
            ::uetsim::cell(out, r.now->expr - r.last->expr);                                     \
        }                                                                                        \
    }
// A counter pair the model has nothing for: 0 in both columns.
#define UETSIM_ROCE_ZERO_PAIR(name, doc)                                                        \
    {name, doc, [](std::string& out, const roce_transport_cells&) { ::uetsim::cell(out, 0); }}, \
    {                                                                                           \
        "ivl_" name, doc,                                                                       \
            [](std::string& out, const roce_transport_cells&) { ::uetsim::cell(out, 0); }       \
    }

const column_table<roce_transport_cells>& roce_transport_columns()
{
    static const char* const when =
        "when the row was written (`time_utc` is `Simulation.EpochUtc` plus simulated time)";
    static const char* const who = "the NIC (`host3`) and its node id";
    static const char* const pkts =
        "packets sent: all of them, data packets, and control packets (ACKs, NAKs, CNPs and "
        "connection packets)";
    static const char* const conn = "connection packets sent and received";
    static const char* const none =
        "0: the model has no atomic operations and no selective acknowledgements";
    static const char* const acks = "ACKs and NAKs sent and received";
    static const char* const cnp =
        "congestion notification packets sent (as a receiver of CE-marked packets) and received "
        "(as a sender, each counted toward its queue pair's rate loop)";
    static const char* const reorder = "0: the model has no reorder buffer";
    static const char* const wqes =
        "work requests posted to this NIC, and work requests completed by an acknowledgement of "
        "their last packet";
    static const char* const rtx =
        "retransmission episodes (one per NAK received and per transport timer expiry, each "
        "resending the window from the PSN it rewinds to); transport timer expiries";
    static const char* const rtt =
        "round-trip time the sender measures on each acknowledgement, µs: the least in the "
        "interval, the greatest and the mean (over the run, and in the interval; 0 with no "
        "sample)";
    static const char* const drops =
        "received packets the transport discarded, the sum of the four reasons below (a packet "
        "dropped because its receive pool was full is not one: it is in nd-stats `rx_drops`)";
    static const char* const no_qp =
        "data and control packets that matched no queue pair (for example a late retransmission "
        "after its queue pair was closed)";
    static const char* const after_nak =
        "packets discarded behind a gap: the packet that drew the NAK and every out-of-order "
        "packet after it until the gap fills";
    static const char* const ghost =
        "ACKs and NAKs discarded because they name a PSN the queue pair has not sent";
    static const char* const discards =
        "payload fetched from the host and then discarded, before it was numbered, because a "
        "rewind or a closed queue pair made it stale";
    static const column_table<roce_transport_cells> c = {
        {"time_utc", when, UETSIM_CELL(roce_transport_cells, r.time_utc)},
        {"sim_time_sec", when, UETSIM_CELL(roce_transport_cells, r.sim_time_s)},
        {"component_name", who, UETSIM_CELL(roce_transport_cells, r.component_name)},
        {"node_id", who, UETSIM_CELL(roce_transport_cells, r.node_id)},
        UETSIM_ROCE_PAIR("num_pkts_sent", pkts_sent, pkts),
        UETSIM_ROCE_PAIR("num_verb_pkts_sent", verb_pkts_sent, pkts),
        UETSIM_ROCE_PAIR("num_non_verb_pkts_sent", non_verb_pkts_sent, pkts),
        UETSIM_ROCE_PAIR("num_conn_pkts_sent", conn_pkts_sent, conn),
        UETSIM_ROCE_PAIR("num_conn_pkts_recvd", conn_pkts_recvd, conn),
        UETSIM_ROCE_PAIR("rdma_write_cnt", rdma_write_cnt,
                         "RDMA WRITE data packets sent (the RDMA application's WQEs and a "
                         "workload's transfers), retransmissions included"),
        UETSIM_ROCE_PAIR("rdma_send_cnt", rdma_send_cnt,
                         "SEND data packets sent (every `Flows` message is a SEND), "
                         "retransmissions included"),
        UETSIM_ROCE_ZERO_PAIR("rdma_atomic_cnt", none),
        UETSIM_ROCE_PAIR("num_acks_sent", acks_sent, acks),
        UETSIM_ROCE_PAIR("num_acks_recvd", acks_recvd, acks),
        UETSIM_ROCE_ZERO_PAIR("num_sacks_sent", none),
        UETSIM_ROCE_ZERO_PAIR("num_sacks_recvd", none),
        UETSIM_ROCE_PAIR("num_nacks_sent", nacks_sent, acks),
        UETSIM_ROCE_PAIR("num_nacks_recvd", nacks_recvd, acks),
        UETSIM_ROCE_PAIR("num_writes_recvd", writes_recvd, "RDMA WRITE data packets received"),
        UETSIM_ROCE_PAIR("num_sends_recvd", sends_recvd,
                         "SEND data packets received (`Flows` messages)"),
        UETSIM_ROCE_PAIR("num_cnp_sent", cnp_sent, cnp),
        UETSIM_ROCE_PAIR("num_cnp_recvd", cnp_recvd, cnp),
        UETSIM_ROCE_PAIR("num_seq_out_of_order", seq_out_of_order,
                         "gaps detected by this NIC as a receiver: one for each NAK it sends"),
        UETSIM_ROCE_PAIR("num_duplicate", duplicate, "duplicate data packets received"),
        {"ivl_min_size_reorder_buf_psn", reorder, UETSIM_CELL(roce_transport_cells, 0)},
        {"max_size_reorder_buf_psn", reorder, UETSIM_CELL(roce_transport_cells, 0)},
        {"ivl_max_size_reorder_buf_psn", reorder, UETSIM_CELL(roce_transport_cells, 0)},
        {"avg_size_reorder_buf_psn", reorder, UETSIM_CELL(roce_transport_cells, 0)},
        {"ivl_avg_size_reorder_buf_psn", reorder, UETSIM_CELL(roce_transport_cells, 0)},
        UETSIM_ROCE_PAIR("num_wqe_created", wqe_created, wqes),
        UETSIM_ROCE_PAIR("num_wqe_completed", wqe_completed, wqes),
        UETSIM_ROCE_PAIR("num_rtx", rtx, rtx),
        UETSIM_ROCE_PAIR("num_rto", rto, rtx),
        {"ivl_min_calc_rtt_usec", rtt,
         UETSIM_CELL(roce_transport_cells, r.now->calc_rtt_usec.interval.least())},
        {"max_calc_rtt_usec", rtt,
         UETSIM_CELL(roce_transport_cells, r.now->calc_rtt_usec.total.greatest())},
        {"ivl_max_calc_rtt_usec", rtt,
         UETSIM_CELL(roce_transport_cells, r.now->calc_rtt_usec.interval.greatest())},
        {"avg_calc_rtt_usec", rtt,
         UETSIM_CELL(roce_transport_cells, r.now->calc_rtt_usec.total.mean())},
        {"ivl_avg_calc_rtt_usec", rtt,
         UETSIM_CELL(roce_transport_cells, r.now->calc_rtt_usec.interval.mean())},
        UETSIM_ROCE_PAIR("num_rx_drops", rx_drops(), drops),
        UETSIM_ROCE_PAIR("num_rx_drops_no_qp_data", rx_drops_no_qp_data, no_qp),
        UETSIM_ROCE_PAIR("num_rx_drops_no_qp_ctrl", rx_drops_no_qp_ctrl, no_qp),
        UETSIM_ROCE_PAIR("num_rx_drops_after_nak", rx_drops_after_nak, after_nak),
        UETSIM_ROCE_PAIR("num_rx_drops_ghost_ack", rx_drops_ghost_ack, ghost),
        UETSIM_ROCE_PAIR("num_tx_payload_discards", tx_payload_discards, discards),
    };
    return c;
}

#undef UETSIM_ROCE_PAIR
#undef UETSIM_ROCE_ZERO_PAIR

const record_def& roce_transport_record_def()
{
    static const record_def d = [] {
        record_def r;
        r.name = "roce-transport-stats";
        r.enabled_position = 10;
        r.when = "with RoCE NICs (`Nic.Type: roce`)";
        r.intro =
            "One row per RoCE NIC every `Simulation.NDStatsReportInterval`, and a last row when\n"
            "the run ends. A column without the `ivl_` prefix covers the run so far; its `ivl_`\n"
            "twin covers the interval since the previous row. The header is the output-files\n"
            "page's, in its order.";
        r.columns = column_docs(roce_transport_columns());
        r.notes =
            "The columns for atomic operations, selective acknowledgements and the reorder "
            "buffer stay 0:\nthe model has none of them. `nd-stats` `rx_drops` of a RoCE NIC's "
            "port is its receive pools'\ndrops plus `num_rx_drops_no_qp_data` plus "
            "`num_rx_drops_after_nak`.";
        r.applies = [](const record_context& ctx) { return has_roce_nic(ctx); };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<roce_transport_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

void next_roce_interval(roce_transport_counters& c)
{
    c.calc_rtt_usec.next_interval();
}

roce_transport_record::roce_transport_record(const sc_core::sc_module_name& name,
                                             const scenario& sc, fabric& fab,
                                             const std::string& path, record_clock& clock)
    : sc_core::sc_module(name)
    , m_sc(sc)
    , m_fab(fab)
    , m_csv(path, roce_transport_columns())
    , m_last(fab.nic_count())
{
    clock.follow([this](double now) { write(now); });
}

void roce_transport_record::write(double now)
{
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    for (size_t h = 0; h < m_fab.nic_count(); ++h) {
        roce_nic* nic = as_roce_nic(m_fab.nic_at(h));
        if (!nic) continue;
        roce_transport_counters& c = nic->counters();
        roce_transport_counters& l = m_last[h];
        m_csv.write({utc, now, nic->basename(), nic->node_id(), &c, &l});
        l = c;
        next_roce_interval(c);
    }
    m_last_row_s = now;
}

void roce_transport_record::finish()
{
    const double now = to_seconds(sim_now());
    if (now > m_last_row_s) write(now);
    m_csv.close();
}

}  // namespace uetsim
