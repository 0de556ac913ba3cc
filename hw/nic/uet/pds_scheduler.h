// The PDS transmit scheduler of the UET NIC: a ring of ready PDC groups; the group at the head
// sends from one of its PDCs, in turn, a retransmission first, then new data, if the group's
// NSCC window allows the packet (the wire test; for new data also the fetch test), its
// destination's RCCC credit allows any packet (RCCC on), and the egress data pool has room. With
// the prefetch buffer (PrefetchBufferEnable) a new segment is only fetched, into the prefetch
// buffer (the fetch test and room in that buffer), and a payload already fetched goes before a new
// segment: it is committed to the wire when the wire test and the egress pool allow. Pure logic:
// decide() says what to do (or that the pool blocks, or that nothing may go); the NIC does it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hw/common/ring.h"
#include "hw/nic/common/nic_egress_pools.h"
#include "hw/nic/uet/pdc_table.h"
#include "hw/nic/uet/prefetch_buffer.h"
#include "hw/nic/uet/uet_message_table.h"

namespace uetsim {

struct pds_decision
{
    enum class kind : uint8_t {
        idle,             // no ready group may send now
        blocked_on_pool,  // the head group's packet does not fit its class's egress pool
        send,             // send from `pdc` of `group` (out of the ring now)
        fetch,            // prefetch buffer: fetch `pdc`'s next segment into it (no wire yet)
        commit,           // prefetch buffer: `pdc`'s oldest fetched payload to the wire
    };
    kind what = kind::idle;
    uint32_t group = 0;
    sender_pdc* pdc = nullptr;
    sent_packet* retransmission = nullptr;  // nullptr: the message's next new packet
    uint32_t payload = 0;
    uint8_t traffic_class = 0;  // the packet's message's class: its egress pool and queue
};

class pds_scheduler
{
public:
    // `wire_bytes(payload)` and `nominal_bytes(payload)` of a data packet are fixed overheads.
    // `prefetch`: the NIC's prefetch buffer, nullptr when it is off (the default).
    pds_scheduler(pdc_table& pdcs, const uet_message_table& messages, uint32_t mss,
                  uint32_t wire_overhead, uint32_t nominal_overhead,
                  prefetch_buffer* prefetch = nullptr);

    // Group `g` may have work: into the ring (at the head after an ACK, NACK or timeout, at the
    // tail for a new message), unless it is in already or dead.
    void enqueue(uint32_t g, bool at_head);
    // One pass over the ready groups, as many as are queued: groups that may not send leave the
    // ring until enqueued again. `pools`: the egress pools, the packet's class's is checked.
    pds_decision decide(const nic_egress_pools& pools);
    // After the NIC sent decide()'s packet: the group goes back to the tail if it has more.
    void sent(uint32_t g)
    {
        if (has_work(m_pdcs.group(g))) enqueue(g, false);
    }
    // A retransmission, a fetched payload or new data waits in one of the group's PDCs (window
    // aside).
    bool has_work(const pdc_group& g) const;
    // The prefetch buffer drained to half: the groups that found it full go back to the tail,
    // in the order they found it so.
    void prefetch_room_freed();
    // Whether decide() now would find no ready group that may send, and note nothing (no group
    // without RCCC credit; never with the prefetch buffer). Its pass would then only take every
    // group out of the ring: idle_pass() does that without deciding.
    bool would_idle() const;
    void idle_pass();
    bool empty() const { return m_ready.empty(); }
    size_t ready() const { return m_ready.size(); }

    // A message of class `traffic_class` was posted. With one data class, a packet its pool
    // cannot hold stops every group (blocked_on_pool); with several, only its own class's: the
    // group waits apart for that pool, and the others go on.
    void data_class_used(int traffic_class) { m_data_classes |= uint8_t(1u << traffic_class); }
    // The classes whose pools groups started waiting for since the last call (the NIC blocks on
    // them).
    uint8_t take_new_pool_waits()
    {
        const uint8_t n = m_new_waits;
        m_new_waits = 0;
        return n;
    }
    // The groups found without RCCC credit since the last call (the NIC may ask for credit);
    // the caller clears it.
    std::vector<uint32_t>& credit_blocked_groups() { return m_credit_blocked; }
    // Class `traffic_class`'s pool drained to half: its waiting groups go back to the head of
    // the ring, in their order.
    void pool_freed(int traffic_class);

private:
    pds_decision decide_prefetch(const nic_egress_pools& pools);
    sender_pdc* pick(const pdc_group& g, pds_decision& d, size_t& next_turn) const;
    bool several_data_classes() const { return (m_data_classes & (m_data_classes - 1)) != 0; }
    // The head group's packet of class `tc` does not fit its pool (or the class waits already):
    // true when it waits apart (several classes), false when every group stops (one class).
    bool wait_for_pool(uint32_t g, int tc);
    void credit_blocked(uint32_t g);

    pdc_table& m_pdcs;
    const uet_message_table& m_messages;
    uint32_t m_mss;
    uint32_t m_wire_overhead;
    uint32_t m_nominal_overhead;
    ring<uint32_t> m_ready;
    prefetch_buffer* m_prefetch;               // marked blocked when a fetch finds it full
    std::vector<uint32_t> m_prefetch_waiting;  // groups a full prefetch buffer held back
    uint8_t m_data_classes = 0;                // bit c: a message of class c was posted
    uint8_t m_waiting_classes = 0;             // bit c: groups wait for class c's pool
    uint8_t m_new_waits = 0;
    std::array<ring<uint32_t>, k_tc_count> m_pool_waiting;  // the groups waiting, per class
    std::vector<uint32_t> m_credit_blocked;                 // groups without credit (RCCC)
};

}  // namespace uetsim
