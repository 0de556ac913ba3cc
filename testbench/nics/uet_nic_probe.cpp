#include "testbench/nics/uet_nic_probe.h"

#include <cmath>
#include <vector>

#include "hw/nic/uet/entropy/reps_policy.h"
#include "hw/nic/uet/uet_nic.h"
#include "testbench/nics/uet_nic_entry.h"

namespace uetsim {

namespace {

uint64_t ns(double seconds)
{
    return seconds > 0 ? uint64_t(std::llround(seconds * 1e9)) : 0;
}

// A UET NIC: per group slot its window, RTTs, entropy and REPS state; the NIC's queues.
class uet_nic_probe : public state_probe
{
public:
    uet_nic_probe(waveform_signals& w, const std::string& c, uet_nic& nic, uint32_t slots)
        : m_w(w), m_nic(nic)
    {
        for (uint32_t k = 0; k < slots; ++k) {
            const std::string g = "g" + std::to_string(k) + ".";
            slot s;
            s.cwnd = w.add(c, g + "cwnd_bytes", 64, true);
            s.inflight = w.add(c, g + "inflight_bytes", 64, true);
            s.base_rtt = w.add(c, g + "base_rtt_ns", 64, false);
            s.last_rtt = w.add(c, g + "last_rtt_ns", 64, true);
            s.avg_delay = w.add(c, g + "avg_queue_delay_ns", 64, true);
            s.entropy = w.add(c, g + "entropy", 16, false);
            s.reps_cache = w.add(c, g + "reps_cache", 32, true);
            s.freezing =
                w.add(c, g + "reps_freezing", 1, false, trace_trigger_kind::freeze, fires_on_rise);
            s.exploring = w.add(c, g + "reps_exploring", 1, false);
            s.rtx = w.add(c, g + "rtx_pending", 32, false);
            s.pdcs = w.add(c, g + "pdcs", 16, false);
            m_slots.push_back(s);
        }
        m_pool = w.add(c, "egress_pool_bytes", 32, true);
        m_control = w.add(c, "control_queue", 32, false);
        m_data = w.add(c, "data_queue", 32, true);
        m_ack_hold = w.add(c, "ack_hold", 32, false);
        m_ready = w.add(c, "ready_groups", 32, false);
        m_tx_pdcs = w.add(c, "open_pdcs_tx", 16, false);
        m_rx_pdcs = w.add(c, "open_pdcs_rx", 16, false);
        m_timers = w.add(c, "timers_pending", 32, false);
        m_rto = w.add(c, "rto_count", 64, false, trace_trigger_kind::rto, fires_on_rise);
        m_nack = w.add(c, "nacks_received", 64, false, trace_trigger_kind::nack, fires_on_rise);
        m_monitor =
            w.add(c, "monitor_triggers", 32, false, trace_trigger_kind::monitor, fires_on_rise);
    }

    void changed() override
    {
        const pdc_table& t = m_nic.pdcs();
        uint64_t open_tx = 0;
        for (size_t g = 0; g < t.group_slots(); ++g)
            if (t.group(uint32_t(g)).alive) open_tx += t.group(uint32_t(g)).pdcs.size();
        for (size_t k = 0; k < m_slots.size(); ++k) {
            const slot& s = m_slots[k];
            if (k >= t.group_slots() || !t.group(uint32_t(k)).alive) {
                for (uint32_t id :
                     {s.cwnd, s.inflight, s.base_rtt, s.last_rtt, s.avg_delay, s.entropy,
                      s.reps_cache, s.freezing, s.exploring, s.rtx, s.pdcs})
                    m_w.set(id, 0);
                continue;
            }
            const pdc_group& g = t.group(uint32_t(k));
            m_w.set(s.cwnd, uint64_t(g.cc->cwnd_bytes()));
            m_w.set(s.inflight, g.inflight);
            m_w.set(s.base_rtt, ns(g.cc->base_rtt_s()));
            m_w.set(s.last_rtt, ns(g.cc->last_rtt_sample_s()));
            m_w.set(s.avg_delay, ns(g.cc->avg_queue_delay_s()));
            m_w.set(s.entropy, g.last_entropy);
            const entropy_policy& lb = m_nic.entropy_lb().policy(g.lb_slot);
            const auto* reps = dynamic_cast<const reps_policy*>(&lb);
            m_w.set(s.reps_cache, reps ? reps->cache().available() : 0);
            m_w.set(s.freezing, lb.freezing() ? 1 : 0);
            m_w.set(s.exploring, reps && reps->in_exploration_window() ? 1 : 0);
            uint64_t rtx = 0;
            for (uint16_t id : g.pdcs) rtx += t.at(id).st.retransmissions_pending();
            m_w.set(s.rtx, rtx);
            m_w.set(s.pdcs, g.pdcs.size());
        }
        m_w.set(m_pool, m_nic.port.data_reserved());
        m_w.set(m_control, m_nic.port.control_queue_depth());
        m_w.set(m_data, m_nic.port.data_queue_depth());
        m_w.set(m_ack_hold, m_nic.port.ack_hold_backlog());
        m_w.set(m_ready, m_nic.ready_groups());
        m_w.set(m_tx_pdcs, open_tx);
        m_w.set(m_rx_pdcs, m_nic.open_rx_pdcs());
        m_w.set(m_timers, m_nic.timers_pending());
        m_w.set(m_rto, m_nic.counters().num_rto);
        m_w.set(m_nack, m_nic.counters().nack_pkts_rcvd);
        m_w.set(m_monitor, m_nic.monitor_triggers());
    }

private:
    struct slot
    {
        uint32_t cwnd, inflight, base_rtt, last_rtt, avg_delay, entropy, reps_cache, freezing,
            exploring, rtx, pdcs;
    };
    waveform_signals& m_w;
    uet_nic& m_nic;
    std::vector<slot> m_slots;
    uint32_t m_pool, m_control, m_data, m_ack_hold, m_ready, m_tx_pdcs, m_rx_pdcs, m_timers, m_rto,
        m_nack, m_monitor;
};

}  // namespace

std::unique_ptr<state_probe> make_uet_nic_probe(waveform_signals& w, const std::string& component,
                                                host_nic& nic, const scenario& sc)
{
    return std::make_unique<uet_nic_probe>(w, component, *as_uet_nic(nic), sc.trace.group_slots);
}

}  // namespace uetsim
