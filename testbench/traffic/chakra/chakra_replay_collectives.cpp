// chakra_replay's collectives: a rank's part in a collective instance runs its plan's steps lane
// by lane, a barrier phase first when the instance is synchronized.
#include <algorithm>

#include "hw/kernel/sim_clock.h"
#include "testbench/traffic/chakra/chakra_replay.h"
#include "testbench/traffic/chakra/chakra_replay_state.h"

namespace uetsim::chakra {

chakra_replay::collective_run* chakra_replay::active_run(uint32_t rank, uint32_t instance)
{
    for (auto& run : m_ranks[rank].runs)
        if (run->instance == instance) return run.get();
    return nullptr;
}

void chakra_replay::start_collective(uint32_t r, uint32_t node)
{
    const prepared_node& n = m_w.ranks[r].nodes[node];
    const collective_instance& c = m_w.collectives[n.collective];
    auto run = std::make_unique<collective_run>();
    run->rank = r;
    run->node = node;
    run->instance = c.id;
    run->position = uint32_t(m_w.groups[c.group].position[r]);
    collective_run& ref = *run;
    m_ranks[r].runs.push_back(std::move(run));
    start_phase(ref, c.synchronized ? 0 : 1);
}

void chakra_replay::start_phase(collective_run& run, uint8_t phase)
{
    const collective_instance& c = m_w.collectives[run.instance];
    run.phase = phase;
    run.plan = phase == 0 ? m_w.plans[c.barrier_plan].get() : m_w.plans[c.plan].get();
    run.lanes.assign(run.plan->lanes(), {});
    run.unsent = run.recv_left = 0;
    run.current_step = 0;
    for (uint32_t lane = 0; lane < run.lanes.size(); ++lane) {
        auto& l = run.lanes[lane];
        l.steps = run.plan->steps(run.position, lane);
        l.recv_left.assign(l.steps, 0);
        l.unsent.assign(l.steps, 0);
        for (uint32_t k = 0; k < l.steps; ++k) {
            run.plan->step(run.position, lane, k, m_sends, m_recvs);
            l.recv_left[k] = uint32_t(m_recvs.size());
            run.recv_left += m_recvs.size();
        }
    }
    if (phase == 1) {
        collective_times& ct = m_coll_times[run.instance];
        const double now = seconds_of(sim_now_ps());
        if (ct.first_start_s < 0 || now < ct.first_start_s) ct.first_start_s = now;
        ct.last_start_s = std::max(ct.last_start_s, now);
    }
    // What arrived before this rank reached the phase.
    auto& held = m_ranks[run.rank].held;
    if (auto it = held.find((uint64_t(run.instance) << 1) | phase); it != held.end()) {
        for (const auto& [lane, step] : it->second) count_arrival(run, lane, step);
        held.erase(it);
    }
    // Steps with no receive (or all of them in already) do not hold back the next sends.
    for (auto& l : run.lanes)
        while (l.recv_prefix < l.steps && l.recv_left[l.recv_prefix] == 0) ++l.recv_prefix;
    if (m_on_rank_state) m_on_rank_state(run.rank);
    for (uint32_t lane = 0; lane < run.lanes.size(); ++lane) pump(run, lane);
    check_run_done(run);
}

void chakra_replay::pump(collective_run& run, uint32_t lane)
{
    auto& l = run.lanes[lane];
    const bool after_recv = run.plan->send_after_recv(lane);
    const bool after_send = run.plan->send_after_send(lane);
    const prepared_group& g = m_w.groups[m_w.collectives[run.instance].group];
    while (l.next_issue < l.steps) {
        const uint32_t k = l.next_issue;
        if (after_recv && l.recv_prefix < k) break;
        if (after_send && l.sent_prefix < k) break;
        // Posting a transfer never calls back into the replay: m_sends stays as filled here.
        run.plan->step(run.position, lane, k, m_sends, m_recvs);
        l.unsent[k] = uint32_t(m_sends.size());
        run.unsent += m_sends.size();
        ++l.next_issue;
        if (k > run.current_step) {
            run.current_step = k;
            if (m_on_rank_state) m_on_rank_state(run.rank);
        }
        for (const transfer_op& op : m_sends) {
            const uint32_t dst = g.ranks[op.peer];
            const uint32_t t = new_transfer(run.rank, dst, op.bytes);
            transfer& x = m_transfers[t];
            x.instance = run.instance;
            x.phase = run.phase;
            x.lane = lane;
            x.step = k;
            x.recv_step = run.plan->recv_step(run.position, lane, k, op.peer);
            x.tag = int64_t((uint64_t(run.instance) << 24) | (uint64_t(run.phase) << 23) |
                            (uint64_t(lane) << 22) | k);
            post(t);
        }
        while (l.sent_prefix < l.next_issue && l.unsent[l.sent_prefix] == 0) ++l.sent_prefix;
    }
}

void chakra_replay::count_arrival(collective_run& run, uint32_t lane, uint32_t step)
{
    auto& l = run.lanes[lane];
    --l.recv_left[step];
    --run.recv_left;
    while (l.recv_prefix < l.steps && l.recv_left[l.recv_prefix] == 0) ++l.recv_prefix;
}

void chakra_replay::collective_arrival(collective_run& run, uint32_t lane, uint32_t step)
{
    count_arrival(run, lane, step);
    pump(run, lane);
    check_run_done(run);
}

void chakra_replay::check_run_done(collective_run& run)
{
    if (run.unsent || run.recv_left) return;
    for (const auto& l : run.lanes)
        if (l.next_issue < l.steps) return;
    if (run.phase == 0) {
        start_phase(run, 1);
        return;
    }
    const uint32_t r = run.rank, node = run.node, instance = run.instance;
    auto& runs = m_ranks[r].runs;
    runs.erase(
        std::find_if(runs.begin(), runs.end(), [&](const auto& p) { return p.get() == &run; }));
    ++m_coll_times[instance].participants_done;
    if (m_on_rank_state) m_on_rank_state(r);
    finish_node(r, node);
}

}  // namespace uetsim::chakra
