// CBFC on one port (a switch port or a NIC port), both directions of its link:
// - sending: a frame of a class on a virtual channel (VC) goes only when the VC has credit for
//   all of it (cbfc_credits); otherwise the VC's classes stall in the port's scheduler, their
//   frames wait in their queues and other VCs pass them, until a credit update brings enough;
//   a frame that spent credit carries its VC (packet::cbfc_vc) to the receiver;
// - receiving: bytes that came in on a VC leave the port's ingress buffer (the owner calls
//   freed()), and credit updates report them, at most one per interval (cbfc_return), through
//   the port's PFC queue: ahead of every class, never stalled, never buffered or charged.
// Made only on a link with CBFC on; a port without one holds a null pointer.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "hw/cbfc/cbfc_credits.h"
#include "hw/cbfc/cbfc_return.h"
#include "hw/cbfc/cbfc_settings.h"
#include "hw/cbfc/credit_gate.h"
#include "hw/common/port_scheduler.h"
#include "hw/common/ring.h"
#include "hw/common/state_probe.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/activity.h"
#include "hw/kernel/wakeup.h"
#include "tlm/packet_pool.h"

namespace uetsim {

class cbfc_unit final : public credit_gate
{
public:
    // `send`: queues a frame in the port's PFC queue and kicks its transmitter; `kick`: the
    // transmitter may send again (a VC has credit).
    cbfc_unit(const cbfc_settings& s, packet_pool& pool, port_scheduler& scheduler,
              std::function<void(packet*)> send, std::function<void()> kick);
    cbfc_unit(const cbfc_unit&) = delete;
    cbfc_unit& operator=(const cbfc_unit&) = delete;

    const cbfc_settings& settings() const { return m_s; }
    // Bit c: class c rides a VC on this link.
    uint8_t classes() const { return m_classes; }

    // Sending: the frame `p` of class `tc` is next. True: it may go (its credit spent, its VC
    // stamped); false: its VC has stalled, the caller picks again.
    bool admit(int tc, packet& p) override
    {
        const uint8_t vc = m_s.vc_of_tc[size_t(tc)];
        if (vc == cbfc_no_vc) return true;
        if (m_tx.take(vc, m_s.credits_for(p.wire_bytes), sim_now_ps())) {
            p.cbfc_vc = uint8_t(vc + 1);
            changed();
            return true;
        }
        m_scheduler.stall(m_vc_classes[vc]);
        if (m_s.sync_interval_ps && !m_sync_wake.pending()) arm_sync();
        changed();
        return false;
    }
    // A credit update or sync that arrived on the port (consumed: the caller releases it).
    void receive(const packet& p);
    // A frame that spent credit arrived on the port (`p.cbfc_vc` set), before anything else
    // is done with it.
    void arrived(const packet& p) { m_rx.arrived(p.cbfc_vc - 1, credits_of(p)); }

    // Receiving: the credits a frame that spent them brings (its VC from packet::cbfc_vc).
    uint16_t credits_of(const packet& p) const { return uint16_t(m_s.credits_for(p.wire_bytes)); }
    // The port's buffer let go of `credits` of `vc`, now or at `at_ps` (a NIC's receive buffer
    // releases data once it is written to the host).
    void freed(int vc, uint32_t credits);
    void freed_at(int vc, uint32_t credits, uint64_t at_ps);

    const cbfc_credits& credits() const { return m_tx; }
    cbfc_credits& credits() { return m_tx; }
    const cbfc_return& returns() const { return m_rx; }
    uint64_t updates_received() const { return m_updates_received; }
    uint64_t syncs_sent() const { return m_syncs_sent; }
    // Credits counted as arrived from credit syncs: frames lost on the link.
    uint64_t credits_recovered() const { return m_credits_recovered; }
    // Waveforms: called after the credits or the stalls change (nullptr: not traced).
    void set_probe(state_probe* p) { m_probe = p; }

private:
    struct later_release
    {
        uint64_t at_ps;
        uint8_t vc;
        uint32_t credits;
    };
    // A credit update frame with every VC's bit set, its counts to fill.
    packet* update_frame();
    void send_update();
    void on_release_due();
    // Credit sync (docs/link-layer.md): while a VC is stalled and no update has come for an
    // interval, the sender tells the receiver how much it has spent, so that credit spent on
    // frames lost on the link comes back.
    void arm_sync();
    void on_sync_due();
    bool any_stalled() const;
    void changed()
    {
        if (__builtin_expect(m_probe != nullptr, 0)) m_probe->changed();
    }

    cbfc_settings m_s;
    packet_pool& m_pool;
    port_scheduler& m_scheduler;
    std::function<void(packet*)> m_send;
    std::function<void()> m_kick;
    uint8_t m_classes = 0;
    std::array<uint8_t, cbfc_max_vcs> m_vc_classes{};
    cbfc_credits m_tx;
    cbfc_return m_rx;
    wakeup m_update_wake{[this] {
        activity::tick();
        send_update();
    }};
    ring<later_release> m_later;  // in time order (a later release is never earlier)
    uint64_t m_later_last_ps = 0;
    wakeup m_release_wake{[this] {
        activity::tick();
        on_release_due();
    }};
    uint64_t m_updates_received = 0;
    uint64_t m_last_update_ps = 0;
    uint64_t m_syncs_sent = 0;
    uint64_t m_credits_recovered = 0;
    wakeup m_sync_wake{[this] {
        activity::tick();
        on_sync_due();
    }};
    state_probe* m_probe = nullptr;
};

}  // namespace uetsim
