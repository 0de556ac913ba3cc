// The opcodes the RoCE transport puts in its BTH (tlm/roce_opcode.h's IBA constants): reliable
// connected SEND and RDMA WRITE cut into FIRST/MIDDLE/LAST/ONLY packets, the ACKNOWLEDGE packet
// (an ACK or a NAK by its AETH syndrome), and the congestion notification packet.
#pragma once

#include <cstdint>

#include "tlm/roce_opcode.h"

namespace uetsim::roce {

using namespace ib;  // the IBA constants of tlm/roce_opcode.h

// AETH syndrome: bits 7..5 say ACK (000) or NAK (011).
inline constexpr bool is_nak(uint8_t syndrome)
{
    return (syndrome >> 5) == 3;
}

// The verbs the model carries.
enum class verb : uint8_t { send, rdma_write };

// Where a packet sits in its message.
enum class position : uint8_t { first, middle, last, only };

inline constexpr position position_of(uint64_t index, uint64_t packets)
{
    if (packets == 1) return position::only;
    if (index == 0) return position::first;
    return index + 1 == packets ? position::last : position::middle;
}

inline constexpr uint8_t data_opcode(verb v, position p)
{
    constexpr uint8_t send[] = {rc_send_first, rc_send_middle, rc_send_last, rc_send_only};
    constexpr uint8_t write[] = {rc_rdma_write_first, rc_rdma_write_middle, rc_rdma_write_last,
                                 rc_rdma_write_only};
    return v == verb::send ? send[int(p)] : write[int(p)];
}

inline constexpr bool is_send(uint8_t opcode)
{
    return opcode <= rc_send_only;
}
inline constexpr bool is_data(uint8_t opcode)
{
    return opcode <= rc_rdma_write_only && opcode != 0x03 && opcode != 0x05;
}
// The last packet of a message (LAST or ONLY): it carries the solicited-event flag.
inline constexpr bool ends_message(uint8_t opcode)
{
    return opcode == rc_send_last || opcode == rc_send_only || opcode == rc_rdma_write_last ||
           opcode == rc_rdma_write_only;
}

static_assert(data_opcode(verb::rdma_write, position_of(0, 1)) == rc_rdma_write_only);
static_assert(data_opcode(verb::rdma_write, position_of(255, 256)) == rc_rdma_write_last);
static_assert(data_opcode(verb::send, position_of(1, 3)) == rc_send_middle);

}  // namespace uetsim::roce
