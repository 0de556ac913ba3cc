// What a NIC's transport offers its host interface: the contract that the UET NIC implements
// now and the RoCE NIC will, so the host side (doorbells, WQE queues, completions) is shared.
#pragma once

#include <cstdint>

#include "tlm/delivery_mode.h"
#include "tlm/packet.h"

namespace uetsim {

// A message posted without a queue pair (a directed Flows message).
inline constexpr uint32_t k_no_queue_pair = UINT32_MAX;

class rdma_transport
{
public:
    virtual ~rdma_transport() = default;

    // Sends `bytes` to `dst_host` as one message; the transport calls the host interface's
    // message_complete(message) once every byte is acknowledged. Messages of one queue pair
    // come one at a time (the next after the previous completed) and share the transport's
    // connection state; a message with k_no_queue_pair stands alone. `mode`: its delivery mode
    // (a transport that has only RUD is given only RUD: the scenario checks refuse the others).
    virtual void post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                              uint8_t traffic_class, uint32_t queue_pair,
                              delivery_mode mode = delivery_mode::rud) = 0;
    // The host posted a work request on a queue pair (its doorbell): counted when posted, though
    // the transport sees it only when the queue pair's earlier ones are done (post_message).
    virtual void work_request_posted() = 0;
    // Sends `bytes` as a deferrable send (UET 1.0 DEFERRABLE_SEND): a target without a receive
    // buffer posted for it defers it and later asks for it again (receive_posted). Only a
    // transport that has deferrable sends is given one (the scenario's rules).
    virtual void post_deferrable_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip,
                                         uint64_t bytes, uint8_t traffic_class)
    {
        post_message(message, dst_host, dst_ip, bytes, traffic_class, k_no_queue_pair);
    }
    // The host posted the receive buffer of deferrable send `message` from `src_host`.
    virtual void receive_posted(uint32_t src_host, uint64_t message) {}
    // Sends a connection-management message (unreliable: the application retries).
    virtual void send_connection_message(uint32_t dst_host, uint32_t dst_ip,
                                         const cm_fields& m) = 0;
};

}  // namespace uetsim
