// PFC on one port, both directions (IEEE 802.1Qbb as the UET/RoCE NIC and switch pages use it),
// shared by the switch port and the NIC port:
// - received frames pause and resume classes of the port's port_scheduler, each for its pause
//   time (pfc_pause_timer), with the transmitter kicked on a resume;
// - xoff()/xon() from the port's owner (the switch's shared buffer through pause_signal, the
//   NIC's receive pools) queue pause and resume frames in the PFC queue, which the port serves
//   ahead of all data and never buffers or charges, and re-send each held pause every half pause
//   time (pfc_requests);
// - optionally a watchdog: a class paused without a break for the watchdog time has its queue
//   dropped by the owner (pfc_owner::pfc_watchdog_drop), again every watchdog time while the
//   pause lasts;
// - the XOFF time due to egress occupancy (pfc_egress_blocking): the owner says which classes
//   have frames waiting (pfc_owner::pfc_egress_waiting) and calls egress_changed() when it
//   queues one.
// One frame per class, as the switch page says ("one PFC frame for each lossless traffic class").
// Nothing here runs per data packet: with no PFC frame on the port its events never fire. The
// pause state, counters and timers are made at the port's first PFC frame (sent or received),
// so the ports of a large lossy or uncongested fabric hold only the queue and their owner.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>

#include "hw/pfc/pfc_egress_blocking.h"
#include "hw/pfc/pfc_owner.h"
#include "hw/pfc/pfc_pause_timer.h"
#include "hw/pfc/pfc_requests.h"
#include "hw/common/port_scheduler.h"
#include "hw/common/ring.h"
#include "hw/common/state_probe.h"
#include "hw/kernel/wakeup.h"
#include "tlm/packet_pool.h"

namespace uetsim {

struct pfc_settings
{
    pfc_link link;                               // the port's link: pause and refresh times
    uint32_t frame_bytes = wire::pfc_uet_bytes;  // 64 B (UET links) or 84 B (RoCE links)
    std::array<uint16_t, 8> quanta{};            // requested per class; all 65535 by default
    uint64_t watchdog_ps = 0;                    // 0: no watchdog
    uint32_t ip = 0;                             // the port's address (its MAC in captures)
    pfc_settings() { quanta.fill(wire::pfc_default_quanta); }
};

// Frame counts per class (ecn-pfc-stats).
struct pfc_class_counters
{
    uint64_t xoff_tx = 0;         // pause frames sent, refreshes included
    uint64_t xon_tx = 0;          // resume frames sent
    uint64_t watchdog_drops = 0;  // packets the watchdog dropped
    uint64_t watchdog_fired = 0;
};

class pfc_unit
{
public:
    pfc_unit(const pfc_settings& s, packet_pool& pool, port_scheduler& scheduler, pfc_owner& owner);
    pfc_unit(const pfc_unit&) = delete;
    pfc_unit& operator=(const pfc_unit&) = delete;

    // The port's link, known once the fabric is bound.
    void set_link(const pfc_link& l);
    // The size of the PFC frames the port sends: a switch port takes its link's peer NIC's
    // (64 B to a UET NIC, 84 B to a RoCE NIC), which the fabric knows once it wires the link.
    void set_frame_bytes(uint32_t bytes) { m_s.frame_bytes = bytes; }
    const pfc_settings& settings() const { return m_s; }

    // A PFC frame that arrived on the port (consumed: the caller releases the packet).
    void receive(const packet& p);

    // Send side: hold the peer's classes of `mask` in pause, or release them.
    void xoff(uint8_t mask);
    void xon(uint8_t mask);
    // At each refresh, `still(t)` false releases class t (the NIC's pool is below Xoff)
    // instead of re-sending; without it a held class is refreshed until xon().
    void on_refresh(std::function<bool(int)> still) { m_still = std::move(still); }

    // The PFC queue, served ahead of every class.
    bool waiting() const { return !m_queue.empty(); }
    // Another frame into the PFC queue, behind those queued (a RoCE NIC's CNP); the caller
    // kicks its transmitter.
    void push_frame(packet* p) { m_queue.push_back(p); }
    packet* pop()
    {
        packet* p = m_queue.front();
        m_queue.pop_front();
        return p;
    }

    // The owner queued a frame (or its head of line changed): a paused class may now hold one.
    // Nothing but a test while no class is paused.
    void egress_changed()
    {
        if (__builtin_expect(m_st != nullptr, 0) && m_st->rx.paused() != 0) track_egress();
    }
    const pfc_egress_blocking& egress_blocking() const;
    const pfc_pause_timer& pauses() const;
    // The longest pause (and XOFF time due to egress occupancy) of class t in the record
    // interval ending at `now_ps`; the next interval starts there (ecn-pfc-stats).
    uint64_t take_pause_interval_max_ps(int t, uint64_t now_ps);
    uint64_t take_egress_interval_max_ps(int t, uint64_t now_ps);
    uint8_t held() const { return m_st ? m_st->tx.held() : 0; }
    const pfc_class_counters& counters(int t) const;
    // Whether any PFC frame was ever sent or received (records skip idle ports).
    bool active() const { return m_active; }
    // Waveforms: called after the paused or held classes change (nullptr: not traced).
    void set_probe(state_probe* p) { m_probe = p; }

private:
    // What a port that has seen PFC keeps: pause state each way, counters, its three timers.
    struct state
    {
        explicit state(pfc_unit& u)
            : expiry_wake([&u] { u.on_expiry(); })
            , refresh_wake([&u] { u.on_refresh_due(); })
            , watchdog_wake([&u] { u.on_watchdog_due(); })
        {
        }
        std::array<uint64_t, 8> refresh_ps{};
        pfc_pause_timer rx;
        pfc_egress_blocking blocked;
        pfc_requests tx;
        std::array<pfc_class_counters, 8> counters{};
        std::array<uint64_t, 8> watchdog_due{};
        wakeup expiry_wake;
        wakeup refresh_wake;
        wakeup watchdog_wake;
    };
    state& st();
    void compute_refresh();
    void send(uint8_t mask, bool pause);
    void on_expiry();
    void on_refresh_due();
    void on_watchdog_due();
    void arm_expiry();
    void arm_refresh();
    void arm_watchdog();
    [[gnu::noinline, gnu::cold]] void track_egress();
    void changed()
    {
        if (m_probe) m_probe->changed();
    }

    pfc_settings m_s;
    packet_pool& m_pool;
    port_scheduler& m_scheduler;
    pfc_owner& m_owner;
    std::function<bool(int)> m_still;
    ring<packet*> m_queue;
    std::unique_ptr<state> m_st;  // from the first PFC frame on
    bool m_active = false;
    state_probe* m_probe = nullptr;
};

}  // namespace uetsim
