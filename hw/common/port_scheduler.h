// Egress arbitration of one port, shared by the switch port and the NIC port: the control slot
// first, then the traffic classes by strict priority (TC7 before TC0), skipping classes that
// PFC has paused or whose CBFC virtual channel is out of credit (stalled). Pure logic: the caller
// keeps the queues and says which of them hold frames.
#pragma once

#include <cstdint>

namespace uetsim {

class port_scheduler
{
public:
    static constexpr int classes = 8;
    static constexpr int control_slot = classes;  // pick(): serve the control queue
    static constexpr int none = -1;               // pick(): nothing may be sent now

    // `control_waiting`: the control queue holds a frame (it is never paused).
    // `waiting_classes`: bit c set when class c holds a frame.
    int pick(bool control_waiting, uint8_t waiting_classes) const
    {
        if (control_waiting) return control_slot;
        const unsigned sendable = waiting_classes & uint8_t(~m_blocked);
        if (sendable == 0) return none;
        return 31 - __builtin_clz(sendable);  // the highest class first
    }

    // PFC: a paused class is skipped until it is resumed.
    void pause(uint8_t class_mask)
    {
        m_paused |= class_mask;
        m_blocked = m_paused | m_stalled;
    }
    void resume(uint8_t class_mask)
    {
        m_paused &= uint8_t(~class_mask);
        m_blocked = m_paused | m_stalled;
    }
    uint8_t paused() const { return m_paused; }
    // CBFC: a stalled class is skipped until its virtual channel has credit again.
    void stall(uint8_t class_mask)
    {
        m_stalled |= class_mask;
        m_blocked = m_paused | m_stalled;
    }
    void unstall(uint8_t class_mask)
    {
        m_stalled &= uint8_t(~class_mask);
        m_blocked = m_paused | m_stalled;
    }
    uint8_t stalled() const { return m_stalled; }
    // Paused or stalled: what pick() skips.
    uint8_t blocked() const { return m_blocked; }

private:
    uint8_t m_paused = 0;
    uint8_t m_stalled = 0;
    uint8_t m_blocked = 0;
};

}  // namespace uetsim
