// Classification: a packet's traffic class at a switch (its pool is the shared buffer's
// TrafficClassPoolMapping, shared_buffer_layout::pool_of).
#pragma once

#include <cstdint>

#include "hw/common/port_scheduler.h"
#include "tlm/packet.h"

namespace uetsim {

// One count of classes for the classifier, the egress FIFOs and the port arbiter.
inline constexpr int num_traffic_classes = port_scheduler::classes;

class traffic_classifier
{
public:
    explicit traffic_classifier(bool uet_policy) : m_uet_policy(uet_policy) {}
    bool uet_policy() const { return m_uet_policy; }

    // DSCP / 8, or under the UET policy: control -> TC2, trimmed -> TC1, everything else TC0.
    uint8_t traffic_class(const packet& p) const
    {
        if (!m_uet_policy) return dscp::traffic_class(p.ip.dscp);
        const auto r = dscp::role_of(p.ip.dscp);
        if (r == dscp::role::control) return 2;
        if (r == dscp::role::trimmed || r == dscp::role::trimmed_last_hop) return 1;
        return 0;
    }

private:
    bool m_uet_policy;
};

}  // namespace uetsim
