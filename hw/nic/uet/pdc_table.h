// The UET NIC's sender PDCs and PDC groups (PDS): PDC ids 1..32767 with a free list (the most
// recently closed id is reused first), the PDC groups with the group of each destination when
// groups are enabled (PdcGroupsEnabled: the PDCs to one destination share a window and an
// entropy policy), and the queue-pair -> PDC map (one queue pair, one PDC kept open).
// Pure logic; the NIC creates each group's NSCC and opens its entropy engine slot.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "hw/nic/uet/nscc.h"
#include "hw/nic/uet/pdc_sender.h"
#include "hw/nic/uet/prefetch_buffer.h"
#include "hw/nic/uet/rccc_credit.h"
#include "tlm/delivery_mode.h"

namespace uetsim {

struct sender_pdc
{
    uint16_t id = 0;
    uint16_t remote_id = 0;  // learned from the first ACK
    uint32_t dst = 0, dst_ip = 0;
    uint32_t group = 0;
    uint32_t first_psn = 0;
    pdc_sender st;
    pdc_prefetch prefetch;  // its packets in the NIC's prefetch buffer (PrefetchBufferEnable)
    uint64_t message = 0;   // index into the NIC's messages
    uint64_t ar_count = 0;  // data packets sent, for the ACK-request rule
    uint64_t probe_sent_ps = 0;
    bool probe_outstanding = false;
    bool open = false;
    bool kept_open = false;                   // a queue pair's PDC: stays open between its messages
    delivery_mode mode = delivery_mode::rud;  // of its messages (its requests' PDS type)
    uint32_t queue_pair = 0;                  // its queue pair, when kept_open
    // The close handshake (docs/pdc-lifecycle.md): CLOSE_CMD sent, its ACK awaited (the id is
    // held until then); the command's PSN and transmissions; a generation that makes older idle
    // and retransmission timers stale; the target asked for a close (CLOSE_REQ).
    bool closing = false;
    bool close_requested = false;
    uint8_t close_tx = 0;
    uint32_t close_psn = 0;
    uint32_t close_gen = 0;
};

struct pdc_group
{
    std::unique_ptr<nscc> cc;
    rccc_credit* credit = nullptr;  // RCCC: its destination's credit account (null: RCCC off)
    uint32_t lb_slot = 0;           // its context slot in the NIC's entropy_engine
    uint64_t inflight = 0;
    uint64_t fetched = 0;          // payload bytes fetched from the host, ever (uet-monitor)
    uint64_t fetched_unacked = 0;  // nominal bytes fetched and not yet acknowledged (fetch test)
    uint16_t last_entropy = 0;     // of the group's last data packet or retransmission sent
    uint8_t last_penalty = 0;      // receiver penalty of the group's latest data ACK (uet-monitor)
    std::vector<uint16_t> pdcs;    // open sender PDCs, served in turn
    size_t turn = 0;
    bool queued = false;            // in the scheduler's ready ring
    bool prefetch_waiting = false;  // held back by a full prefetch buffer until it drains
    uint32_t dst = 0;
    bool alive = false;
};

class pdc_table
{
public:
    static constexpr uint16_t first_id = 1;
    static constexpr uint16_t last_id = 32767;

    explicit pdc_table(bool groups_enabled);

    // An id for a new PDC: the most recently freed one, else the lowest never used; 0 when
    // all 32,767 are open.
    uint16_t allocate_id();
    // Opens PDC `id` (from allocate_id) to `dst`, in a fresh state but for the fields given.
    sender_pdc& open(uint16_t id, uint32_t dst, uint32_t dst_ip, uint32_t first_psn,
                     uint64_t message);
    // The PDC with this id (open or closed), or nullptr if the id was never used or is out of
    // range (a received DPDCID can be anything).
    sender_pdc* find(uint16_t id) const { return id < m_pdcs.size() ? m_pdcs[id].get() : nullptr; }
    sender_pdc& at(uint16_t id) const { return *m_pdcs[id]; }
    // The open PDC an ACK or NACK from `src_host` names (its DPDCID, and the first PSN that
    // tells a reused id from the earlier PDC), or nullptr for a late packet.
    sender_pdc* live(uint16_t id, uint32_t src_host, uint32_t first_psn) const
    {
        sender_pdc* p = find(id);
        return p && p->open && p->dst == src_host && p->first_psn == first_psn ? p : nullptr;
    }

    // The group a new PDC to `dst` joins: the destination's live group when groups are enabled,
    // else a fresh one (`created`: the caller gives it its NSCC and entropy slot).
    uint32_t group_for(uint32_t dst, bool& created);
    pdc_group& group(uint32_t g) { return m_groups[g]; }
    const pdc_group& group(uint32_t g) const { return m_groups[g]; }
    // PDC id slots held: up to the highest id ever used (ids are given lowest first).
    size_t id_slots() const { return m_pdcs.size(); }
    // Group slots ever used (live or free).
    size_t group_slots() const { return m_groups.size(); }
    // Calls `f(g)` for every live group to `dst` (one with groups enabled, any number without).
    template <class F>
    void for_each_group_to(uint32_t dst, F&& f)
    {
        if (m_groups_enabled) {
            auto it = m_group_of_dst.find(dst);
            if (it != m_group_of_dst.end()) f(it->second);
            return;
        }
        for (uint32_t g = 0; g < m_groups.size(); ++g)
            if (m_groups[g].alive && m_groups[g].dst == dst) f(g);
    }
    // Adds open PDC `p` to its group's turn.
    void join_group(const sender_pdc& p) { m_groups[p.group].pdcs.push_back(p.id); }
    // Closes `p`: out of its group (and its queue pair's), its id free unless `hold_id` (the
    // close handshake frees it with free_id once the target acknowledges). The group dies with
    // its last PDC unless `peer_sending` (a PDC from the peer is open at this NIC: with groups
    // enabled it keeps the group); the next message then starts a fresh window and state. True
    // when it died.
    bool close(sender_pdc& p, bool peer_sending = false, bool hold_id = false);
    void free_id(const sender_pdc& p) { m_free_ids.push_back(p.id); }
    // The last PDC from `dst` closed at this NIC: its group dies if it has no sender PDC left.
    // The group that died, if one did.
    std::optional<uint32_t> peer_idle(uint32_t dst);

    // The queue pair's PDC, kept open between its messages, or nullptr.
    sender_pdc* of_queue_pair(uint32_t queue_pair) const
    {
        auto it = m_pdc_of_queue_pair.find(queue_pair);
        return it == m_pdc_of_queue_pair.end() ? nullptr : m_pdcs[it->second].get();
    }
    void bind_queue_pair(uint32_t queue_pair, sender_pdc& p)
    {
        p.kept_open = true;
        p.queue_pair = queue_pair;
        m_pdc_of_queue_pair[queue_pair] = p.id;
    }

private:
    void retire_group(uint32_t g);

    bool m_groups_enabled;
    std::vector<std::unique_ptr<sender_pdc>> m_pdcs;  // index = PDC id, grown on first use
    std::vector<uint16_t> m_free_ids;
    uint16_t m_next_id = first_id;
    std::unordered_map<uint32_t, uint16_t> m_pdc_of_queue_pair;
    std::vector<pdc_group> m_groups;
    std::vector<uint32_t> m_free_groups;
    std::unordered_map<uint32_t, uint32_t> m_group_of_dst;
};

}  // namespace uetsim
