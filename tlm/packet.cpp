#include "tlm/packet.h"

#include <ostream>

namespace uetsim {

const char* to_string(packet_kind k)
{
    switch (k) {
        case packet_kind::raw_data:
            return "raw_data";
        case packet_kind::uet_data:
            return "uet_data";
        case packet_kind::uet_ack:
            return "uet_ack";
        case packet_kind::uet_nack:
            return "uet_nack";
        case packet_kind::uet_probe:
            return "uet_probe";
        case packet_kind::uet_control:
            return "uet_control";
        case packet_kind::roce_data:
            return "roce_data";
        case packet_kind::roce_ack:
            return "roce_ack";
        case packet_kind::roce_cnp:
            return "roce_cnp";
        case packet_kind::pfc:
            return "pfc";
        case packet_kind::connection:
            return "connection";
        case packet_kind::cbfc_update:
            return "cbfc_update";
    }
    return "?";
}

uint32_t wire_size(packet_kind kind, uint32_t payload)
{
    switch (kind) {
        case packet_kind::raw_data:
        case packet_kind::uet_data:
            return payload + wire::uet_data_overhead;
        case packet_kind::uet_ack:
            return wire::uet_ack_bytes;
        case packet_kind::uet_nack:
            return wire::uet_nack_bytes;
        case packet_kind::uet_probe:
            return wire::uet_probe_bytes;
        case packet_kind::uet_control:
            return wire::uet_control_bytes;
        case packet_kind::roce_data:
            return payload + wire::roce_data_overhead;
        case packet_kind::roce_ack:
            return 126;  // RoCE NIC transport page
        case packet_kind::roce_cnp:
            return 122;
        case packet_kind::pfc:
            return wire::pfc_uet_bytes;  // a RoCE link's port sets wire::pfc_roce_bytes itself
        case packet_kind::connection:
            return wire::cm_bytes;
        case packet_kind::cbfc_update:
            return 46 + wire::eth_overhead;  // 64; the link's CbfcUpdateFrameBytes sets its own
    }
    return payload;
}

void packet::trim(bool last_hop)
{
    trimmed = true;
    payload_bytes = 0;
    wire_bytes = wire::uet_trimmed_bytes - wire::pds_request_saving(pds.type);
    ip.dscp = dscp::make(dscp::traffic_class(ip.dscp),
                         last_hop ? dscp::role::trimmed_last_hop : dscp::role::trimmed);
}

std::ostream& operator<<(std::ostream& os, const packet& p)
{
    return os << to_string(p.kind) << "#" << p.id << " " << p.src_node << "->" << p.dst_node
              << " sport=" << p.udp.src_port << " dscp=" << int(p.ip.dscp)
              << " ecn=" << int(p.ip.ecn) << " bytes=" << p.wire_bytes
              << (p.trimmed ? " trimmed" : "");
}

}  // namespace uetsim
