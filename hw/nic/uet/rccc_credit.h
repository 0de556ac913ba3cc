// RCCC's sending end: one credit account per destination (the congestion control context the
// PDCs to one destination share). Credit arrives as a cumulative count of pull quanta (24 bits
// on the wire, in CREDIT packets and ACK_CC cc_type 1); a packet may go while the balance is
// above zero and spends its wire size (the balance may end below zero by less than a packet, as
// in htsim). The account also keeps the sender's demand, the wire bytes waiting to go (new data
// and retransmissions), from which the credit target it advertises is derived. Pure logic.
#pragma once

#include <cstdint>

#include "hw/nic/uet/rccc_config.h"

namespace uetsim {

class rccc_credit
{
public:
    rccc_credit(uint64_t initial_bytes, uint32_t quantum_bytes)
        : m_quantum(quantum_bytes), m_balance(int64_t(initial_bytes))
    {
    }

    // A packet may go: any credit left.
    bool allows() const { return m_balance > 0; }
    // A packet of `wire_bytes` went (new data or a retransmission).
    void spend(uint32_t wire_bytes) { m_balance -= int64_t(wire_bytes); }
    // The receiver's cumulative credit (24 bits of quanta): the bytes it newly grants.
    uint64_t on_credit(uint32_t credit24)
    {
        const uint64_t granted = rccc24::extend(m_granted, credit24);
        const uint64_t fresh = (granted - m_granted) * m_quantum;
        m_granted = granted;
        m_balance += int64_t(fresh);
        return fresh;
    }

    void add_demand(uint64_t wire_bytes) { m_demand += wire_bytes; }
    void remove_demand(uint64_t wire_bytes)
    {
        m_demand = wire_bytes < m_demand ? m_demand - wire_bytes : 0;
    }

    // The credit target to advertise, cumulative quanta (24 bits on the wire): the credit granted
    // so far plus what the demand, at most `cap_bytes` of it, needs beyond the balance, rounded
    // up to whole quanta.
    uint64_t target(uint64_t cap_bytes) const
    {
        const int64_t need = int64_t(m_demand < cap_bytes ? m_demand : cap_bytes) - m_balance;
        return m_granted + (need > 0 ? (uint64_t(need) + m_quantum - 1) / m_quantum : 0);
    }
    // A CREDIT_REQ is due: no credit, bytes waiting, and a target above the last one advertised.
    bool needs_request(uint64_t cap_bytes) const
    {
        return !allows() && m_demand > 0 && target(cap_bytes) > m_advertised;
    }
    // `target` went out, in a data packet or a CREDIT_REQ.
    void advertised(uint64_t target)
    {
        m_advertised = target > m_advertised ? target : m_advertised;
    }

    int64_t balance_bytes() const { return m_balance; }
    uint64_t granted_quanta() const { return m_granted; }
    uint64_t demand_bytes() const { return m_demand; }
    uint64_t advertised_quanta() const { return m_advertised; }
    // Blocked with bytes waiting: the sender's credit watchdog re-asks after a timeout.
    bool starved() const { return !allows() && m_demand > 0; }

private:
    uint32_t m_quantum;
    int64_t m_balance;
    uint64_t m_granted = 0;  // cumulative quanta received
    uint64_t m_demand = 0;
    uint64_t m_advertised = 0;
};

}  // namespace uetsim
