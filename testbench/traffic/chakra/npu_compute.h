// One rank's NPU compute (docs: workload-execution, Compute). With TraceFamily `synthesized` or
// `compiled` the COMP nodes running at the same time share the NPU equally (processor sharing):
// whenever one starts or finishes, each running node's remaining time becomes its remaining work
// times the number running. With `collected` each node finishes its duration after it starts.
// Pure logic: the owner keeps one wake-up for next_finish_ps() and calls finish_due() from it.
//
// Sharing is kept exact with a virtual time, as processor-sharing schedulers do: every running
// node has received the same service V since the NPU last became busy, so a node finishes when V
// reaches its tag (V at its start + its work) and the earliest tag is on top of a heap, O(log n)
// per start or finish. Service is counted in units of 1/k_service_units ps of work, the same
// for every node; what does not divide evenly among the running nodes (fewer than n units) is
// pooled and handed out with the next service, so no work is ever lost or created: the NPU
// delivers exactly one ps of work per ps while busy. A node finishes at the first whole ps at
// which its work is done (rounded up once, where the exact instant falls inside a ps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

namespace uetsim::chakra {

// A node's work in ps from its durationMicros (saturating: no trace lasts 213 days).
inline uint64_t work_ps_from_micros(uint64_t micros)
{
    constexpr uint64_t k_ps_per_us = 1'000'000;
    return micros > UINT64_MAX / k_ps_per_us ? UINT64_MAX : micros * k_ps_per_us;
}

class npu_compute
{
public:
    // Units of service per ps of work: lcm(1..20), so that up to 20 nodes share each ps evenly.
    static constexpr uint64_t k_service_units = 232792560;

    // `shared`: TraceFamily synthesized or compiled; false for collected.
    explicit npu_compute(bool shared) : m_shared(shared) {}

    // A node of `work_ps` (the caller converts durationMicros: work_ps_from_micros) starts at
    // `now_ps`. Node ids are the caller's; a zero-work node is due at once. `now_ps` never goes
    // back in time (std::invalid_argument).
    void start(uint64_t node, uint64_t work_ps, uint64_t now_ps);

    // When the next node finishes (a node already done and not yet handed out: when it did).
    std::optional<uint64_t> next_finish_ps() const;

    // Appends every node that has finished by `now_ps`, in the order they finished (at one
    // instant: in start order). Called at next_finish_ps(), it hands each out at its time.
    void finish_due(uint64_t now_ps, std::vector<uint64_t>& finished);

    // Nodes started and not finished.
    size_t running() const { return m_heap.size(); }
    bool shared() const { return m_shared; }

private:
    using units = unsigned __int128;
    struct entry
    {
        units tag;  // shared: V at which it finishes; collected: its finish time in ps
        uint64_t seq;
        uint64_t node;
        bool operator>(const entry& o) const { return tag != o.tag ? tag > o.tag : seq > o.seq; }
    };

    // Brings the model to `now`: nodes that finish by then move to m_due with their times.
    void advance(uint64_t now);

    bool m_shared;
    std::priority_queue<entry, std::vector<entry>, std::greater<entry>> m_heap;
    std::vector<std::pair<uint64_t, uint64_t>> m_due;  // (node, finish ps), in finish order
    uint64_t m_now = 0;                                // the time the model has been brought to
    uint64_t m_seq = 0;
    units m_virtual = 0;  // V: service each running node has had, since the NPU became busy
    units m_pool = 0;     // delivered service not yet shared out (fewer than running() units)
};

}  // namespace uetsim::chakra
