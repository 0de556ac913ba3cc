// Byte-exact header sizes of the packets uetsim puts on the wire (DIGEST.md §1, §5).
// No preamble or inter-frame gap is modelled, as in the reference model.
#pragma once

#include <cstdint>

namespace uetsim::wire {

inline constexpr uint32_t eth_header = 14;
inline constexpr uint32_t eth_fcs = 4;
inline constexpr uint32_t ipv4_header = 20;
inline constexpr uint32_t udp_header = 8;
inline constexpr uint32_t pds_rud_request = 16;  // RUD_CC_REQ
inline constexpr uint32_t pds_rudi = 8;          // RUDI_REQ and RUDI_RESP: prologue, rsvd, pkt_id
inline constexpr uint32_t pds_uud_request = 4;   // UUD_REQ: prologue, rsvd
inline constexpr uint32_t ses_response = 12;     // SES RSP: the response a RUDI_RESP carries
inline constexpr uint32_t pds_ack_cc = 32;       // ACK_CC with NSCC state
inline constexpr uint32_t pds_nack = 16;
inline constexpr uint32_t pds_control = 16;  // probe
inline constexpr uint32_t ses_standard = 44;
inline constexpr uint32_t roce_bth = 12;
inline constexpr uint32_t min_ip_charge = 46;  // smallest charge of a frame in a switch buffer

// Connection-management payload: type, connection, the two hosts, padded to 32 bytes.
inline constexpr uint32_t cm_payload = 32;

inline constexpr uint16_t uet_udp_port = 4793;   // IANA
inline constexpr uint16_t roce_udp_port = 4791;  // IANA
inline constexpr uint8_t ip_proto_udp = 17;

// Ethernet framing around an IP datagram.
inline constexpr uint32_t eth_overhead = eth_header + eth_fcs;
// IPv4 + UDP, the part of every UET/RoCE packet below the transport headers.
inline constexpr uint32_t ip_udp = ipv4_header + udp_header;

// UET data packet: payload + SES + PDS + UDP + IPv4 + Ethernet + FCS = payload + 106.
inline constexpr uint32_t uet_data_overhead =
    ses_standard + pds_rud_request + ip_udp + eth_overhead;
// The IP datagram of a UET data packet (NSCC's and the buffers' unit): payload + 88.
inline constexpr uint32_t uet_nominal_overhead = ses_standard + pds_rud_request + ip_udp;
inline constexpr uint32_t uet_ack_bytes = pds_ack_cc + ip_udp + eth_overhead;     // 78
inline constexpr uint32_t uet_nack_bytes = pds_nack + ip_udp + eth_overhead;      // 62
inline constexpr uint32_t uet_probe_bytes = pds_control + ip_udp + eth_overhead;  // 62
// RCCC's CREDIT and CREDIT_REQ: a PDS control header, the credit in its 4-byte payload field.
inline constexpr uint32_t uet_control_bytes = pds_control + ip_udp + eth_overhead;  // 62
inline constexpr uint32_t cm_bytes = cm_payload + ip_udp + eth_overhead;            // 78
inline constexpr uint16_t cm_udp_port = 18515;  // the out-of-band port RDMA test tools use
inline constexpr uint32_t uet_trimmed_bytes = pds_rud_request + ip_udp + eth_overhead + 0;  // 62
// RUDI_RESP: its PDS header and the SES response to the request it answers.
inline constexpr uint32_t uet_rudi_resp_bytes = pds_rudi + ses_response + ip_udp + eth_overhead;

// How much smaller a data packet's PDS request is than RUD's 16 bytes, by its PDS type: RUDI_REQ
// (4) 8 bytes less, UUD_REQ (6) 12 bytes less, every other request none.
inline constexpr uint32_t pds_request_saving(uint8_t pds_type)
{
    return pds_type == 4   ? pds_rud_request - pds_rudi
           : pds_type == 6 ? pds_rud_request - pds_uud_request
                           : 0;
}

// RoCE v2 data packet: payload + BTH + UDP + IPv4 + Ethernet + FCS = payload + 58 (the RoCE
// NIC pages model no invariant CRC).
inline constexpr uint32_t roce_data_overhead = roce_bth + ip_udp + eth_overhead;

// PFC (IEEE 802.1Qbb) MAC control frame: 01:80:C2:00:00:01, ethertype 0x8808, opcode 0x0101,
// a class-enable vector and eight pause times. Its size differs by NIC page: 46 B of data plus
// Ethernet's 18 B on UET links (UET NIC transport page), 34 B of header fields plus 46 B of data
// plus FCS on RoCE links (RoCE NIC transport page).
inline constexpr uint16_t mac_control_ethertype = 0x8808;
inline constexpr uint16_t pfc_opcode = 0x0101;
inline constexpr uint32_t pfc_header = eth_header + 2 + 2 + 8 * 2;  // 34: addresses to pause times
inline constexpr uint32_t pfc_uet_bytes = 46 + eth_overhead;        // 64
inline constexpr uint32_t pfc_roce_bytes = pfc_header + 46 + eth_fcs;  // 84
inline constexpr uint16_t pfc_default_quanta = 65535;  // switch pages; NIC QuantaValue default

// Packets a message of `bytes` takes at `mss` payload bytes each; an empty message is one packet.
inline constexpr uint64_t packets_for(uint64_t bytes, uint32_t mss)
{
    return bytes == 0 ? 1 : (bytes + mss - 1) / mss;
}

static_assert(uet_data_overhead == 106);
static_assert(uet_nominal_overhead == 88);
static_assert(uet_ack_bytes == 78);
static_assert(uet_nack_bytes == 62);
static_assert(uet_control_bytes == 62);
static_assert(uet_trimmed_bytes == 62);
static_assert(uet_rudi_resp_bytes == 66);
static_assert(uet_data_overhead - pds_request_saving(4) == 98);
static_assert(uet_data_overhead - pds_request_saving(6) == 94);
static_assert(roce_data_overhead == 58);
static_assert(pfc_header == 34);
static_assert(pfc_uet_bytes == 64);
static_assert(pfc_roce_bytes == 84);

}  // namespace uetsim::wire
