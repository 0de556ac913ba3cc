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
        const signal_table& g = uet_group_signals();
        for (uint32_t k = 0; k < slots; ++k) {
            const std::string pre = "g" + std::to_string(k) + ".";
            slot s;
            s.cwnd = g.add(w, c, pre, "cwnd_bytes");
            s.inflight = g.add(w, c, pre, "inflight_bytes");
            s.base_rtt = g.add(w, c, pre, "base_rtt_ns");
            s.last_rtt = g.add(w, c, pre, "last_rtt_ns");
            s.avg_delay = g.add(w, c, pre, "avg_queue_delay_ns");
            s.entropy = g.add(w, c, pre, "entropy");
            s.reps_cache = g.add(w, c, pre, "reps_cache");
            s.freezing = g.add(w, c, pre, "reps_freezing", fires_on_rise);
            s.exploring = g.add(w, c, pre, "reps_exploring");
            s.rtx = g.add(w, c, pre, "rtx_pending");
            s.pdcs = g.add(w, c, pre, "pdcs");
            m_slots.push_back(s);
        }
        const signal_table& n = uet_nic_signals();
        m_pool = n.add(w, c, "", "egress_pool_bytes");
        m_control = n.add(w, c, "", "control_queue");
        m_data = n.add(w, c, "", "data_queue");
        m_ack_hold = n.add(w, c, "", "ack_hold");
        m_ready = n.add(w, c, "", "ready_groups");
        m_tx_pdcs = n.add(w, c, "", "open_pdcs_tx");
        m_rx_pdcs = n.add(w, c, "", "open_pdcs_rx");
        m_timers = n.add(w, c, "", "timers_pending");
        m_rto = n.add(w, c, "", "rto_count", fires_on_rise);
        m_nack = n.add(w, c, "", "nacks_received", fires_on_rise);
        m_monitor = n.add(w, c, "", "monitor_triggers", fires_on_rise);
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

const signal_table& uet_group_signals()
{
    static const signal_table t{
        "Per UET NIC and PDC group slot",
        "host0.g{k}.*",
        "The first `Trace.GroupSlots` slots. A slot is an index into the NIC's PDC groups; a freed "
        "slot is reused by the next group, "
        "and a slot without a live group shows 0 everywhere.",
        {
            {"cwnd_bytes", 64, true, "bytes", "NSCC congestion window (rounded down)"},
            {"inflight_bytes", 64, true, "bytes",
             "nominal bytes sent and not yet acknowledged (or lost)"},
            {"base_rtt_ns", 64, false, "ns", "NSCC's base RTT"},
            {"last_rtt_ns", 64, true, "ns", "the last RTT sample an ACK gave (0 before the first)"},
            {"avg_queue_delay_ns", 64, true, "ns", "NSCC's average queueing delay"},
            {"entropy", 16, false, "value",
             "entropy value (UDP source port) of the last data packet or retransmission"},
            {"reps_cache", 32, true, "entries",
             "REPS cache entries available (0 for other spraying types)"},
            {"reps_freezing", 1, false, "flag", "REPS freezing mode", trace_trigger_kind::freeze},
            {"reps_exploring", 1, false, "flag", "REPS exploration window open"},
            {"rtx_pending", 32, false, "packets", "retransmissions queued in the group's PDCs"},
            {"pdcs", 16, false, "PDCs", "open sender PDCs in the group"},
        }};
    return t;
}

const signal_table& uet_nic_signals()
{
    static const signal_table t{
        "Per UET NIC",
        "host0.*",
        "",
        {
            {"egress_pool_bytes", 32, true, "bytes",
             "egress data pool reserved (fetching, queued or serialising)"},
            {"control_queue", 32, false, "frames",
             "control frames (ACK, NACK, CM) waiting for the wire"},
            {"data_queue", 32, true, "frames", "data frames being fetched or waiting for the wire"},
            {"ack_hold", 32, false, "frames", "ACKs held for the receiver's service time"},
            {"ready_groups", 32, false, "groups", "groups in the transmit scheduler's ready ring"},
            {"open_pdcs_tx", 16, false, "PDCs", "open sender PDCs"},
            {"open_pdcs_rx", 16, false, "PDCs", "open receiver PDCs"},
            {"timers_pending", 32, false, "timers",
             "retransmission and failure-detection timers armed (incl. stale ones not yet "
             "expired)"},
            {"rto_count", 64, false, "count", "retransmission timeouts so far",
             trace_trigger_kind::rto},
            {"nacks_received", 64, false, "count", "NACKs received so far",
             trace_trigger_kind::nack},
            {"monitor_triggers", 32, false, "count",
             "connections the uet-monitor's triggers selected on this NIC's rows",
             trace_trigger_kind::monitor},
        }};
    return t;
}

std::unique_ptr<state_probe> make_uet_nic_probe(waveform_signals& w, const std::string& component,
                                                host_nic& nic, const scenario& sc)
{
    return std::make_unique<uet_nic_probe>(w, component, *as_uet_nic(nic), sc.trace.group_slots);
}

}  // namespace uetsim
