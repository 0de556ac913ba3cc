// InfiniBand (IBA) base transport header opcodes and AETH syndromes that uetsim's RoCE v2
// packets carry: reliable connection SEND and RDMA WRITE segments, the ACKNOWLEDGE packet, and
// RoCE v2's congestion notification packet.
#pragma once

#include <cstdint>

namespace uetsim::ib {

// Reliable connection (RC) opcodes: transport 000 in the top three bits.
inline constexpr uint8_t rc_send_first = 0x00;
inline constexpr uint8_t rc_send_middle = 0x01;
inline constexpr uint8_t rc_send_last = 0x02;
inline constexpr uint8_t rc_send_only = 0x04;
inline constexpr uint8_t rc_rdma_write_first = 0x06;
inline constexpr uint8_t rc_rdma_write_middle = 0x07;
inline constexpr uint8_t rc_rdma_write_last = 0x08;
inline constexpr uint8_t rc_rdma_write_only = 0x0A;
inline constexpr uint8_t rc_acknowledge = 0x11;  // BTH + AETH
// RoCE v2 CNP (Annex A17): BTH, then 16 reserved bytes.
inline constexpr uint8_t cnp = 0x81;
inline constexpr uint32_t cnp_reserved_bytes = 16;

// AETH (4 B): syndrome (8 b), then the MSN (24 b).
inline constexpr uint32_t aeth_bytes = 4;
// ACK: syndrome 0b000CCCCC, C the credit count; 0x1F is "invalid credit count", the value a
// responder without end-to-end credits sends.
inline constexpr uint8_t aeth_ack_no_credit = 0x1F;
// NAK: 0b011 then the NAK code; code 0 is the PSN sequence error (a gap).
inline constexpr uint8_t aeth_nak_psn_sequence_error = 0x60;

}  // namespace uetsim::ib
