// The UET NIC's rows for the observing records: uet-events (its PDCs' and work requests'
// lifecycle) and uet-monitor (each packet a selected PDC sends or receives). Called only while a
// sink is attached, so the packet path pays one null check when they are off.
#include <cstdint>

#include "hw/nic/uet/uet_nic.h"

namespace uetsim {

// ---------------------------------------------------------------------------------------------
// uet-events rows

void uet_nic::event(uet_event::type t, const sender_pdc& pdc, const uet_message* m, uint64_t at_ps)
{
    uet_event e;
    e.sim_time_ps = at_ps ? at_ps : now_ps();
    e.fep_id = m_node_id;
    e.local_ip = m_ip;
    e.local_pdc = pdc.id;
    e.remote_ip = pdc.dst_ip;
    e.remote_pdc = pdc.remote_id;
    if (m) e.has_wqe = true, e.wqe_id = m->id, e.wqe_bytes = m->bytes;
    e.ev = t;
    m_events->event(e);
}

void uet_nic::event(uet_event::type t, const receiver_pdc& rp, const packet& p)
{
    uet_event e;
    e.sim_time_ps = now_ps();
    e.fep_id = m_node_id;
    e.local_ip = m_ip;
    e.local_pdc = rp.id;
    e.remote_ip = p.ip.src;
    e.remote_pdc = p.pds.spdcid;
    e.ev = t;
    m_events->event(e);
}

void uet_nic::receive_events(receiver_pdc& rp, const packet& p, bool duplicate, uint32_t cack)
{
    // A message is received once its last packet is in and no gap remains below it: its PSN is
    // at or below the cumulative ACK (PSNs wrap, hence the signed distance).
    if (p.ses.last && !duplicate) rp.last_psns.push_back(p.pds.psn);
    auto& l = rp.last_psns;
    for (size_t i = 0; i < l.size();) {
        if (int32_t(cack - l[i]) >= 0) {
            event(uet_event::type::recv_complete, rp, p);
            l.erase(l.begin() + long(i));
        } else {
            ++i;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// uet-monitor rows

void uet_nic::monitor(const packet& p, uet_monitor_row::dir d, const sender_pdc* sp,
                      const pdc_group* g, double rtt_ns, uint16_t rx_pdc)
{
    uet_monitor_sender s;
    const bool has_sender = sp && g && g->cc;
    if (has_sender) {
        s.bytes_fetched = g->fetched;
        s.bytes_in_flight = g->inflight;
        if (m_prefetch) {
            s.nic_prefetched_bytes = m_prefetch->occupancy();
            s.pdc_prefetched_bytes = sp->prefetch.bytes();
        }
        s.congestion_window = g->cc->cwnd_bytes();
        s.job_id = m_messages[sp->message].id;
        s.latest_penalty = g->last_penalty;
    }
    uet_monitor_row r;
    if (!make_monitor_row(p, d, now_ps(), m_node_id, m_ip, has_sender ? &s : nullptr, rtt_ns, r))
        return;
    if (rx_pdc) r.local_pdc = rx_pdc;
    if (m_monitor->row(r)) {
        ++m_monitor_triggers;
        if (m_probe) m_probe->changed();  // the trace's trigger fires at this row's time
    }
}

}  // namespace uetsim
