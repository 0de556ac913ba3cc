// UET 1.0.1 PDS NACK codes (uet_spec_facts.md, "NACK codes"): every code the spec defines, by
// its spec name, and the name the records write. docs/pdc-lifecycle.md lists which the model
// produces, from what cause, and how the NACK's receiver handles each.
#pragma once

#include <cstdint>

namespace uetsim::nack {

inline constexpr uint8_t trimmed = 0x01;
inline constexpr uint8_t trimmed_lasthop = 0x02;
inline constexpr uint8_t trimmed_ack = 0x03;
inline constexpr uint8_t no_pdc_avail = 0x04;
inline constexpr uint8_t no_ccc_avail = 0x05;
inline constexpr uint8_t no_bitmap = 0x06;
inline constexpr uint8_t no_pkt_buffer = 0x07;
inline constexpr uint8_t no_gtd_del_avail = 0x08;
inline constexpr uint8_t no_ses_msg_avail = 0x09;
inline constexpr uint8_t no_resource = 0x0A;
inline constexpr uint8_t psn_oor_window = 0x0B;
inline constexpr uint8_t first_rod_ooo = 0x0C;
inline constexpr uint8_t rod_ooo = 0x0D;
inline constexpr uint8_t inv_dpdcid = 0x0E;
inline constexpr uint8_t pdc_hdr_mismatch = 0x0F;
inline constexpr uint8_t closing = 0x10;
inline constexpr uint8_t closing_in_err = 0x11;
inline constexpr uint8_t pkt_not_rcvd = 0x12;
inline constexpr uint8_t gtd_resp_unavail = 0x13;
inline constexpr uint8_t ack_with_data = 0x14;
inline constexpr uint8_t invalid_syn = 0x15;
inline constexpr uint8_t pdc_mode_mismatch = 0x16;
inline constexpr uint8_t new_start_psn = 0x17;
inline constexpr uint8_t rcvd_ses_procg = 0x18;
inline constexpr uint8_t unexp_event = 0x19;
inline constexpr uint8_t rcvr_infer_loss = 0x1A;

// The name the records write for a code: UET_ and the spec's name ("UET_ROD_OOO").
constexpr const char* spec_name(uint8_t code)
{
    switch (code) {
        case trimmed:
            return "UET_TRIMMED";
        case trimmed_lasthop:
            return "UET_TRIMMED_LASTHOP";
        case trimmed_ack:
            return "UET_TRIMMED_ACK";
        case no_pdc_avail:
            return "UET_NO_PDC_AVAIL";
        case no_ccc_avail:
            return "UET_NO_CCC_AVAIL";
        case no_bitmap:
            return "UET_NO_BITMAP";
        case no_pkt_buffer:
            return "UET_NO_PKT_BUFFER";
        case no_gtd_del_avail:
            return "UET_NO_GTD_DEL_AVAIL";
        case no_ses_msg_avail:
            return "UET_NO_SES_MSG_AVAIL";
        case no_resource:
            return "UET_NO_RESOURCE";
        case psn_oor_window:
            return "UET_PSN_OOR_WINDOW";
        case first_rod_ooo:
            return "UET_FIRST_ROD_OOO";
        case rod_ooo:
            return "UET_ROD_OOO";
        case inv_dpdcid:
            return "UET_INV_DPDCID";
        case pdc_hdr_mismatch:
            return "UET_PDC_HDR_MISMATCH";
        case closing:
            return "UET_CLOSING";
        case closing_in_err:
            return "UET_CLOSING_IN_ERR";
        case pkt_not_rcvd:
            return "UET_PKT_NOT_RCVD";
        case gtd_resp_unavail:
            return "UET_GTD_RESP_UNAVAIL";
        case ack_with_data:
            return "UET_ACK_WITH_DATA";
        case invalid_syn:
            return "UET_INVALID_SYN";
        case pdc_mode_mismatch:
            return "UET_PDC_MODE_MISMATCH";
        case new_start_psn:
            return "UET_NEW_START_PSN";
        case rcvd_ses_procg:
            return "UET_RCVD_SES_PROCG";
        case unexp_event:
            return "UET_UNEXP_EVENT";
        case rcvr_infer_loss:
            return "UET_RCVR_INFER_LOSS";
        default:
            return "UET_UNKNOWN";
    }
}

}  // namespace uetsim::nack
