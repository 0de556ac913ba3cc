// What a NIC's transport offers its host interface: the contract that the UET NIC implements
// now and the RoCE NIC will, so the host side (doorbells, WQE queues, completions) is shared.
#pragma once

#include <cstdint>

#include "tlm/packet.h"

namespace uetsim {

class rdma_transport
{
public:
    virtual ~rdma_transport() = default;

    // Sends `bytes` to `dst_host` as one message; the transport calls the host interface's
    // message_complete(message) once every byte is acknowledged.
    virtual void post_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip, uint64_t bytes,
                              uint8_t traffic_class) = 0;
    // Sends a connection-management message (unreliable: the application retries).
    virtual void send_connection_message(uint32_t dst_host, uint32_t dst_ip,
                                         const cm_fields& m) = 0;
};

}  // namespace uetsim
