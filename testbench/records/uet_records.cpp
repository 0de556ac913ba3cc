// uet-transport-stats and uet-monitor: their column tables, registry declarations and writers.
#include "testbench/records/uet_records.h"

#include "testbench/nics/uet_nic_entry.h"
#include "hw/kernel/sim_clock.h"
#include "hw/nic/uet/uet_nic.h"

#include "hw/kernel/time.h"
#include "tlm/nack_codes.h"

namespace uetsim {

namespace {

const char* dscp_type(uint8_t d)
{
    switch (dscp::role_of(d)) {
        case dscp::role::no_trim:
            return "NO_TRIM";
        case dscp::role::trimmable:
            return "TRIMMABLE";
        case dscp::role::trimmable_rtx:
            return "TRIMMABLE_RTX";
        case dscp::role::trimmed:
            return "TRIMMED";
        case dscp::role::trimmed_last_hop:
            return "TRIMMED_LAST_HOP";
        case dscp::role::control:
            return "CONTROL";
    }
    return "UNRECOGNIZED";
}

// A cell that stays empty where the value does not apply.
#define UETSIM_OPT_CELL(has, expr)            \
    [](std::string& out, const mon& m) {      \
        const uet_monitor_row& r = *m.r;      \
        if (has) ::uetsim::cell(out, (expr)); \
    }
#define UETSIM_MON_CELL(expr)            \
    [](std::string& out, const mon& m) { \
        const uet_monitor_row& r = *m.r; \
        ::uetsim::cell(out, (expr));     \
    }

// A header-only file for a run without UET NICs (Nic.Type roce) would say nothing.
bool has_uet_nic(const record_context& ctx)
{
    for (size_t h = 0; h < ctx.fab.nic_count(); ++h)
        if (as_uet_nic(ctx.fab.nic_at(h))) return true;
    return false;
}

using mon = uet_monitor_cells;
using tra = uet_transport_cells;

class uet_transport_open : public open_record
{
public:
    uet_transport_open(record_context& ctx, const std::string& path)
        : m_rec("uet_transport_stats", ctx.sc, ctx.fab, path, ctx.clocks.periodic)
    {
    }
    void finish() override { m_rec.finish(); }

private:
    uet_transport_record m_rec;
};

class monitor_open : public open_record
{
public:
    monitor_open(record_context& ctx, const std::string& path)
        : m_rec(path, ctx.fab.topo().names_by_node_id(), ctx.sc.records.monitor)
    {
        for (size_t h = 0; h < ctx.fab.nic_count(); ++h)
            if (uet_nic* u = as_uet_nic(ctx.fab.nic_at(h))) u->set_monitor(&m_rec);
    }
    void finish() override { m_rec.close(); }

private:
    uet_monitor_record m_rec;
};

}  // namespace

const column_table<uet_monitor_cells>& uet_monitor_columns()
{
    static const column_table<mon> c = {
        {"sim_time_ns", "when the packet was sent or received, ns",
         UETSIM_MON_CELL(double(r.sim_time_ps) / 1e3)},
        {"component_name", "the NIC: `host3`",
         [](std::string& out, const mon& m) { out += *m.component_name; }},
        {"FEP_ID", "the NIC's node id", UETSIM_MON_CELL(r.fep_id)},
        {"job_ID", "the message, `0` where none applies", UETSIM_MON_CELL(r.job_id)},
        {"packet_UID", "the packet's unique id", UETSIM_MON_CELL(r.packet_uid)},
        {"packet_size", "bytes on the wire", UETSIM_MON_CELL(r.packet_size)},
        {"local_PDC_ID", "`<IPv4>:<PDC id>` of this NIC's PDC",
         UETSIM_MON_CELL(ipv4_text(r.local_ip) + ":" + std::to_string(r.local_pdc))},
        {"remote_PDC_ID", "`<IPv4>:<PDC id>` of the peer's PDC; the id reads 0 until the first ACK",
         UETSIM_MON_CELL(ipv4_text(r.remote_ip) + ":" + std::to_string(r.remote_pdc))},
        {"entropy_value",
         "data: the UDP source port; ACK: the value echoed back; NACK and probe: a PDC id",
         UETSIM_OPT_CELL(r.has_entropy, r.entropy_value)},
        {"RTT_ns", "received ACKs that gave an RTT sample: the sample, ns",
         UETSIM_OPT_CELL(r.has_rtt, r.rtt_ns)},
        {"direction", "`Tx`, `ReTx`, `Rx`",
         [](std::string& out, const mon& m) {
             static const char* const dirs[] = {"Tx", "ReTx", "Rx"};
             out += dirs[int(m.r->direction)];
         }},
        {"packet_type", "`RUD_REQUEST`, `ACK_CC`, `NACK`, `CTRL`",
         [](std::string& out, const mon& m) {
             static const char* const types[] = {"RUD_REQUEST", "ACK_CC", "NACK", "CTRL"};
             out += types[int(m.r->packet_type)];
         }},
        {"nack_code",
         "the NACK's code by its UET 1.0.1 name: `UET_TRIMMED`, `UET_TRIMMED_LASTHOP`, "
         "`UET_ROD_OOO` (ROD); with the close handshake also `UET_NO_PDC_AVAIL`, "
         "`UET_INV_DPDCID` (docs/pdc-lifecycle.md)",
         UETSIM_MON_CELL(r.has_nack_code ? nack::spec_name(r.nack_code) : "")},
        {"AR_bit", "the ACK-request bit of a data packet", UETSIM_OPT_CELL(r.has_ar, int(r.ar))},
        {"ECN_marked", "received packets: the IP header's ECN mark",
         UETSIM_OPT_CELL(r.has_ecn_marked, int(r.ecn_marked))},
        {"M_Flag", "ECN echo of an ACK/NACK", UETSIM_OPT_CELL(r.has_m_flag, int(r.m_flag))},
        {"NIC_prefetched_bytes",
         "the NIC's prefetch buffer: wire bytes reserved in it by fetches not yet committed to "
         "the wire (0 with `UetNic.PrefetchBufferEnable` false, the default)",
         UETSIM_OPT_CELL(r.has_sender_state, r.nic_prefetched_bytes)},
        {"PDC_prefetched_bytes", "of them, this PDC's",
         UETSIM_OPT_CELL(r.has_sender_state, r.pdc_prefetched_bytes)},
        {"bytes_fetched", "the sender's group: payload bytes fetched from host memory",
         UETSIM_OPT_CELL(r.has_sender_state, r.bytes_fetched)},
        {"bytes_in_flight", "the sender's group: bytes in flight",
         UETSIM_OPT_CELL(r.has_sender_state, r.bytes_in_flight)},
        {"congestion_window", "the sender's group: congestion window, bytes",
         UETSIM_OPT_CELL(r.has_sender_state, r.congestion_window)},
        {"receiver_congestion_window_penalty", "the receiver's window penalty (0..127) of an ACK",
         UETSIM_OPT_CELL(r.has_penalty, int(r.penalty))},
        {"DSCP_type",
         "`NO_TRIM`, `TRIMMABLE`, `TRIMMABLE_RTX`, `TRIMMED`, `TRIMMED_LAST_HOP`, `CONTROL`",
         UETSIM_MON_CELL(dscp_type(r.dscp))},
        {"PSN", "the data packet's PSN", UETSIM_OPT_CELL(r.has_psn, r.psn)},
        {"CACK_PSN", "an ACK's cumulative ACK PSN", UETSIM_OPT_CELL(r.has_ack, r.cack_psn)},
        {"SACK_base_PSN", "an ACK's SACK base PSN", UETSIM_OPT_CELL(r.has_ack, r.sack_base_psn)},
        {"ACK_bitmap_PSNs",
         "an ACK's selectively acknowledged PSNs, `[p1:p2:...]`, `[]` when empty",
         [](std::string& out, const mon& m) {
             out += '[';
             for (size_t i = 0; i < m.r->bitmap_psns.size(); ++i) {
                 if (i) out += ':';
                 out += std::to_string(m.r->bitmap_psns[i]);
             }
             out += ']';
         }},
    };
    return c;
}

#undef UETSIM_OPT_CELL
#undef UETSIM_MON_CELL

// A counter over the run and its `ivl_` twin over the interval since the previous row.
#define UETSIM_PAIR(field, doc)                                            \
    {#field, doc, UETSIM_CELL(tra, r.now->field)},                         \
    {                                                                      \
        "ivl_" #field, doc, UETSIM_CELL(tra, r.now->field - r.last->field) \
    }
// A high-water mark that the NIC keeps for the run and for the interval.
#define UETSIM_MAX_PAIR(field, doc)                              \
    {#field, doc, UETSIM_CELL(tra, r.now->field)},               \
    {                                                            \
        "ivl_" #field, doc, UETSIM_CELL(tra, r.now->ivl_##field) \
    }

const column_table<uet_transport_cells>& uet_transport_columns()
{
    static const char* const pkts =
        "data packets, ACKs and NACKs sent / received (probes only in the probe columns; probe "
        "answers count as ACKs)";
    static const char* const writes =
        "data packets sent (retransmissions included) / received (trimmed included)";
    static const char* const acks =
        "ACKs (probe answers included) and NACKs (one per trimmed packet) sent / received";
    static const char* const wqes =
        "messages posted to the NIC, and messages whose every byte is acknowledged";
    static const char* const probes = "base-RTT probes sent, their answers received";
    static const char* const rto =
        "timer expiries of packets in flight; data packets retransmitted (after a timeout or a "
        "NACK)";
    static const char* const pen = "receiver penalty (0..127) of ACKs that gave an RTT sample";
    static const char* const cwnd = "congestion window (bytes) at each first transmission";
    static const char* const qdelay = "NSCC's average queueing delay (µs) at each RTT sample";
    static const char* const rtt =
        "RTT samples (µs): ACK arrival - end of serialization - reported service time";
    static const char* const bif = "the group's nominal bytes in flight at each transmission";
    static const column_table<tra> c = {
        {"time_utc",
         "when the row was written (`time_utc` is `Simulation.EpochUtc` plus simulated time)",
         UETSIM_CELL(tra, r.time_utc)},
        {"sim_time_sec",
         "when the row was written (`time_utc` is `Simulation.EpochUtc` plus simulated time)",
         UETSIM_CELL(tra, r.sim_time_s)},
        {"component_name", "the NIC (`host3`) and its node id", UETSIM_CELL(tra, r.component_name)},
        {"fep_id", "the NIC (`host3`) and its node id", UETSIM_CELL(tra, r.fep_id)},
        UETSIM_PAIR(total_pkts_sent, pkts),
        UETSIM_PAIR(total_pkts_rcvd, pkts),
        UETSIM_PAIR(write_pkts_sent, writes),
        UETSIM_PAIR(write_pkts_rcvd, writes),
        UETSIM_PAIR(ack_pkts_sent, acks),
        UETSIM_PAIR(ack_pkts_rcvd, acks),
        UETSIM_PAIR(nack_pkts_sent, acks),
        UETSIM_PAIR(nack_pkts_rcvd, acks),
        UETSIM_PAIR(wqes_created, wqes),
        UETSIM_PAIR(wqes_completed, wqes),
        UETSIM_PAIR(num_out_of_order_events_on_nic,
                    "data packets received ahead of the next expected PSN"),
        UETSIM_MAX_PAIR(max_out_of_order_on_flow,
                        "the most packets one PDC held beyond its cumulative ACK: over the run / "
                        "in the interval"),
        UETSIM_PAIR(num_dup_events_on_nic, "data packets received again"),
        UETSIM_PAIR(probe_sent, probes),
        UETSIM_PAIR(probe_ack_rcvd, probes),
        UETSIM_PAIR(num_rto, rto),
        UETSIM_PAIR(num_rtx, rto),
        UETSIM_MAX_PAIR(max_tx_count, "the most transmissions of one packet"),
        UETSIM_PAIR(m_marked_pkts_sent, "as a receiver: ACKs sent with the ECN echo"),
        UETSIM_PAIR(m_marked_pkts_rcvd, "as a sender: ECN-echo ACKs that gave an RTT sample"),
        UETSIM_PAIR(num_quick_adapt, "Quick Adapt firings"),
        {"ivl_calc_min_rcvr_cwnd_pen", pen,
         UETSIM_CELL(tra, r.now->rcvr_cwnd_pen.interval.least())},
        {"calc_mean_rcvr_cwnd_pen", pen, UETSIM_CELL(tra, r.now->rcvr_cwnd_pen.total.mean())},
        {"ivl_calc_mean_rcvr_cwnd_pen", pen,
         UETSIM_CELL(tra, r.now->rcvr_cwnd_pen.interval.mean())},
        {"ivl_calc_max_rcvr_cwnd_pen", pen,
         UETSIM_CELL(tra, r.now->rcvr_cwnd_pen.interval.greatest())},
        {"calc_min_cwnd_bytes", cwnd, UETSIM_CELL(tra, r.now->cwnd_bytes.total.least())},
        {"ivl_calc_min_cwnd_bytes", cwnd, UETSIM_CELL(tra, r.now->cwnd_bytes.interval.least())},
        {"calc_mean_cwnd_bytes", cwnd, UETSIM_CELL(tra, r.now->cwnd_bytes.total.mean())},
        {"ivl_calc_mean_cwnd_bytes", cwnd, UETSIM_CELL(tra, r.now->cwnd_bytes.interval.mean())},
        {"ivl_calc_max_cwnd_bytes", cwnd, UETSIM_CELL(tra, r.now->cwnd_bytes.interval.greatest())},
        {"ivl_min_calc_avg_q_delay_usec", qdelay,
         UETSIM_CELL(tra, r.now->avg_q_delay_usec.interval.least())},
        {"avg_calc_avg_q_delay_usec", qdelay,
         UETSIM_CELL(tra, r.now->avg_q_delay_usec.total.mean())},
        {"ivl_avg_calc_avg_q_delay_usec", qdelay,
         UETSIM_CELL(tra, r.now->avg_q_delay_usec.interval.mean())},
        {"max_calc_avg_q_delay_usec", qdelay,
         UETSIM_CELL(tra, r.now->avg_q_delay_usec.total.greatest())},
        {"ivl_max_calc_avg_q_delay_usec", qdelay,
         UETSIM_CELL(tra, r.now->avg_q_delay_usec.interval.greatest())},
        {"ivl_min_calc_rtt_usec", rtt, UETSIM_CELL(tra, r.now->rtt_usec.interval.least())},
        {"max_calc_rtt_usec", rtt, UETSIM_CELL(tra, r.now->rtt_usec.total.greatest())},
        {"ivl_max_calc_rtt_usec", rtt, UETSIM_CELL(tra, r.now->rtt_usec.interval.greatest())},
        {"avg_calc_rtt_usec", rtt, UETSIM_CELL(tra, r.now->rtt_usec.total.mean())},
        {"ivl_avg_calc_rtt_usec", rtt, UETSIM_CELL(tra, r.now->rtt_usec.interval.mean())},
        {"ivl_calc_min_bytes_in_flight", bif,
         UETSIM_CELL(tra, r.now->bytes_in_flight.interval.least())},
        {"calc_mean_bytes_in_flight", bif, UETSIM_CELL(tra, r.now->bytes_in_flight.total.mean())},
        {"ivl_calc_mean_bytes_in_flight", bif,
         UETSIM_CELL(tra, r.now->bytes_in_flight.interval.mean())},
        {"ivl_calc_max_bytes_in_flight", bif,
         UETSIM_CELL(tra, r.now->bytes_in_flight.interval.greatest())},
    };
    return c;
}

#undef UETSIM_PAIR
#undef UETSIM_MAX_PAIR

const record_def& uet_transport_record_def()
{
    static const record_def d = [] {
        record_def r;
        r.name = "uet-transport-stats";
        r.enabled_position = 3;
        r.when = "with UET NICs (`Nic.Type: uet`)";
        r.intro =
            "One row per NIC every `Simulation.NDStatsReportInterval`, and a last row when\n"
            "the run ends. A column without the `ivl_` prefix covers the run so far; its `ivl_`\n"
            "twin covers the interval since the previous row.";
        r.columns = column_docs(uet_transport_columns());
        r.notes =
            "A sample block with no sample in its window reads 0. Every column is filled; see\n"
            "[uet-nic.md](uet-nic.md#records) for the columns that stay 0 at default settings "
            "and why.";
        r.applies = [](const record_context& ctx) { return has_uet_nic(ctx); };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<uet_transport_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

const record_def& uet_monitor_record_def()
{
    static const record_def d = [] {
        record_def r;
        r.name = "uet-monitor";
        r.when =
            "with UET NICs when `Records.UetMonitor`, `Records.TriggerLoggingOnRttEnable` or "
            "`Records.TriggerLoggingOnCWindPen` is true (all default off; `Records.Enabled` "
            "does not list it)";
        r.intro =
            "One row per UET packet a NIC\nsends (data, ACKs and probes once they have "
            "finished on the wire, so a frame still\nserializing when the run ends has none; "
            "NACKs when made) or receives (when processed). A column\nthat does not apply is "
            "empty.";
        r.columns = column_docs(uet_monitor_columns());
        r.notes =
            "Which connections are logged: `Records.UetMonitor` with the four `Records.FilterOn*` "
            "keys\n(each `All` or an exact value; a packet must match every one that is not "
            "`All`), and the\ntwo triggers within `Records.TriggeredLoggingPDCLimit` connections. "
            "A connection that a\nfilter matches or a trigger selects is logged from that "
            "packet on, at both of its ends;\nsee [records-monitor.md](records-monitor.md).";
        r.applies = [](const record_context& ctx) {
            return ctx.sc.records.monitor.any() && has_uet_nic(ctx);
        };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<monitor_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

uet_monitor_record::uet_monitor_record(const std::string& path,
                                       const std::vector<std::string>& nic_names,
                                       const uet_monitor_settings& settings)
    : m_csv(path, uet_monitor_columns()), m_names(nic_names), m_selection(settings)
{
}

bool uet_monitor_record::row(const uet_monitor_row& r)
{
    bool triggered = false;
    if (m_selection.wanted(r, &triggered)) m_csv.write({&r, &m_names.at(r.fep_id)});
    return triggered;
}

uet_transport_record::uet_transport_record(const sc_core::sc_module_name& name, const scenario& sc,
                                           fabric& fab, const std::string& path,
                                           record_clock& clock)
    : sc_core::sc_module(name)
    , m_sc(sc)
    , m_fab(fab)
    , m_csv(path, uet_transport_columns())
    , m_last(fab.nic_count())
{
    clock.follow([this](double now) { write(now); });
}

void uet_transport_record::write(double now)
{
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    for (size_t h = 0; h < m_fab.nic_count(); ++h) {
        uet_nic* u = as_uet_nic(m_fab.nic_at(h));
        if (!u) continue;
        uet_nic& nic = *u;
        uet_transport_counters& c = nic.counters();
        uet_transport_counters& l = m_last[h];
        m_csv.write({utc, now, nic.basename(), nic.node_id(), &c, &l});
        // Start the next interval.
        l = c;
        c.ivl_max_out_of_order_on_flow = 0;
        c.ivl_max_tx_count = 0;
        for (sample_stats* s : {&c.rcvr_cwnd_pen, &c.cwnd_bytes, &c.avg_q_delay_usec, &c.rtt_usec,
                                &c.bytes_in_flight})
            s->next_interval();
    }
    m_last_row_s = now;
}

void uet_transport_record::finish()
{
    const double now = to_seconds(sim_now());
    if (now > m_last_row_s) write(now);
    m_csv.close();
}

}  // namespace uetsim
