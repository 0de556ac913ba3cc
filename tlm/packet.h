// The network packet: uetsim's TLM payload on every Ethernet link.
//
// A custom protocol (packet_protocol.h) rather than tlm_generic_payload with an extension:
// a packet is not a memory-mapped access, its fields are read at every hop, and a plain struct
// avoids the generic payload's extension-array lookups and allocations (docs/architecture.md).
// Header fields are kept as values; payload bytes are not carried (the scoreboard tracks byte
// ranges), and a pcap writer serialises the headers from these fields.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "tlm/dscp.h"
#include "tlm/header_sizes.h"

namespace uetsim {

// What a frame carries; decides its header layout and size on the wire.
enum class packet_kind : uint8_t {
    raw_data,     // NIC-less Flows traffic: UET data framing, no transport behind it
    uet_data,     // PDS RUD request + SES standard header + payload
    uet_ack,      // PDS ACK_CC
    uet_nack,     // PDS NACK
    uet_probe,    // PDS control (base-RTT probe) and its ACK
    uet_control,  // PDS control: CREDIT, CREDIT_REQ (RCCC), CLOSE_CMD, CLOSE_REQ (pds.ctl_type)
    roce_data,    // BTH + payload + ICRC
    roce_ack,
    roce_cnp,
    pfc,
    cbfc_update,  // CBFC credit update: a link control frame, consumed by the link's other end
    connection,   // connection management (request, response, acknowledgment) over UDP
};

// PFC frames and CBFC credit updates: MAC control, consumed by the port they arrive at (one
// compare on the receive path).
inline bool is_link_control(packet_kind k)
{
    return uint8_t(uint8_t(k) - uint8_t(packet_kind::pfc)) <= 1;
}

const char* to_string(packet_kind k);

struct ipv4_fields
{
    uint32_t src = 0;  // host byte order
    uint32_t dst = 0;
    uint8_t dscp = 0;
    uint8_t ecn = ecn::not_ect;
    uint8_t ttl = 255;
    uint8_t protocol = wire::ip_proto_udp;
};

struct udp_fields
{
    uint16_t src_port = 0;  // the entropy value for UET
    uint16_t dst_port = wire::uet_udp_port;
};

// PDS header fields (UET 1.0 widths: PSN 32 b, PDC id 16 b, SACK bitmap 64 b).
struct pds_fields
{
    uint8_t type = 0;  // PDS type code
    bool ack_request = false;
    bool retransmit = false;
    bool syn = false;
    uint16_t spdcid = 0;
    uint16_t dpdcid = 0;
    uint32_t psn = 0;
    uint32_t cack_psn = 0;   // ACK: cumulative acknowledgement
    uint32_t ack_psn = 0;    // ACK: the PSN this ACK answers
    uint32_t sack_base = 0;  // ACK: first PSN the bitmap covers
    uint64_t sack_bitmap = 0;
    uint8_t nack_code = 0;
    bool ecn_echo = false;
    uint16_t service_time = 0;  // ACK: receiver service time, 128 ns units
    uint8_t rcv_penalty = 0;    // ACK: receiver window penalty 0..127
    bool restore_cwnd = false;  // ACK: the receiver's RestoreCWindEnable
    uint16_t ooo_count = 0;     // ACK: packets the receiver's PDC holds out of order
    uint64_t rcvd_bytes = 0;    // ACK: payload bytes the receiver has received on the PDC
    // The PDC's first PSN: the SYN information data packets carry so the receiver can create its
    // end, echoed in ACKs and NACKs so that an ACK for an earlier PDC with a reused id is told
    // apart (the 12-bit psn_offset of the UET SYN fields, widened).
    uint32_t first_psn = 0;
    bool probe = false;  // control: base-RTT probe, or (on an ACK) the probe's answer
    // RCCC (UET 1.0 receiver credit). ACK_CC cc_type 1 carries `credit` instead of the NSCC
    // cc_state; a data packet with cc_type 1 carries `credit_target` in its req_cc_state.
    uint8_t cc_type = 0;         // ACK: 0 NSCC, 1 credit; data: 1 a credit target is carried
    uint8_t ctl_type = 0;        // control: 4 CLOSE_CMD, 5 CLOSE_REQ, 7 CREDIT, 8 CREDIT_REQ
    uint32_t credit = 0;         // ACK cc_type 1, CREDIT: cumulative credit, 24 bits of pull quanta
    uint32_t credit_target = 0;  // data cc_type 1, CREDIT_REQ: cumulative target, 24 bits
};

// UET 1.0 control types (ctl_type) and ACK_CC cc_type values the model sends.
namespace pds_ctl {
inline constexpr uint8_t close_command = 4;  // CLOSE_CMD: the initiator closes the PDC
inline constexpr uint8_t close_request = 5;  // CLOSE_REQ: the target asks the initiator to
inline constexpr uint8_t credit = 7;
inline constexpr uint8_t credit_request = 8;
}  // namespace pds_ctl
namespace pds_cc {
inline constexpr uint8_t nscc = 0;
inline constexpr uint8_t credit = 1;
}  // namespace pds_cc

// UET 1.0 SES request opcodes the model sends besides its RDMA WRITEs (0: a WRITE, as before).
namespace ses_op {
inline constexpr uint8_t deferrable_send = 0x08;
inline constexpr uint8_t deferrable_rtr = 0x0C;  // the target's "ready to restart"
}  // namespace ses_op

// SES standard header fields that the model uses.
struct ses_fields
{
    uint64_t message_id = 0;
    uint64_t offset = 0;  // byte offset of the payload in its message
    uint64_t message_bytes = 0;
    bool last = false;
    uint8_t opcode = 0;  // ses_op; 0 for an RDMA WRITE
    // JobID (24 bits): the job the request belongs to (docs/jobs-and-profiles.md).
    uint32_t job_id = 0;
    // A deferrable send's packet of its restarted transfer (after the target's RTR).
    bool restart = false;
    // On an ACK: the SES response of a deferrable send the target deferred (no buffer posted).
    bool deferred = false;
};

// A connection-management message: the three-message setup of an RDMA connection (queue pair).
enum class cm_type : uint8_t { request = 1, response = 2, ack = 3 };
struct cm_fields
{
    cm_type type = cm_type::request;
    uint32_t connection = 0;  // the connection's number in the run; its QP number on both NICs
    uint32_t initiator_host = 0;
    uint32_t responder_host = 0;
};

// RoCE v2 base transport header fields (IBA opcodes in tlm/roce_opcode.h), and the
// acknowledgement extended transport header (AETH) of an ACK or NAK.
struct bth_fields
{
    uint8_t opcode = 0;
    uint32_t dest_qp = 0;
    uint32_t psn = 0;  // 24 b on the wire
    bool ack_request = false;
    bool solicited = false;     // SE: the last packet of a message (acknowledged at once)
    uint8_t aeth_syndrome = 0;  // ACK/NAK: ib::aeth_ack_* (credit count) or ib::aeth_nak_*
    uint32_t msn = 0;           // ACK/NAK: message sequence number, 24 b on the wire
};

// A PFC frame's fields: class c is named when bit c of `class_enable` is set, with its pause
// time in `quanta[c]` (512 bit times each; 0 resumes the class).
struct pfc_fields
{
    uint8_t class_enable = 0;
    uint16_t quanta[8] = {};
};

// A CBFC credit update's fields: for each VC of `vc_mask`, the credits the receiver has freed
// since link-up, modulo 2^16; or, in a credit sync (`sync`), the credits the sender has spent
// since link-up, from which the receiver counts the frames lost on the way (cbfc_unit.h).
struct cbfc_fields
{
    uint8_t vc_mask = 0;
    bool sync = false;
    uint16_t freed[8] = {};  // a sync: spent
};

struct packet
{
    packet() noexcept {}  // the members' initializers; the union's zero bth (see there)

    packet_kind kind = packet_kind::raw_data;
    bool trimmed = false;
    uint8_t hops = 0;  // switches passed (model bookkeeping; here to fill the header's padding)
    // Sideband on a CBFC link: 1 + the virtual channel whose credit the frame spent; its receiver
    // reads and clears it (0: no credit spent).
    uint8_t cbfc_vc = 0;
    uint16_t src_node = 0;  // sending host index (MAC addresses are derived from it)
    uint16_t dst_node = 0;  // destination host index
    uint32_t payload_bytes = 0;
    uint32_t wire_bytes = 0;  // Ethernet frame including FCS, no preamble or IFG

    ipv4_fields ip;
    udp_fields udp;
    pds_fields pds;
    ses_fields ses;
    // One of these by `kind`: a RoCE frame's BTH (and AETH), a connection-management message, a
    // PFC frame's classes. Sharing their bytes keeps every packet in flight 34 bytes smaller; a
    // fresh packet (reset()) reads zero in each.
    union {
        bth_fields bth{};  // value-initialized: the union's every byte is zero
        cm_fields cm;
        pfc_fields pfc;
        cbfc_fields cbfc;
    };

    // Model bookkeeping that real hardware would keep in sideband state, not on the wire.
    uint32_t flow_id = 0;  // Flows entry or connection the packet belongs to
    uint64_t id = 0;       // unique per run, for traces and captures
    uint64_t sent_ps = 0;  // when the sender finished serialising it (RTT samples)
    // A rate below the link's to serialize this frame at (a RoCE queue pair's allowed rate);
    // 0: the link's. The link reads and clears it, so later hops run at their own rate.
    double tx_rate_bps = 0;

    // The IP datagram: what switch buffers charge and NSCC counts (no Ethernet framing).
    uint32_t ip_bytes() const { return wire_bytes - wire::eth_overhead; }
    bool is_data() const
    {
        return kind == packet_kind::raw_data || kind == packet_kind::uet_data ||
               kind == packet_kind::roce_data;
    }

    // Cuts a data packet to its headers (switch trimming) and re-marks it.
    void trim(bool last_hop);

    void reset() { *this = packet{}; }
};

// Wire size of a packet of this kind carrying `payload` bytes.
uint32_t wire_size(packet_kind kind, uint32_t payload);

std::ostream& operator<<(std::ostream& os, const packet& p);

}  // namespace uetsim
