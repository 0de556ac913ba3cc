// chakra_replay's private state: a transfer in flight, a rank's part in a running collective and
// a rank's progress through its trace. Shared by the replay's source files only.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "testbench/traffic/chakra/chakra_replay.h"

namespace uetsim::chakra {

inline double seconds_of(uint64_t ps)
{
    return double(ps) * 1e-12;
}

struct chakra_replay::transfer
{
    uint32_t generation = 0;
    bool live = false;
    uint32_t src = 0, dst = 0;  // ranks
    uint64_t bytes = 0;
    uint64_t received_bytes = 0;
    uint32_t packets = 0, packets_got = 0;
    std::vector<bool> got;  // per packet: the exactly-once check
    uint64_t start_ps = 0;
    uint32_t node = k_none;      // a trace send: its node on `src`
    uint32_t instance = k_none;  // a collective's transfer
    uint8_t phase = 0;           // 0: the synchronization barrier, 1: the collective
    uint32_t lane = 0, step = 0, recv_step = 0;
    int64_t tag = 0;
    bool sent = false, received = false, acked = false;
    bool receiver_waits_ack = false;  // counted in the receiver's rx_unacked
    bool scale_up = false;

    bool synchronization() const { return instance != k_none && phase == 0; }
};

struct chakra_replay::collective_run
{
    uint32_t rank = 0, node = 0, instance = 0;
    uint8_t phase = 0;
    const collective_plan* plan = nullptr;
    uint32_t position = 0;
    struct lane_state
    {
        uint32_t steps = 0;
        uint32_t next_issue = 0;   // the first step whose sends are not issued
        uint32_t recv_prefix = 0;  // steps 0..recv_prefix-1 have every receive
        uint32_t sent_prefix = 0;  // steps 0..sent_prefix-1 have every send sent
        std::vector<uint32_t> recv_left, unsent;
    };
    std::vector<lane_state> lanes;
    uint64_t unsent = 0, recv_left = 0;
    uint32_t current_step = 0;  // waveforms
};

struct chakra_replay::rank_state
{
    std::vector<uint32_t> deps_left;
    std::vector<int64_t> start_ps, end_ps;
    std::vector<uint8_t> running;
    uint32_t nodes_left = 0;
    uint64_t sends_unacked = 0, rx_unacked = 0;
    rank_progress progress;
    std::unique_ptr<npu_compute> npu;
    std::unique_ptr<wakeup> npu_due;
    std::vector<std::unique_ptr<collective_run>> runs;
    // Collective transfers that arrived before this rank's part reached their phase, by
    // (instance, phase): (lane, receiver step) each.
    std::unordered_map<uint64_t, std::vector<std::pair<uint32_t, uint32_t>>> held;
    // Trace transfers by (sender, tag): the bytes of those that arrived before their receive
    // started, and the receives that started before their transfer arrived.
    std::map<std::pair<uint32_t, int64_t>, std::deque<uint64_t>> arrived;
    std::map<std::pair<uint32_t, int64_t>, std::deque<uint32_t>> waiting;
};

}  // namespace uetsim::chakra
