// The Chakra replay: runs each rank's prepared trace on the host it is placed on. A node starts
// when its last dependency finishes; compute waits (sharing the rank's NPU unless TraceFamily is
// collected), a send is one RDMA WRITE posted to the sending host's NIC (or, inside a scale-up
// group, a transfer of the scale-up fabric), a receive finishes when the transfer with its tag
// has arrived, and a collective runs its plan's steps. A rank ends when every node has finished
// and every transfer it sent or received has been acknowledged; the run stops one
// BeaconReportInterval after the last rank ends.
//
// Every callback from a NIC (a message sent, a payload written, a message acknowledged) is
// queued and handled in the replay's own wake-up at its time, never inside the NIC's call, so a
// send posted in answer never re-enters the NIC.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "hw/kernel/wakeup.h"
#include "testbench/traffic/chakra/chakra_config.h"
#include "testbench/traffic/chakra/chakra_workload.h"
#include "testbench/traffic/chakra/collective_stats.h"
#include "testbench/traffic/chakra/npu_compute.h"
#include "testbench/traffic/chakra/prepared_workload.h"
#include "testbench/traffic/chakra/scale_up_fabric.h"

namespace uetsim::chakra {

// The transport's message ids of the replay's transfers: bit 62 tells them from WQEs (bit 63)
// and Flows messages; then a generation and the transfer's slot.
inline constexpr uint64_t k_transfer_message_bit = uint64_t(1) << 62;
constexpr bool is_transfer_message(uint64_t m)
{
    return (m & k_transfer_message_bit) && !(m >> 63);
}

// One acknowledged transfer: a chakra-perf row's facts.
struct acked_transfer
{
    double ack_s = 0;
    double start_s = 0;
    uint32_t src = 0, dst = 0;  // ranks
    uint64_t bytes = 0;
    int64_t tag = 0;
    uint32_t collective = k_none;  // instance, k_none for a trace send
    bool synchronization = false;
};

// What one rank did (chakra-completion-stats), barriers excluded.
struct rank_progress
{
    uint64_t bytes_sent = 0, bytes_received = 0;
    uint64_t sends_completed = 0, receives_completed = 0, sends_acked = 0;
    uint64_t computations_completed = 0;
    uint64_t computation_time_us = 0;
    bool ended = false;
    uint64_t end_ps = 0;
};

class chakra_replay
{
public:
    // Posts a scale-out transfer as one RDMA WRITE of `bytes` from `src_host` to `dst_host`.
    using nic_poster =
        std::function<void(uint32_t src_host, uint64_t message, uint32_t dst_host, uint64_t bytes)>;

    // `map`: the mapping file that placed the ranks, whose scale-up groups carry the transfers
    // between their members (null: none).
    chakra_replay(const prepared_workload& w, const chakra_config& cfg, rank_placement placement,
                  const mapping* map, uint32_t data_mss, double start_s, double end_delay_s,
                  nic_poster post);
    ~chakra_replay();

    // The NIC's reports, for messages with k_transfer_message_bit.
    void nic_sent(uint64_t message, uint64_t at_ps);
    void nic_written(uint64_t message, uint64_t offset, uint32_t bytes, uint64_t at_ps);
    void nic_acked(uint64_t message, double time_s);

    // Observers (records), called in the order added.
    void on_acked(std::function<void(const acked_transfer&)> f)
    {
        m_on_acked.push_back(std::move(f));
    }
    void on_rank_ended(std::function<void(uint32_t rank)> f)
    {
        m_on_rank_ended.push_back(std::move(f));
    }
    // A rank's running collective or its step changed (waveforms); one observer.
    void on_rank_state(std::function<void(uint32_t rank)> f) { m_on_rank_state = std::move(f); }

    const prepared_workload& workload() const { return m_w; }
    const rank_placement& placement() const { return m_place; }
    uint32_t ranks() const;
    const rank_progress& progress(uint32_t r) const;
    const collective_times& times(uint32_t instance) const { return m_coll_times[instance]; }
    // A node's start and end in ps (-1: not yet), for the annotated traces and the profiling
    // file; a send's end is its acknowledgment.
    int64_t node_start_ps(uint32_t rank, uint32_t node) const;
    int64_t node_end_ps(uint32_t rank, uint32_t node) const;
    bool node_running(uint32_t rank, uint32_t node) const;
    // The rank's trace start (StartTime) in seconds.
    double start_s() const { return m_start_s; }
    uint64_t start_ps() const { return m_start_ps; }
    uint32_t ranks_ended() const { return m_ended; }
    // Totals over the run so far (chakra-cdf numerators), barriers excluded.
    struct totals
    {
        uint64_t send_bytes = 0, sends = 0, receives = 0, acked = 0, computations = 0;
    };
    const totals& completed() const { return m_done; }
    uint64_t transfers_posted() const { return m_posted; }
    // Transfers posted and not yet acknowledged, synchronization included (StallTimeout).
    uint64_t transfers_unacked() const { return m_unacked; }
    // The scale-up fabric's counters by rank (nd-stats), and its bandwidth.
    const scale_up_fabric* scale_up() const { return m_scale_up.get(); }
    // What a rank is doing, for waveforms: the collective instance it runs first (k_none for
    // none), whether that one is in its synchronization barrier, and its latest step issued.
    uint32_t running_collective(uint32_t rank) const;
    bool running_barrier(uint32_t rank) const;
    uint32_t running_step(uint32_t rank) const;

    // Empty when every transfer arrived exactly once and every rank ended.
    std::string scoreboard_report() const;

private:
    struct transfer;
    struct collective_run;
    struct rank_state;
    struct event
    {
        uint64_t at_ps;
        uint64_t seq;
        uint8_t kind;
        uint32_t a, b;
        bool operator>(const event& o) const
        {
            return at_ps != o.at_ps ? at_ps > o.at_ps : seq > o.seq;
        }
    };
    enum event_kind : uint8_t { start_all, node_done, sent, received, acked, end_run };

    void push(uint64_t at_ps, uint8_t kind, uint32_t a = 0, uint32_t b = 0);
    void run_due();
    void handle(const event& e);
    void start_node(uint32_t rank, uint32_t node);
    void finish_node(uint32_t rank, uint32_t node);
    void drain_ready();
    void npu_due(uint32_t rank);

    uint32_t new_transfer(uint32_t src, uint32_t dst, uint64_t bytes);
    transfer* find(uint64_t message);
    void post(uint32_t t);
    void transfer_sent(uint32_t t);
    void transfer_received(uint32_t t);
    void transfer_acked(uint32_t t, double time_s);
    void maybe_retire(uint32_t t);

    void start_collective(uint32_t rank, uint32_t node);
    void start_phase(collective_run& run, uint8_t phase);
    void pump(collective_run& run, uint32_t lane);
    void count_arrival(collective_run& run, uint32_t lane, uint32_t step);
    void collective_arrival(collective_run& run, uint32_t lane, uint32_t step);
    void check_run_done(collective_run& run);
    collective_run* active_run(uint32_t rank, uint32_t instance);

    void p2p_arrival(uint32_t rank, uint32_t src, int64_t tag, uint32_t t);
    void maybe_end_rank(uint32_t rank);

    std::vector<std::function<void(const acked_transfer&)>> m_on_acked;
    std::vector<std::function<void(uint32_t)>> m_on_rank_ended;
    std::function<void(uint32_t)> m_on_rank_state;
    const prepared_workload& m_w;
    rank_placement m_place;
    uint32_t m_mss;
    double m_start_s;
    uint64_t m_start_ps;
    double m_end_delay_s;
    nic_poster m_post;
    std::unique_ptr<scale_up_fabric> m_scale_up;
    std::vector<scale_up_event> m_scale_up_events;

    std::vector<rank_state> m_ranks;
    std::deque<transfer> m_transfers;
    std::vector<uint32_t> m_free_transfers;
    std::vector<collective_times> m_coll_times;
    std::priority_queue<event, std::vector<event>, std::greater<event>> m_events;
    uint64_t m_seq = 0;
    std::vector<std::pair<uint32_t, uint32_t>> m_ready;  // (rank, node) to start now
    totals m_done;
    uint32_t m_ended = 0;
    uint64_t m_unacked = 0;
    uint64_t m_posted = 0;
    uint64_t m_stale_writes = 0;
    std::string m_violations;
    std::vector<transfer_op> m_sends, m_recvs;  // scratch for plan steps
    wakeup m_due{[this] { run_due(); }};
    wakeup m_scale_up_due{[this] { run_due(); }};
};

}  // namespace uetsim::chakra
