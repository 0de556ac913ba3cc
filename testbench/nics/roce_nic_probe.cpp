#include "testbench/nics/roce_nic_probe.h"

#include <vector>

#include "hw/nic/roce/roce_nic.h"
#include "testbench/nics/roce_nic_entry.h"

namespace uetsim {

namespace {

class roce_nic_probe : public state_probe
{
public:
    roce_nic_probe(waveform_signals& w, const std::string& c, const roce_nic& nic, uint32_t slots)
        : m_w(w), m_nic(nic)
    {
        const signal_table& q = roce_qp_signals();
        for (uint32_t k = 0; k < slots; ++k) {
            const std::string pre = "qp" + std::to_string(k) + ".";
            slot s;
            s.qpn = q.add(w, c, pre, "qpn");
            s.psn_next = q.add(w, c, pre, "psn_next");
            s.psn_acked = q.add(w, c, pre, "psn_acked");
            s.outstanding = q.add(w, c, pre, "outstanding_bytes");
            s.rate = q.add(w, c, pre, "rate_mbps");
            s.alpha = q.add(w, c, pre, "alpha_ppm");
            s.cnps = q.add(w, c, pre, "cnps_received");
            m_slots.push_back(s);
        }
        const signal_table& n = roce_nic_signals();
        m_pool = n.add(w, c, "", "egress_pool_bytes");
        m_control = n.add(w, c, "", "control_queue");
        m_data = n.add(w, c, "", "data_queue");
        m_ready = n.add(w, c, "", "ready_qps");
        m_open = n.add(w, c, "", "open_qps");
        m_timers = n.add(w, c, "", "timers_pending");
        m_timeouts = n.add(w, c, "", "timeouts", fires_on_rise);
        m_naks = n.add(w, c, "", "naks_received", fires_on_rise);
        m_cnp_tx = n.add(w, c, "", "cnps_sent");
        m_cnp_rx = n.add(w, c, "", "cnps_received");
    }

    void changed() override
    {
        const std::vector<uint32_t> qpns = m_nic.open_qpns();
        for (size_t k = 0; k < m_slots.size(); ++k) {
            const slot& s = m_slots[k];
            const roce_requester* r = k < qpns.size() ? m_nic.requester(qpns[k]) : nullptr;
            if (!r) {
                for (uint32_t id :
                     {s.qpn, s.psn_next, s.psn_acked, s.outstanding, s.rate, s.alpha, s.cnps})
                    m_w.set(id, 0);
                continue;
            }
            const dcqcn_rate& rate = *m_nic.rate(qpns[k]);
            m_w.set(s.qpn, qpns[k]);
            m_w.set(s.psn_next, r->next_psn());
            m_w.set(s.psn_acked, r->oldest_outstanding_psn());
            m_w.set(s.outstanding, r->outstanding_bytes());
            m_w.set(s.rate, uint64_t(rate.rate_bps() / 1e6));
            m_w.set(s.alpha, uint64_t(rate.estimate() * 1e6 + 0.5));
            m_w.set(s.cnps, rate.cnps());
        }
        const roce_transport_counters& c = m_nic.counters();
        m_w.set(m_pool, m_nic.port.data_reserved());
        m_w.set(m_control, m_nic.port.control_queue_depth());
        m_w.set(m_data, m_nic.port.data_queue_depth() + m_nic.fetches_pending());
        m_w.set(m_ready, m_nic.ready_queue_pairs());
        m_w.set(m_open, qpns.size());
        m_w.set(m_timers, m_nic.timers_pending());
        m_w.set(m_timeouts, c.rto);
        m_w.set(m_naks, c.nacks_recvd);
        m_w.set(m_cnp_tx, c.cnp_sent);
        m_w.set(m_cnp_rx, c.cnp_recvd);
    }

private:
    struct slot
    {
        uint32_t qpn, psn_next, psn_acked, outstanding, rate, alpha, cnps;
    };
    waveform_signals& m_w;
    const roce_nic& m_nic;
    std::vector<slot> m_slots;
    uint32_t m_pool, m_control, m_data, m_ready, m_open, m_timers, m_timeouts, m_naks, m_cnp_tx,
        m_cnp_rx;
};

}  // namespace

const signal_table& roce_qp_signals()
{
    static const signal_table t{
        "Per RoCE NIC and queue pair slot",
        "host0.qp{k}.*",
        "The first `Trace.GroupSlots` open queue pairs, by queue pair number: slot k is the k-th "
        "smallest open number, so a slot moves to another queue pair when one with a smaller "
        "number opens or closes (`qpn` says which); a slot without an open queue pair shows 0.",
        {
            {"qpn", 32, false, "number", "the queue pair in the slot"},
            {"psn_next", 24, false, "PSN", "the PSN the next new data packet gets"},
            {"psn_acked", 24, false, "PSN",
             "the oldest PSN not yet acknowledged (equal to psn_next when none is outstanding)"},
            {"outstanding_bytes", 64, true, "bytes",
             "payload of the data packets numbered and not yet acknowledged"},
            {"rate_mbps", 32, true, "Mbit/s", "the DCQCN rate the queue pair sends at"},
            {"alpha_ppm", 32, true, "1e-6", "the DCQCN congestion estimate alpha, in millionths"},
            {"cnps_received", 64, false, "count", "CNPs the queue pair acted on so far"},
        }};
    return t;
}

const signal_table& roce_nic_signals()
{
    static const signal_table t{
        "Per RoCE NIC",
        "host0.*",
        "",
        {
            {"egress_pool_bytes", 32, true, "bytes",
             "egress data pool reserved (fetching, queued or serialising)"},
            {"control_queue", 32, false, "frames", "ACKs and NAKs waiting for the wire"},
            {"data_queue", 32, true, "frames",
             "data packets being fetched or waiting for the wire"},
            {"ready_qps", 32, false, "queue pairs",
             "queue pairs in the generation round robin with a segment to send"},
            {"open_qps", 32, false, "queue pairs", "open queue pairs (sending side)"},
            {"timers_pending", 32, false, "timers",
             "transport, acknowledgement and rate-loop timers armed"},
            {"timeouts", 64, false, "count", "transport timer expiries so far",
             trace_trigger_kind::rto},
            {"naks_received", 64, false, "count", "NAKs received so far", trace_trigger_kind::nack},
            {"cnps_sent", 64, false, "count", "CNPs sent for CE-marked data so far"},
            {"cnps_received", 64, false, "count", "CNPs received so far"},
        }};
    return t;
}

std::unique_ptr<state_probe> make_roce_nic_probe(waveform_signals& w, const std::string& component,
                                                 host_nic& nic, const scenario& sc)
{
    return std::make_unique<roce_nic_probe>(w, component, *as_roce_nic(nic), sc.trace.group_slots);
}

}  // namespace uetsim
