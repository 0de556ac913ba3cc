// One message (WQE) on the UET NIC's transmit side: how much of it is issued and acknowledged.
// Shared by the NIC glue, which issues and completes it, and the PDS scheduler, which asks
// whether a PDC has new data to send.
#pragma once

#include <cstdint>

#include "tlm/delivery_mode.h"

namespace uetsim {

struct uet_message
{
    uint64_t id = 0;
    uint32_t dst = 0;
    uint64_t bytes = 0;
    uint8_t traffic_class = 0;
    delivery_mode mode = delivery_mode::rud;
    uint32_t job = 0;  // JobID its requests carry
    uint64_t next_offset = 0;
    uint32_t packets = 0;
    uint32_t packets_issued = 0;
    uint64_t bytes_acked = 0;
    bool first_ack_seen = false;
    bool done = false;
    uint8_t opcode = 0;        // ses_op: 0 an RDMA WRITE, or a deferrable send or its RTR
    bool deferred = false;     // a deferrable send the target deferred
    bool rtr_arrived = false;  // the target's RTR for it arrived
    bool resumed = false;      // its restarted transfer is under way

    // A deferred message sends nothing more until its restart.
    bool has_new_data() const { return packets_issued < packets && (!deferred || resumed); }
};

}  // namespace uetsim
