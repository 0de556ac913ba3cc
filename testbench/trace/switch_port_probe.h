// The waveform probe of a switch port's egress queue, and the signals it writes
// (docs/waveforms.md, "Per switch port").
#pragma once

#include <string>
#include <vector>

#include "hw/common/state_probe.h"
#include "hw/switch/egress_queue.h"
#include "testbench/trace/signal_table.h"

namespace uetsim {

inline const signal_table& switch_port_signals()
{
    static const signal_table t{
        "Per switch port",
        "leaf0.port{i}_{peer}.*",
        "Bytes are counted per buffer pool, the unit the buffer manager admits by: under the UET "
        "policy one pool per traffic class TC0..TC2, else the default mapping (TC1 in pool 1, the "
        "rest in pool 0). Only pools some class maps to are traced.",
        {
            {"queue_bytes", 64, true, "bytes",
             "bytes held by the port: queued plus the frame "
             "serialising",
             trace_trigger_kind::queue},
            {"queue_packets", 32, false, "frames", "frames queued"},
            {"pool{p}_bytes", 64, true, "bytes", "bytes of pool p held by the port"},
            {"pool{p}_red_avg_bytes", 64, true, "bytes", "RED's average queue of pool p"},
            {"ecn_marks", 64, false, "count", "packets marked CE so far"},
            {"trims", 64, false, "count", "packets trimmed so far", trace_trigger_kind::trim},
            {"drops", 64, false, "count", "packets dropped so far", trace_trigger_kind::drop},
        }};
    return t;
}

// A switch port's egress queue: bytes held, per buffer pool its bytes and RED average, and its
// counters. (PFC's paused classes are pfc_probe's.)
class queue_probe : public state_probe
{
public:
    queue_probe(waveform_signals& w, const std::string& c, const std::string& port,
                const egress_queue& q, const std::vector<int>& pools, uint64_t threshold)
        : m_w(w), m_q(q), m_pools(pools)
    {
        const signal_table& t = switch_port_signals();
        const std::string pre = port + ".";
        m_bytes = t.add(w, c, pre, "queue_bytes", {trace_fire_rule::kind::reaches, threshold});
        m_packets = t.add(w, c, pre, "queue_packets");
        for (int p : pools) {
            const std::string pp = "pool" + std::to_string(p);
            m_pool_bytes.push_back(t.add(w, c, pre, "pool{p}_bytes", {}, pp + "_bytes"));
            m_red.push_back(t.add(w, c, pre, "pool{p}_red_avg_bytes", {}, pp + "_red_avg_bytes"));
        }
        m_marks = t.add(w, c, pre, "ecn_marks");
        m_trims = t.add(w, c, pre, "trims", fires_on_rise);
        m_drops = t.add(w, c, pre, "drops", fires_on_rise);
    }

    void changed() override
    {
        m_w.set(m_bytes, m_q.bytes_held());
        m_w.set(m_packets, m_q.packets_queued());
        for (size_t i = 0; i < m_pools.size(); ++i) {
            m_w.set(m_pool_bytes[i], m_q.pool_bytes(m_pools[i]));
            m_w.set(m_red[i], uint64_t(m_q.mean_bytes(m_pools[i])));
        }
        const auto& st = m_q.stats();
        m_w.set(m_marks, st.ecn_marked);
        m_w.set(m_trims, st.trimmed);
        m_w.set(m_drops, st.dropped);
    }

private:
    waveform_signals& m_w;
    const egress_queue& m_q;
    std::vector<int> m_pools;
    uint32_t m_bytes, m_packets, m_marks, m_trims, m_drops;
    std::vector<uint32_t> m_pool_bytes, m_red;
};

}  // namespace uetsim
