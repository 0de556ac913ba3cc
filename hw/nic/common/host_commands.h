// The layouts the host software and the NIC exchange over PCIe: the WQE descriptor a doorbell
// carries and the completion queue entry the NIC writes back.
#pragma once

#include <cstdint>
#include <cstring>

namespace uetsim {

struct wqe_descriptor
{
    uint32_t qp = 0;
    uint32_t wqe_id = 0;  // the WQE's number on its queue pair, from 1
    uint64_t bytes = 0;
    uint8_t traffic_class = 0;
};

struct completion_entry
{
    uint32_t qp = 0;
    uint32_t wqe_id = 0;
    uint64_t bytes = 0;
    // A receive completion (the target NIC placed every byte of a message): the message's
    // sender and its id in the transport (a WQE's or a directed message's); qp and wqe_id
    // are the WQE's when it is one.
    uint8_t receive = 0;
    uint32_t src_host = 0;
    uint64_t message = 0;
};

// A WQE's message id in the transport: the top bit tells it from a directed (Flows) message.
inline constexpr uint64_t k_wqe_message_bit = uint64_t(1) << 63;
constexpr uint64_t wqe_message_id(uint32_t qp, uint32_t wqe_id)
{
    return k_wqe_message_bit | (uint64_t(qp) << 32) | wqe_id;
}
// A deferrable send's RTR, sent by the target as a message of its own: the bit and the deferred
// message's id. It reaches no host's software.
inline constexpr uint64_t k_rtr_message_bit = uint64_t(1) << 61;
constexpr bool is_rtr_message(uint64_t message)
{
    return (message & k_rtr_message_bit) && !(message >> 62);
}

// A receive buffer the host posts for a deferrable send (its BAR's receive-post register).
struct receive_post
{
    uint32_t src_host = 0;
    uint64_t message = 0;
};
// The receive work request's size on the host-to-NIC lanes, like a doorbell's (64 B payload).
inline constexpr uint32_t k_receive_post_bytes = 64;

constexpr bool is_wqe_message(uint64_t message)
{
    return (message & k_wqe_message_bit) != 0;
}
constexpr uint32_t qp_of_message(uint64_t message)
{
    return uint32_t((message & ~k_wqe_message_bit) >> 32);
}
constexpr uint32_t wqe_of_message(uint64_t message)
{
    return uint32_t(message);
}

// Plain byte copies: the structures travel in TLM data buffers.
template <typename T>
void store(unsigned char* buf, const T& v)
{
    std::memcpy(buf, &v, sizeof(T));
}
template <typename T>
T load(const unsigned char* buf)
{
    T v;
    std::memcpy(&v, buf, sizeof(T));
    return v;
}

}  // namespace uetsim
