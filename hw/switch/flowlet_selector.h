// Flowlet member selection (LoadBalancingMethod: flowlet), as the switch pages' "Dynamic load
// balancing" section describes it: a flow table of 512 slots per equal-cost set (the first 128
// sets the switch sees), indexed by the flow hash; a slot's member is selected again when the
// slot is empty or its last admitted packet is at least Gap old; the selection takes the least
// egress occupancy among the candidates (PFC-aware: members paused for the packet's class are
// left out unless every member is paused), keeps the current member when it is at that least
// occupancy, and breaks other ties with a seeded draw. The decision takes effect only when the
// packet is admitted (admitted()): a dropped packet leaves the slot as it was. Pure logic: the
// switch answers the occupancy and pause queries through member_view.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hw/common/random.h"
#include "hw/switch/flow_hasher.h"
#include "hw/switch/member_selector.h"
#include "hw/switch/routing_table.h"

namespace uetsim {

struct flowlet_config
{
    uint64_t gap_ps = 100'000'000;  // Gap, 100 us
    bool pfc_aware = true;          // PFCAware
};

class flowlet_selector final : public member_selector
{
public:
    static constexpr size_t slots_per_set = 512;
    static constexpr size_t sets_with_slots = 128;

    // Counters per member of a set (scala-switch-load-balancing-stats), counted when the
    // decision takes effect (the packet is admitted).
    struct member_stats
    {
        uint64_t assignments = 0;        // a flow's empty slot was given this member
        uint64_t movements_in = 0;       // a flow was moved to this member
        uint64_t movements_out = 0;      // a flow was moved away from this member
        uint64_t paused_skips = 0;       // a selection left this member out: PFC had paused it
        uint64_t paused_selections = 0;  // a selection chose this member while it was paused
    };

    // `routes` and `view` outlive the selector; `rng` draws the ties.
    flowlet_selector(ecmp_hash_method method, uint32_t salt, const flowlet_config& cfg,
                     const routing_table& routes, const member_view& view, random_stream rng);

    size_t select(const packet& p, uint8_t tc, int32_t set, size_t members,
                  uint64_t now_ps) override;
    void admitted(uint64_t now_ps) override;

    // 512 for a set that has a flow table, 0 for one not seen yet or past the 128th.
    size_t flow_table_slots(int32_t set) const;
    // By the routing table's flat member index (routing_table::member_slot).
    const member_stats& stats(size_t member_slot) const { return m_stats[member_slot]; }

    // Rtl.FlowHash rtl|both: the flow hashes come from `h` (hw/switch/flow_hasher.h; not owned).
    void use_hasher(flow_hasher* h) { m_hasher = h; }

private:
    struct slot
    {
        uint64_t last_admitted_ps = 0;
        uint16_t member = 0;
        bool used = false;
    };
    enum class decision : uint8_t { keep, assign, reselect };

    // The member a selection takes for `set`; fills m_skipped with the members left out.
    size_t choose(int32_t set, size_t members, uint8_t tc, const slot& s);
    int32_t table_of(int32_t set);

    ecmp_hash_method m_method;
    uint32_t m_salt;
    flowlet_config m_cfg;
    const routing_table& m_routes;
    const member_view& m_view;
    random_stream m_rng;
    flow_hasher* m_hasher = nullptr;

    static constexpr int32_t not_seen = -1;
    static constexpr int32_t no_table = -2;  // past the 128th set: hash modulo
    std::vector<int32_t> m_table_of_set;     // index into m_slots / slots_per_set
    std::vector<slot> m_slots;
    std::vector<member_stats> m_stats;

    // The last select(), committed by admitted().
    struct pending
    {
        bool valid = false;
        decision kind = decision::keep;
        size_t slot_index = 0;
        int32_t set = 0;
        uint16_t member = 0;
        bool chose_paused = false;
    } m_pending;
    std::vector<uint16_t> m_skipped;  // members the pending selection left out (paused)
    std::vector<uint16_t> m_least;    // scratch: candidates at the least occupancy
};

}  // namespace uetsim
