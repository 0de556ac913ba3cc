// PacketSprayingType None: the group keeps one entropy value for its whole life, the local UDP
// port of the PDC that created it, so every packet takes one path; feedback is ignored.
#pragma once

#include "hw/nic/uet/entropy/entropy_policy.h"

namespace uetsim {

class fixed_entropy_policy : public entropy_policy
{
public:
    explicit fixed_entropy_policy(uint16_t local_udp_port) : m_value(local_udp_port) {}

    uint16_t next(double now_s) override;
    void feedback(uint16_t entropy, path_feedback f, double now_s) override {}
    packet_spraying_type type() const override { return packet_spraying_type::none; }

private:
    uint16_t m_value;
};

}  // namespace uetsim
