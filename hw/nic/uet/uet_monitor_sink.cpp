#include "hw/nic/uet/uet_monitor_sink.h"

#include "tlm/packet.h"

namespace uetsim {

bool make_monitor_row(const packet& p, uet_monitor_row::dir d, uint64_t now_ps, uint32_t fep_id,
                      uint32_t local_ip, const uet_monitor_sender* sender, double rtt_ns,
                      uet_monitor_row& r)
{
    r = uet_monitor_row{};
    r.sim_time_ps = now_ps;
    r.fep_id = fep_id;
    r.packet_uid = p.id;
    r.packet_size = p.wire_bytes;
    r.direction = d;
    r.dscp = p.ip.dscp;
    r.local_ip = local_ip;
    r.remote_ip = d == uet_monitor_row::dir::rx ? p.ip.src : p.ip.dst;
    const bool sent = d != uet_monitor_row::dir::rx;
    r.local_pdc = sent ? p.pds.spdcid : p.pds.dpdcid;
    r.remote_pdc = sent ? p.pds.dpdcid : p.pds.spdcid;
    if (sender) {
        r.has_sender_state = true;
        r.bytes_fetched = sender->bytes_fetched;
        r.bytes_in_flight = sender->bytes_in_flight;
        r.nic_prefetched_bytes = sender->nic_prefetched_bytes;
        r.pdc_prefetched_bytes = sender->pdc_prefetched_bytes;
        r.congestion_window = sender->congestion_window;
        r.job_id = sender->job_id;
    }
    switch (p.kind) {
        case packet_kind::uet_data:
            r.packet_type = uet_monitor_row::type::rud_request;
            r.has_entropy = true;
            r.entropy_value = p.udp.src_port;
            r.has_ar = true;
            r.ar = p.pds.ack_request;
            r.has_psn = true;
            r.psn = p.pds.psn;
            if (!sent) r.has_ecn_marked = true, r.ecn_marked = p.ip.ecn == ecn::ce;
            if (sent && sender)
                r.has_sender_penalty = true, r.sender_penalty = sender->latest_penalty;
            return true;
        case packet_kind::uet_ack:
            r.packet_type = uet_monitor_row::type::ack_cc;
            r.has_entropy = true;
            r.entropy_value = p.udp.src_port;
            r.has_penalty = true;
            r.penalty = p.pds.rcv_penalty;
            r.has_m_flag = true;
            r.m_flag = p.pds.ecn_echo;
            r.has_psn = true;
            r.psn = p.pds.ack_psn;
            r.has_ack = true;
            r.cack_psn = p.pds.cack_psn;
            r.sack_base_psn = p.pds.sack_base;
            for (uint32_t b = 0; b < 64; ++b)
                if ((p.pds.sack_bitmap >> b) & 1u) r.bitmap_psns.push_back(p.pds.sack_base + b);
            if (!sent) {
                r.has_ecn_marked = true;
                r.ecn_marked = p.ip.ecn == ecn::ce;
                if (rtt_ns >= 0) r.has_rtt = true, r.rtt_ns = rtt_ns;
            }
            return true;
        case packet_kind::uet_nack:
            r.packet_type = uet_monitor_row::type::nack;
            r.has_nack_code = true;
            r.nack_last_hop = p.pds.nack_code == 2;
            r.nack_code = p.pds.nack_code;
            r.has_psn = true;
            r.psn = p.pds.psn;
            r.has_m_flag = true;
            r.m_flag = p.pds.ecn_echo;
            r.has_entropy = true;
            r.entropy_value = p.pds.spdcid;  // the sender's PDC id: local on Tx, remote on Rx
            return true;
        case packet_kind::uet_probe:
            r.packet_type =
                p.pds.ack_request ? uet_monitor_row::type::ctrl : uet_monitor_row::type::ack_cc;
            r.has_psn = true;
            r.psn = p.pds.psn;
            r.has_entropy = true;
            r.entropy_value = p.pds.spdcid;  // the sender's PDC id: local on Tx, remote on Rx
            if (!sent) r.has_ecn_marked = true, r.ecn_marked = p.ip.ecn == ecn::ce;
            return true;
        default:
            return false;
    }
}

}  // namespace uetsim
