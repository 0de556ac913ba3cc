// The switch's shared buffer at run time (the MMU role that merlin's PortInterface::spaceToSend
// and garnet's credit check play, kept apart from the queues): the shared-buffer page's
// accounting (shared_buffer_accounting) for one switch, acting on its decisions: a pause or a
// resume goes to the attached pause_signal (PFC; none attached: nobody listens), and the
// occupancy the buffer records read is sampled when one of them is on. The ingress unit
// charges through it, the egress queues charge and release through it. Pure logic, one per
// switch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "hw/switch/buffer_occupancy.h"
#include "hw/switch/pause_signal.h"
#include "hw/switch/shared_buffer_accounting.h"
#include "hw/switch/shared_buffer_config.h"
#include "tlm/packet.h"

namespace uetsim {

// Bytes a packet is charged (page: its size as received without the Ethernet header, at least
// 46): its IP datagram.
inline uint32_t buffer_charge(const packet& p)
{
    return p.ip_bytes() < wire::min_ip_charge ? uint32_t(wire::min_ip_charge)
                                              : uint32_t(p.ip_bytes());
}

// Where the bytes a CBFC virtual channel brought in go back: the port's credit return.
class credit_return_signal
{
public:
    virtual void freed(uint16_t port, uint8_t vc, uint16_t credits) = 0;

protected:
    ~credit_return_signal() = default;
};

class buffer_manager
{
public:
    static constexpr int num_pools = shared_buffer_pools;

    buffer_manager(const shared_buffer_layout& layout, size_t ports);

    // PFC's end of the seam (null: nobody listens; the decisions are counted all the same).
    void attach(pause_signal* s) { m_pause = s; }
    // Occupancy sampling for the buffer records (before the run; off: nothing is sampled).
    void sample_occupancy(std::unique_ptr<buffer_occupancy> o) { m_occupancy = std::move(o); }
    const buffer_occupancy* occupancy() const { return m_occupancy.get(); }
    buffer_occupancy* occupancy_mut() { return m_occupancy.get(); }

    // Ingress steps 3 to 7 for a packet of class `tc` arriving on `port`.
    ingress_decision on_ingress(uint16_t port, uint8_t tc, uint32_t bytes)
    {
        const ingress_decision d = m_acc.on_ingress(port, tc, bytes);
        if (d.xoff.send && m_pause) m_pause->xoff(port, d.xoff.pool);
        if (m_occupancy && d.admitted()) sample_ingress(port, d.tag.pool);
        return d;
    }
    // An arrival promised ahead (shared_buffer_accounting::promise_admission), now at its time.
    bool promise_admission(uint16_t port, uint8_t tc, uint32_t bytes, uint64_t bytes_before)
    {
        return m_acc.promise_admission(port, tc, bytes, bytes_before);
    }
    ingress_decision on_promised_ingress(uint16_t port, uint8_t tc, uint32_t bytes)
    {
        m_acc.keep_promise(port, tc, bytes);
        return on_ingress(port, tc, bytes);
    }
    void break_promise(uint16_t port, uint8_t tc, uint32_t bytes)
    {
        m_acc.break_promise(port, tc, bytes);
    }
    void set_arrival_margin(uint64_t bytes) { m_acc.set_arrival_margin(bytes); }
    // A packet that spent CBFC credit of `vc` on the link it arrived by.
    ingress_decision on_credit_ingress(uint16_t port, uint8_t tc, uint32_t bytes, uint8_t vc,
                                       uint16_t credits)
    {
        const ingress_decision d = m_acc.on_credit_ingress(port, tc, bytes, vc, credits);
        if (m_occupancy) sample_ingress(port, d.tag.pool);
        return d;
    }
    // The credit returns of the switch's CBFC ports (before the run).
    void attach_credit_return(credit_return_signal* s) { m_credit_return = s; }
    bool returns_credit() const { return m_credit_return != nullptr; }

    // Whether egress would refuse a lossy packet (the trimmer asks before cutting).
    buffer_drop egress_refusal(uint16_t out_port, uint8_t tc, uint32_t bytes, bool rtx) const
    {
        return m_acc.egress_refusal(out_port, tc, bytes, rtx);
    }
    void shrink_ingress(switch_tag& tag, uint32_t bytes)
    {
        m_acc.shrink_ingress(tag, bytes);
        if (m_occupancy) sample_ingress(tag.in_port, tag.pool);
    }
    // Egress admission; a refusal releases the ingress charge.
    egress_decision on_egress(const switch_tag& tag, uint16_t out_port, uint8_t tc, uint32_t bytes,
                              bool rtx)
    {
        const egress_decision d = m_acc.on_egress(tag, out_port, tc, bytes, rtx);
        if (m_occupancy) {
            if (d.admitted())
                sample_egress(out_port, d.charge.pool);
            else
                sample_ingress(tag.in_port, tag.pool);
        }
        // A refused packet that came with credit gives it back (refusals only: off the path of
        // every admitted packet).
        if (!d.admitted() && __builtin_expect(tag.credit_vc != 0, 0)) return_credit(tag);
        return d;
    }
    // An admitted packet dropped before egress (no route).
    void release_ingress(const switch_tag& tag)
    {
        m_acc.release_ingress(tag);
        if (__builtin_expect(tag.credit_vc != 0, 0)) return_credit(tag);
        if (m_occupancy) sample_ingress(tag.in_port, tag.pool);
    }
    // Its serialization has completed: both charges are released; a resume goes to PFC.
    void on_transmit_complete(const switch_tag& tag, const egress_charge& charge)
    {
        if (__builtin_expect(tag.credit_vc != 0, 0)) return credit_transmit_complete(tag, charge);
        const pfc_signal xon = m_acc.on_transmit_complete(tag, charge);
        if (xon.send && m_pause) m_pause->xon(tag.in_port, tag.pool);
        if (m_occupancy) {
            sample_egress(charge.out_port, charge.pool);
            sample_ingress(tag.in_port, tag.pool);
        }
    }

    const shared_buffer_layout& layout() const { return m_acc.layout(); }
    const shared_buffer_accounting& accounting() const { return m_acc; }
    size_t ports() const { return m_acc.ports(); }
    uint64_t egress_bytes(uint16_t port, uint8_t pool) const
    {
        return m_acc.egress_queue_bytes(port, pool);
    }
    uint64_t port_egress_bytes(uint16_t port) const;  // all pools (summed: not on the packet path)
    // Bytes held for egress across the switch (every port and pool).
    uint64_t held_bytes() const;

private:
    [[gnu::always_inline]] void sample_ingress(uint16_t port, uint8_t pool)
    {
        if (__builtin_expect(m_credit_return != nullptr, 0))
            return sample_ingress_credit(port, pool);
        m_occupancy->ingress(port, pool, m_acc.ingress_occupancy(port, pool),
                             m_acc.headroom(port, pool), m_acc.pool_ingress_bytes(pool));
    }
    // A switch with CBFC ports: the bytes held against credit count as the port's ingress usage
    // and the pool's.
    [[gnu::noinline, gnu::cold]] void sample_ingress_credit(uint16_t port, uint8_t pool);
    // on_transmit_complete of a packet that came with credit (only on a switch with CBFC).
    [[gnu::noinline, gnu::cold]] void credit_transmit_complete(const switch_tag& tag,
                                                               const egress_charge& charge);
    void return_credit(const switch_tag& tag)
    {
        if (m_credit_return)
            m_credit_return->freed(tag.in_port, uint8_t(tag.credit_vc - 1), tag.credits);
    }
    void sample_egress(uint16_t port, uint8_t pool)
    {
        m_occupancy->egress(port, pool, m_acc.egress_queue_bytes(port, pool));
    }

    shared_buffer_accounting m_acc;
    pause_signal* m_pause = nullptr;
    credit_return_signal* m_credit_return = nullptr;
    std::unique_ptr<buffer_occupancy> m_occupancy;
};

}  // namespace uetsim
