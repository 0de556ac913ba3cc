#include "testbench/records/uet_records.h"

#include "hw/nic/uet/uet_nic.h"

#include "hw/common/activity.h"
#include "hw/common/time.h"

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

std::string ip_text(uint32_t ip)
{
    return fmt::format("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

template <typename T>
std::string opt(bool has, const T& v)
{
    return has ? fmt::format("{}", v) : std::string();
}

}  // namespace

uet_monitor_record::uet_monitor_record(const std::string& path,
                                       const std::vector<std::string>& nic_names)
    : m_csv(path, {"sim_time_ns",
                   "component_name",
                   "FEP_ID",
                   "job_ID",
                   "packet_UID",
                   "packet_size",
                   "local_PDC_ID",
                   "remote_PDC_ID",
                   "entropy_value",
                   "RTT_ns",
                   "direction",
                   "packet_type",
                   "nack_code",
                   "AR_bit",
                   "ECN_marked",
                   "M_Flag",
                   "NIC_prefetched_bytes",
                   "PDC_prefetched_bytes",
                   "bytes_fetched",
                   "bytes_in_flight",
                   "congestion_window",
                   "receiver_congestion_window_penalty",
                   "DSCP_type",
                   "PSN",
                   "CACK_PSN",
                   "SACK_base_PSN",
                   "ACK_bitmap_PSNs"})
    , m_names(nic_names)
{
}

void uet_monitor_record::row(const uet_monitor_row& r)
{
    static const char* const dirs[] = {"Tx", "ReTx", "Rx"};
    static const char* const types[] = {"RUD_REQUEST", "ACK_CC", "NACK", "CTRL"};
    std::string bitmap = "[";
    for (size_t i = 0; i < r.bitmap_psns.size(); ++i)
        bitmap += (i ? ":" : "") + std::to_string(r.bitmap_psns[i]);
    bitmap += "]";
    // The prefetch buffer is not modelled (PrefetchBufferEnable false): its occupancy is 0.
    m_csv.row(double(r.sim_time_ps) / 1e3, m_names.at(r.fep_id), r.fep_id, r.job_id, r.packet_uid,
              r.packet_size, ip_text(r.local_ip) + ":" + std::to_string(r.local_pdc),
              ip_text(r.remote_ip) + ":" + std::to_string(r.remote_pdc),
              opt(r.has_entropy, r.entropy_value), opt(r.has_rtt, r.rtt_ns), dirs[int(r.direction)],
              types[int(r.packet_type)],
              r.has_nack_code ? (r.nack_last_hop ? "UET_TRIMMED_LASTHOP" : "UET_TRIMMED") : "",
              opt(r.has_ar, int(r.ar)), opt(r.has_ecn_marked, int(r.ecn_marked)),
              opt(r.has_m_flag, int(r.m_flag)), opt(r.has_sender_state, 0),
              opt(r.has_sender_state, 0), opt(r.has_sender_state, r.bytes_fetched),
              opt(r.has_sender_state, r.bytes_in_flight),
              opt(r.has_sender_state, r.congestion_window), opt(r.has_penalty, int(r.penalty)),
              dscp_type(r.dscp), opt(r.has_psn, r.psn), opt(r.has_ack, r.cack_psn),
              opt(r.has_ack, r.sack_base_psn), bitmap);
}

uet_transport_record::uet_transport_record(const sc_core::sc_module_name& name, const scenario& sc,
                                           fabric& fab, const std::string& path)
    : sc_core::sc_module(name)
    , m_sc(sc)
    , m_fab(fab)
    , m_csv(
          path,
          [] {
              std::vector<std::string> c = {"time_utc", "sim_time_sec", "component_name", "fep_id"};
              for (const char* n : {"total_pkts_sent",
                                    "total_pkts_rcvd",
                                    "write_pkts_sent",
                                    "write_pkts_rcvd",
                                    "ack_pkts_sent",
                                    "ack_pkts_rcvd",
                                    "nack_pkts_sent",
                                    "nack_pkts_rcvd",
                                    "wqes_created",
                                    "wqes_completed",
                                    "num_out_of_order_events_on_nic",
                                    "max_out_of_order_on_flow",
                                    "num_dup_events_on_nic",
                                    "probe_sent",
                                    "probe_ack_rcvd",
                                    "num_rto",
                                    "num_rtx",
                                    "max_tx_count",
                                    "m_marked_pkts_sent",
                                    "m_marked_pkts_rcvd",
                                    "num_quick_adapt"}) {
                  c.push_back(n);
                  c.push_back(std::string("ivl_") + n);
              }
              for (const char* n : {"ivl_calc_min_rcvr_cwnd_pen",  "calc_mean_rcvr_cwnd_pen",
                                    "ivl_calc_mean_rcvr_cwnd_pen", "ivl_calc_max_rcvr_cwnd_pen",
                                    "calc_min_cwnd_bytes",         "ivl_calc_min_cwnd_bytes",
                                    "calc_mean_cwnd_bytes",        "ivl_calc_mean_cwnd_bytes",
                                    "ivl_calc_max_cwnd_bytes",     "ivl_min_calc_avg_q_delay_usec",
                                    "avg_calc_avg_q_delay_usec",   "ivl_avg_calc_avg_q_delay_usec",
                                    "max_calc_avg_q_delay_usec",   "ivl_max_calc_avg_q_delay_usec",
                                    "ivl_min_calc_rtt_usec",       "max_calc_rtt_usec",
                                    "ivl_max_calc_rtt_usec",       "avg_calc_rtt_usec",
                                    "ivl_avg_calc_rtt_usec",       "ivl_calc_min_bytes_in_flight",
                                    "calc_mean_bytes_in_flight",   "ivl_calc_mean_bytes_in_flight",
                                    "ivl_calc_max_bytes_in_flight"})
                  c.push_back(n);
              return c;
          }())
    , m_last(fab.nic_count())
{
    SC_HAS_PROCESS(uet_transport_record);
    SC_METHOD(tick);  // the first call, at time 0, only arms the first interval
}

void uet_transport_record::tick()
{
    activity::tick();
    if (m_started) write(to_seconds(sc_core::sc_time_stamp()));
    m_started = true;
    next_trigger(seconds(m_sc.simulation.nd_stats_interval_s));
}

void uet_transport_record::write(double now)
{
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    for (size_t h = 0; h < m_fab.nic_count(); ++h) {
        uet_nic* u = m_fab.uet_nic_at(h);
        if (!u) continue;
        uet_nic& nic = *u;
        uet_transport_counters& c = nic.counters();
        uet_transport_counters& l = m_last[h];
        std::string cells = fmt::format("{},{},{},{}", utc, now, nic.basename(), nic.node_id());
        auto pair = [&](uint64_t total, uint64_t last) {
            cells += fmt::format(",{},{}", total, total - last);
        };
        pair(c.total_pkts_sent, l.total_pkts_sent);
        pair(c.total_pkts_rcvd, l.total_pkts_rcvd);
        pair(c.write_pkts_sent, l.write_pkts_sent);
        pair(c.write_pkts_rcvd, l.write_pkts_rcvd);
        pair(c.ack_pkts_sent, l.ack_pkts_sent);
        pair(c.ack_pkts_rcvd, l.ack_pkts_rcvd);
        pair(c.nack_pkts_sent, l.nack_pkts_sent);
        pair(c.nack_pkts_rcvd, l.nack_pkts_rcvd);
        pair(c.wqes_created, l.wqes_created);
        pair(c.wqes_completed, l.wqes_completed);
        pair(c.num_out_of_order_events_on_nic, l.num_out_of_order_events_on_nic);
        cells += fmt::format(",{},{}", c.max_out_of_order_on_flow, c.ivl_max_out_of_order_on_flow);
        pair(c.num_dup_events_on_nic, l.num_dup_events_on_nic);
        pair(c.probe_sent, l.probe_sent);
        pair(c.probe_ack_rcvd, l.probe_ack_rcvd);
        pair(c.num_rto, l.num_rto);
        pair(c.num_rtx, l.num_rtx);
        cells += fmt::format(",{},{}", c.max_tx_count, c.ivl_max_tx_count);
        pair(c.m_marked_pkts_sent, l.m_marked_pkts_sent);
        pair(c.m_marked_pkts_rcvd, l.m_marked_pkts_rcvd);
        pair(c.num_quick_adapt, l.num_quick_adapt);
        const auto& pen = c.rcvr_cwnd_pen;
        const auto& cw = c.cwnd_bytes;
        const auto& qd = c.avg_q_delay_usec;
        const auto& rtt = c.rtt_usec;
        const auto& bif = c.bytes_in_flight;
        cells += fmt::format(",{},{},{},{}", pen.interval.least(), pen.total.mean(),
                             pen.interval.mean(), pen.interval.greatest());
        cells += fmt::format(",{},{},{},{},{}", cw.total.least(), cw.interval.least(),
                             cw.total.mean(), cw.interval.mean(), cw.interval.greatest());
        cells += fmt::format(",{},{},{},{},{}", qd.interval.least(), qd.total.mean(),
                             qd.interval.mean(), qd.total.greatest(), qd.interval.greatest());
        cells += fmt::format(",{},{},{},{},{}", rtt.interval.least(), rtt.total.greatest(),
                             rtt.interval.greatest(), rtt.total.mean(), rtt.interval.mean());
        cells += fmt::format(",{},{},{},{}", bif.interval.least(), bif.total.mean(),
                             bif.interval.mean(), bif.interval.greatest());
        m_csv.raw_row(cells);
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
    const double now = to_seconds(sc_core::sc_time_stamp());
    if (now > m_last_row_s) write(now);
    m_csv.close();
}

}  // namespace uetsim
