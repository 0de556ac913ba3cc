#include "testbench/capture/frame_bytes.h"

#include "tlm/delivery_mode.h"
#include "tlm/roce_opcode.h"

namespace uetsim {

namespace {

void put16(std::vector<uint8_t>& o, uint16_t v)
{
    o.push_back(uint8_t(v >> 8));
    o.push_back(uint8_t(v));
}
void put24(std::vector<uint8_t>& o, uint32_t v)
{
    o.push_back(uint8_t(v >> 16));
    put16(o, uint16_t(v));
}
void put32(std::vector<uint8_t>& o, uint32_t v)
{
    put16(o, uint16_t(v >> 16));
    put16(o, uint16_t(v));
}
void put64(std::vector<uint8_t>& o, uint64_t v)
{
    put32(o, uint32_t(v >> 32));
    put32(o, uint32_t(v));
}
void pad(std::vector<uint8_t>& o, size_t upto)
{
    o.resize(std::max(o.size(), upto), 0);
}

// PDS type codes (UET 1.0): RUD request with congestion control, ACK_CC, NACK, control.
enum pds_type : uint8_t {
    pds_rud_cc_req = 0x02,
    pds_ack_cc = 0x0A,
    pds_nack = 0x0C,
    pds_control = 0x07
};
// RUDI_RESP (tlm/delivery_mode.h's pds_type::rudi_response; the enum above shadows that name).
constexpr uint8_t k_rudi_response = 5;

}  // namespace

void mac_of(uint32_t ip, uint8_t out[6])
{
    out[0] = 0x02;
    out[1] = 0x00;
    for (int i = 0; i < 4; ++i) out[2 + i] = uint8_t(ip >> (24 - 8 * i));
}

uint16_t ipv4_checksum(const uint8_t* h, size_t len)
{
    uint32_t sum = 0;
    for (size_t i = 0; i + 1 < len; i += 2) sum += (uint32_t(h[i]) << 8) | h[i + 1];
    while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
    return uint16_t(~sum);
}

void frame_headers(const packet& p, std::vector<uint8_t>& o)
{
    uint8_t mac[6];
    if (p.kind == packet_kind::pfc) {
        // IEEE 802.1Qbb PFC: a MAC control frame to the reserved multicast address, opcode
        // 0x0101, the class-enable vector and eight pause times (quanta), zero-padded to the
        // frame's size without its FCS.
        const size_t start = o.size();
        static const uint8_t pfc_dst[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
        o.insert(o.end(), pfc_dst, pfc_dst + 6);
        mac_of(p.ip.src, mac);
        o.insert(o.end(), mac, mac + 6);
        put16(o, wire::mac_control_ethertype);
        put16(o, wire::pfc_opcode);
        put16(o, p.pfc.class_enable);
        for (int t = 0; t < 8; ++t) put16(o, p.pfc.quanta[t]);
        pad(o, start + (p.wire_bytes - wire::eth_fcs));
        return;
    }
    if (p.kind == packet_kind::cbfc_update) {
        // CBFC credit update (docs/link-layer.md): a link-local frame to the same reserved
        // address as PFC, with the IEEE local experimental ethertype 0x88B5 (the UEC frame format
        // is not public), the VC mask and eight cumulative credit counts, zero-padded. A credit
        // sync sets the mask's top bit; its counts are the credits spent.
        const size_t start = o.size();
        static const uint8_t dst[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
        o.insert(o.end(), dst, dst + 6);
        mac_of(p.ip.src, mac);
        o.insert(o.end(), mac, mac + 6);
        put16(o, 0x88B5);
        put16(o, uint16_t(p.cbfc.vc_mask | (p.cbfc.sync ? 0x8000u : 0u)));
        for (int v = 0; v < 8; ++v) put16(o, p.cbfc.freed[v]);
        pad(o, start + (p.wire_bytes - wire::eth_fcs));
        return;
    }
    // Ethernet II.
    mac_of(p.ip.dst, mac);
    o.insert(o.end(), mac, mac + 6);
    mac_of(p.ip.src, mac);
    o.insert(o.end(), mac, mac + 6);
    put16(o, 0x0800);

    // IPv4: total length is the frame less Ethernet header and FCS.
    const size_t ip_at = o.size();
    const uint16_t total = uint16_t(p.wire_bytes - wire::eth_overhead);
    o.push_back(0x45);
    o.push_back(uint8_t((p.ip.dscp << 2) | (p.ip.ecn & 3)));
    put16(o, total);
    put16(o, uint16_t(p.id));
    put16(o, 0x4000);  // don't fragment
    o.push_back(p.ip.ttl);
    o.push_back(p.ip.protocol);
    put16(o, 0);
    put32(o, p.ip.src);
    put32(o, p.ip.dst);
    const uint16_t csum = ipv4_checksum(&o[ip_at], wire::ipv4_header);
    o[ip_at + 10] = uint8_t(csum >> 8);
    o[ip_at + 11] = uint8_t(csum);

    // UDP, checksum 0 (not computed, allowed over IPv4).
    put16(o, p.udp.src_port);
    put16(o, p.udp.dst_port);
    put16(o, uint16_t(total - wire::ipv4_header));
    put16(o, 0);

    // Transport headers.
    const size_t start = o.size();
    switch (p.kind) {
        case packet_kind::raw_data:
        case packet_kind::uet_data: {
            if (const uint32_t saved = wire::pds_request_saving(p.pds.type)) {
                // RUDI_REQ (8 B): type, flags (RETX), rsvd, pkt_id. UUD_REQ (4 B): type, flags,
                // rsvd. Then the SES standard request as below.
                o.push_back(p.pds.type);
                o.push_back(uint8_t(p.pds.retransmit ? 0x40 : 0));
                put16(o, 0);
                if (p.pds.type == uint8_t(delivery_mode::rudi)) put32(o, p.pds.psn);  // RUDI_REQ
                if (p.trimmed) break;
                o.push_back(p.ses.last ? 0x01 : 0x00);
                o.push_back(p.ses.opcode);
                put16(o, 0);
                put64(o, p.ses.message_id);
                put64(o, p.ses.offset);
                put64(o, p.ses.message_bytes);
                put32(o, p.ses.job_id & 0xFFFFFF);  // {index_gen:8, job_id:24}
                pad(o, start + wire::pds_rud_request - saved + wire::ses_standard);
                break;
            }
            // PDS RUD or ROD request (16 B): type (the delivery mode's: RUD_REQ 2, ROD_REQ 3;
            // raw frames are RUD), flags (AR, RETX, SYN), PSN, SPDCID, DPDCID, then the SYN
            // information (first PSN).
            // With RCCC (cc_type 1, flag 0x10) the last 4 B are UET 1.0's req_cc_state,
            // ccc_id:8 (0: one context per host pair) · credit_target:24.
            o.push_back(p.pds.type ? p.pds.type : uint8_t(pds_rud_cc_req));
            o.push_back(uint8_t((p.pds.ack_request ? 0x80 : 0) | (p.pds.retransmit ? 0x40 : 0) |
                                (p.pds.syn ? 0x20 : 0) |
                                (p.pds.cc_type == pds_cc::credit ? 0x10 : 0)));
            put16(o, 0);
            put32(o, p.pds.psn);
            put16(o, p.pds.spdcid);
            put16(o, p.pds.dpdcid);
            if (p.pds.cc_type == pds_cc::credit)
                put32(o, p.pds.credit_target & 0xFFFFFF);
            else
                put32(o, p.pds.first_psn);
            if (p.trimmed) break;  // a trimmed packet ends after its PDS header
            // SES standard request (44 B): message id, offset, message length, EOM flag, then
            // UET 1.0's {index_gen:8, job_id:24} (index_gen 0).
            o.push_back(p.ses.last ? 0x01 : 0x00);
            o.push_back(p.ses.opcode);
            put16(o, 0);
            put64(o, p.ses.message_id);
            put64(o, p.ses.offset);
            put64(o, p.ses.message_bytes);
            put32(o, p.ses.job_id & 0xFFFFFF);
            pad(o, start + wire::pds_rud_request + wire::ses_standard);
            break;
        }
        case packet_kind::uet_ack: {
            if (p.pds.type == k_rudi_response) {
                // RUDI_RESP (8 B): type, flags (ECN echo, RETX), rsvd, pkt_id; then the SES
                // response (12 B) naming the message.
                o.push_back(k_rudi_response);
                o.push_back(uint8_t((p.pds.ecn_echo ? 0x80 : 0) | (p.pds.retransmit ? 0x40 : 0)));
                put16(o, 0);
                put32(o, p.pds.psn);
                put64(o, p.ses.message_id);
                pad(o, start + wire::pds_rudi + wire::ses_response);
                break;
            }
            // PDS ACK_CC (32 B): type, flags (ECN echo, RETX), SPDCID, DPDCID, CACK PSN, ACK
            // PSN offset, SACK base and bitmap, then the last 8 B: UET 1.0's NSCC cc_state,
            // service_time:16 · restore_cwnd:1 · rcv_cwnd_pen:7 · rcvd_bytes:24 · ooo_count:16.
            // The flags byte's low 4 bits are the cc_type: 0 NSCC, 1 credit, whose cc_state is
            // credit:24 · rsvd:8 · rsvd:16 · ooo_count:16.
            o.push_back(pds_ack_cc);
            o.push_back(uint8_t((p.pds.ecn_echo ? 0x80 : 0) | (p.pds.retransmit ? 0x40 : 0) |
                                (p.pds.cc_type & 0x0F)));
            put16(o, p.pds.spdcid);
            put16(o, p.pds.dpdcid);
            put16(o, uint16_t(p.pds.ack_psn - p.pds.cack_psn));
            put32(o, p.pds.cack_psn);
            put32(o, p.pds.sack_base);
            put64(o, p.pds.sack_bitmap);
            if (p.pds.cc_type == pds_cc::credit) {
                put24(o, p.pds.credit & 0xFFFFFF);
                o.push_back(0);
                put16(o, 0);
                put16(o, p.pds.ooo_count);
                break;
            }
            put16(o, p.pds.service_time);
            o.push_back(uint8_t((p.pds.restore_cwnd ? 0x80 : 0) | (p.pds.rcv_penalty & 0x7F)));
            put24(o, uint32_t(p.pds.rcvd_bytes));  // received bytes, modulo 2^24
            put16(o, p.pds.ooo_count);
            pad(o, start + wire::pds_ack_cc);
            break;
        }
        case packet_kind::uet_nack:
        case packet_kind::uet_probe: {
            o.push_back(p.kind == packet_kind::uet_nack ? pds_nack : pds_control);
            o.push_back(p.pds.nack_code);
            put16(o, 0);
            put32(o, p.pds.psn);
            put16(o, p.pds.spdcid);
            put16(o, p.pds.dpdcid);
            pad(o, start + wire::pds_nack);
            break;
        }
        case packet_kind::uet_control: {
            // PDS control (16 B) with its ctl_type (7 CREDIT, 8 CREDIT_REQ) in the second byte;
            // the 4-byte payload field carries the credit or the credit target, 24 bits.
            o.push_back(pds_control);
            o.push_back(p.pds.ctl_type);
            put16(o, 0);
            put32(o, p.pds.psn);
            put16(o, p.pds.spdcid);
            put16(o, p.pds.dpdcid);
            put32(o, (p.pds.ctl_type == pds_ctl::credit ? p.pds.credit : p.pds.credit_target) &
                         0xFFFFFF);
            break;
        }
        case packet_kind::roce_data:
        case packet_kind::roce_ack:
        case packet_kind::roce_cnp: {
            // BTH (12 B): opcode; SE, MigReq 0, pad count 0 (payload bytes are not modelled),
            // transport version 0; the default P_Key; FECN/BECN 0 and the destination QP; the
            // AckReq bit and the PSN.
            o.push_back(p.bth.opcode);
            o.push_back(p.bth.solicited ? 0x80 : 0x00);
            put16(o, 0xFFFF);
            put32(o, p.bth.dest_qp & 0xFFFFFF);
            put32(o, (uint32_t(p.bth.ack_request) << 31) | (p.bth.psn & 0xFFFFFF));
            if (p.kind == packet_kind::roce_ack) {
                // AETH (4 B): syndrome (ACK with credit count, or NAK code), then the MSN.
                put32(o, (uint32_t(p.bth.aeth_syndrome) << 24) | (p.bth.msn & 0xFFFFFF));
            } else if (p.kind == packet_kind::roce_cnp) {
                pad(o, start + wire::roce_bth + ib::cnp_reserved_bytes);  // CNP: 16 reserved B
            }
            break;
        }
        case packet_kind::pfc:
        case packet_kind::cbfc_update:
            break;  // written above
        case packet_kind::connection:
            o.push_back(uint8_t(p.cm.type));
            o.push_back(0);
            put16(o, 0);
            put32(o, p.cm.connection);
            put32(o, p.cm.initiator_host);
            put32(o, p.cm.responder_host);
            pad(o, start + wire::cm_payload);
            break;
    }
}

}  // namespace uetsim
