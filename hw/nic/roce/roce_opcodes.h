// InfiniBand Architecture opcodes and AETH syndromes the RoCE NIC puts in its BTH (IBA 1.4,
// table 38 and section 9.7.5.1; CNP: Annex A17): reliable connected SEND and RDMA WRITE cut into
// FIRST/MIDDLE/LAST/ONLY packets, the ACKNOWLEDGE packet (an ACK or a NAK by its syndrome), and
// the congestion notification packet.
#pragma once

#include <cstdint>

namespace uetsim::roce {

inline constexpr uint8_t rc_send_first = 0x00;
inline constexpr uint8_t rc_send_middle = 0x01;
inline constexpr uint8_t rc_send_last = 0x02;
inline constexpr uint8_t rc_send_only = 0x04;
inline constexpr uint8_t rc_rdma_write_first = 0x06;
inline constexpr uint8_t rc_rdma_write_middle = 0x07;
inline constexpr uint8_t rc_rdma_write_last = 0x08;
inline constexpr uint8_t rc_rdma_write_only = 0x0A;
inline constexpr uint8_t rc_acknowledge = 0x11;
inline constexpr uint8_t cnp = 0x81;

// AETH syndrome: bits 7..5 say ACK (000) or NAK (011); an ACK carries the credit count in bits
// 4..0 (0x1F: not used, end-to-end credits are not modelled); NAK code 0 is a PSN sequence error.
inline constexpr uint8_t aeth_ack = 0x1F;
inline constexpr uint8_t aeth_nak_psn_sequence_error = 0x60;
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
