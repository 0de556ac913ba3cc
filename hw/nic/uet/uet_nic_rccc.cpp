// RCCC in the UET NIC (docs/nscc.md, "RCCC"): the sending end's credit accounts (one per
// destination, shared by the PDC groups to it), the credit target each data packet carries,
// CREDIT_REQ when a sender with bytes waiting has no credit (and again after
// InitialRetransmitTimeout while it stays so), and the receiving end's pull pacer, whose grants
// go out as CREDIT packets and ride on every ACK_CC (cc_type 1) of an RCCC sender's data.
#include <algorithm>

#include "hw/kernel/activity.h"
#include "hw/kernel/time.h"
#include "hw/nic/uet/uet_nic.h"
#include "tlm/header_sizes.h"

namespace uetsim {

// ---------------------------------------------------------------------------------------------
// Sending end

uet_nic::credit_account& uet_nic::account(uint32_t dst, uint32_t dst_ip)
{
    auto it = m_credit.find(dst);
    if (it == m_credit.end()) {
        const rccc_config& r = m_cfg.rccc;
        it = m_credit
                 .emplace(dst,
                          credit_account{rccc_credit(r.initial_credit_bytes, r.pull_quantum_bytes),
                                         dst_ip, 0, now_ps()})
                 .first;
    }
    return it->second;
}

void uet_nic::spend_credit(pdc_group& g, packet& pk)
{
    credit_account& a = m_credit.find(g.dst)->second;
    a.credit.spend(pk.wire_bytes);
    a.credit.remove_demand(pk.wire_bytes);
    // The demand the target asks for is at most the group's window and one packet (htsim).
    a.cap_bytes =
        uint64_t(g.cc->cwnd_bytes()) + wire_size(packet_kind::uet_data, m_cfg.rdma_data_mss);
    const uint64_t target = a.credit.target(a.cap_bytes);
    a.credit.advertised(target);
    pk.pds.cc_type = pds_cc::credit;
    pk.pds.credit_target = uint32_t(target) & rccc24::mask;
}

void uet_nic::credit_arrived(uint32_t src, uint32_t credit24)
{
    auto it = m_credit.find(src);
    if (it == m_credit.end() || it->second.credit.on_credit(credit24) == 0) return;
    it->second.progress_ps = now_ps();
    // Every group to that destination may send again.
    m_pdcs.for_each_group_to(src, [this](uint32_t g) {
        if (pds().has_work(m_pdcs.group(g))) pds().enqueue(g, true);
    });
    kick_scheduler();
}

void uet_nic::ask_for_credit()
{
    std::vector<uint32_t>& blocked = pds().credit_blocked_groups();
    for (uint32_t gi : blocked) {
        const pdc_group& g = m_pdcs.group(gi);
        credit_account& a = m_credit.find(g.dst)->second;
        a.cap_bytes =
            uint64_t(g.cc->cwnd_bytes()) + wire_size(packet_kind::uet_data, m_cfg.rdma_data_mss);
        if (a.credit.needs_request(a.cap_bytes)) send_credit_request(g.dst, a);
    }
    blocked.clear();
}

void uet_nic::send_credit_request(uint32_t dst, credit_account& a)
{
    const uint64_t target = a.credit.target(a.cap_bytes);
    a.credit.advertised(target);
    a.progress_ps = now_ps();
    packet* r = make_control(packet_kind::uet_control, dst, a.dst_ip);
    r->pds.ctl_type = pds_ctl::credit_request;
    r->pds.ack_request = true;  // the receiver answers a request it cannot pace with a CREDIT
    r->pds.credit_target = uint32_t(target) & rccc24::mask;
    ++m_counters.credit_req_pkts_sent;
    ++m_counters.total_pkts_sent;
    port.push_control(r);
    if (!m_credit_watch_pending) {
        m_credit_watch_pending = true;
        m_credit_watch.notify(seconds(m_cfg.initial_retransmit_timeout_s));
    }
}

void uet_nic::credit_watchdog()
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    activity::tick();
    m_credit_watch_pending = false;
    // A sender still without credit a timeout after its last request or grant asks again (the
    // request or the CREDIT answering it may have been lost): the next wake-up is the earliest
    // such deadline.
    const uint64_t timeout = uint64_t(m_cfg.initial_retransmit_timeout_s * 1e12);
    uint64_t next = UINT64_MAX;
    for (auto& [dst, a] : m_credit) {
        if (!a.credit.starved()) continue;
        bool work = false;
        m_pdcs.for_each_group_to(dst, [&](uint32_t g) { work |= pds().has_work(m_pdcs.group(g)); });
        if (!work) continue;
        if (now_ps() - a.progress_ps >= timeout) send_credit_request(dst, a);
        next = std::min(next, a.progress_ps + timeout);
    }
    if (next != UINT64_MAX && !m_credit_watch_pending) {
        m_credit_watch_pending = true;
        m_credit_watch.notify_at_ps(next);
    }
}

// ---------------------------------------------------------------------------------------------
// Receiving end

rccc_pull_pacer& uet_nic::pacer()
{
    if (!m_pacer)
        m_pacer = std::make_unique<rccc_pull_pacer>(m_cfg.rccc.pull_quantum_bytes,
                                                    m_cfg.rccc.credits_per_pull, m_pull_rate_bps);
    return *m_pacer;
}

void uet_nic::credit_target_seen(const packet& p)
{
    m_sender_ip[p.src_node] = p.ip.src;
    if (!pacer().on_target(p.src_node, p.pds.credit_target)) return;
    if (m_pull_pending) return;
    m_pull_pending = true;
    m_pull_wake.notify_at_ps(std::max(now_ps(), m_pacer->next_pull_ps()));
}

void uet_nic::pull()
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    activity::tick();
    m_pull_pending = false;
    const rccc_grant g = m_pacer->pull(now_ps());
    if (g.quanta) send_credit(g.sender, g.credit24);
    if (m_pacer->has_demand()) {
        m_pull_pending = true;
        m_pull_wake.notify_at_ps(m_pacer->next_pull_ps());
    }
}

void uet_nic::send_credit(uint32_t dst, uint32_t credit24)
{
    packet* c = make_control(packet_kind::uet_control, dst, m_sender_ip[dst]);
    c->pds.ctl_type = pds_ctl::credit;
    c->pds.credit = credit24;
    ++m_counters.credit_pkts_sent;
    ++m_counters.total_pkts_sent;
    port.push_control(c);
}

void uet_nic::on_control(packet* p)
{
    ++m_counters.total_pkts_rcvd;
    if (p->pds.ctl_type == pds_ctl::credit) {
        ++m_counters.credit_pkts_rcvd;
        credit_arrived(p->src_node, p->pds.credit);
    } else if (p->pds.ctl_type == pds_ctl::credit_request) {
        ++m_counters.credit_req_pkts_rcvd;
        const uint32_t src = p->src_node;
        credit_target_seen(*p);
        // Nothing left to pace for it: the CREDIT answering its last target may have been lost,
        // so the credit granted so far goes back at once.
        if (!m_pacer->pending(src)) send_credit(src, m_pacer->credit24(src));
    } else if (p->pds.ctl_type == pds_ctl::close_command) {
        on_close_command(*p);
    } else if (p->pds.ctl_type == pds_ctl::close_request) {
        on_close_request(*p);
    }
    m_pool.release(p);
}

}  // namespace uetsim
