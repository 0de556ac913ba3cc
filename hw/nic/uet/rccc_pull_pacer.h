// RCCC's receiving end: the pull pacer of one NIC. Each sender that asks for credit (a credit
// target in its data packets or a CREDIT_REQ) gets a context; the pacer serves the senders whose
// target is above the credit granted them in turn, one pull each, and a pull grants at most
// credits_per_pull quanta. After a pull of g quanta the next waits g x quantum x 8 / rate: the
// credit the NIC hands out never outruns its downlink (credit counts wire bytes). Credit and
// targets are cumulative counts of quanta per sender, 24 bits on the wire. Pure logic: the NIC
// sends each grant as a CREDIT packet at the time pull() is called.
#pragma once

#include <cstdint>
#include <map>

#include "hw/common/ring.h"
#include "hw/nic/uet/rccc_config.h"

namespace uetsim {

struct rccc_grant
{
    uint32_t sender = 0;    // the sending host
    uint32_t credit24 = 0;  // its cumulative credit, 24 bits of quanta
    uint32_t quanta = 0;    // granted by this pull
};

class rccc_pull_pacer
{
public:
    rccc_pull_pacer(uint32_t quantum_bytes, uint32_t credits_per_pull, double rate_bps)
        : m_quantum(quantum_bytes), m_per_pull(credits_per_pull), m_rate_bps(rate_bps)
    {
    }

    // `sender` advertised a credit target (24 bits of quanta). True when it raised the target.
    bool on_target(uint32_t sender, uint32_t target24)
    {
        context& c = m_senders[sender];
        const uint64_t t = rccc24::extend(c.target, target24);
        if (t == c.target) return false;
        c.target = t;
        if (!c.active && c.target > c.granted) {
            c.active = true;
            m_active.push_back(sender);
        }
        return true;
    }

    // A sender is waiting for a pull.
    bool has_demand() const { return !m_active.empty(); }
    // The earliest a pull may go (ps): the previous pull's time plus its grant's pacing.
    uint64_t next_pull_ps() const { return m_next_ps; }
    // The next pull at `now_ps` (a pull before next_pull_ps() is the caller's error): the sender
    // at the head of the turn gets min(credits per pull, target - granted). Nothing without demand.
    rccc_grant pull(uint64_t now_ps)
    {
        if (m_active.empty()) return {};
        const uint32_t s = m_active.front();
        m_active.pop_front();
        context& c = m_senders[s];
        const uint64_t want = c.target - c.granted;
        const uint32_t g = uint32_t(want < m_per_pull ? want : m_per_pull);
        c.granted += g;
        if (c.target > c.granted)
            m_active.push_back(s);
        else
            c.active = false;
        m_next_ps = now_ps + interval_ps(g);
        ++m_pulls;
        m_granted_quanta += g;
        return {s, uint32_t(c.granted) & rccc24::mask, g};
    }

    // The pacing after a grant of `quanta`, rounded to the picosecond.
    uint64_t interval_ps(uint32_t quanta) const
    {
        return uint64_t(double(quanta) * m_quantum * 8e12 / m_rate_bps + 0.5);
    }
    // `sender`'s cumulative credit, 24 bits (what an ACK_CC cc_type 1 carries); 0 if unknown.
    uint32_t credit24(uint32_t sender) const
    {
        auto it = m_senders.find(sender);
        return it == m_senders.end() ? 0 : uint32_t(it->second.granted) & rccc24::mask;
    }
    // `sender` is waiting for a pull.
    bool pending(uint32_t sender) const
    {
        auto it = m_senders.find(sender);
        return it != m_senders.end() && it->second.active;
    }
    uint64_t pulls() const { return m_pulls; }
    uint64_t granted_quanta() const { return m_granted_quanta; }
    uint32_t quantum_bytes() const { return m_quantum; }

private:
    struct context
    {
        uint64_t target = 0;   // cumulative quanta asked for
        uint64_t granted = 0;  // cumulative quanta granted
        bool active = false;   // in the turn
    };
    uint32_t m_quantum;
    uint32_t m_per_pull;
    double m_rate_bps;
    std::map<uint32_t, context> m_senders;  // by sending host
    ring<uint32_t> m_active;
    uint64_t m_next_ps = 0;
    uint64_t m_pulls = 0;
    uint64_t m_granted_quanta = 0;
};

}  // namespace uetsim
