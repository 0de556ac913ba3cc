// Default Packet Spraying: a strict round robin over 2^EntropyMaskBits ports from
// StartingPortOffset, one step per data packet or retransmission of the group, modulo 65,536.
// No randomness, no feedback.
#pragma once

#include "hw/nic/uet/entropy/entropy_policy.h"

namespace uetsim {

class round_robin_entropy_policy : public entropy_policy
{
public:
    // mask_bits 0..8, offset 0..65,535 (checked by the factory).
    round_robin_entropy_policy(uint32_t mask_bits, uint32_t starting_port_offset);

    uint16_t next(double now_s) override;
    void feedback(uint16_t entropy, path_feedback f, double now_s) override {}
    packet_spraying_type type() const override { return packet_spraying_type::default_spraying; }

    // Values handed out so far (the round robin's position is steps() mod 2^mask_bits).
    uint64_t steps() const { return m_step; }

private:
    uint32_t m_mask;
    uint32_t m_offset;
    uint64_t m_step = 0;
};

}  // namespace uetsim
