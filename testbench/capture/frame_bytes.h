// The bytes of a frame as it would be on the wire: Ethernet, IPv4, UDP and the PDS/SES (or BTH)
// headers, built from the packet's fields (docs/packet.md gives the layouts). Payload bytes are
// not modelled, so captures are truncated after the headers (pcap's captured length).
#pragma once

#include <cstdint>
#include <vector>

#include "tlm/packet.h"

namespace uetsim {

// MAC address of a host or switch port: 02:00 (locally administered) + the 32-bit IPv4 address.
void mac_of(uint32_t ip, uint8_t out[6]);

// Appends the frame's headers (no FCS) to `out`.
void frame_headers(const packet& p, std::vector<uint8_t>& out);

// The IPv4 header checksum (RFC 791) of `len` bytes.
uint16_t ipv4_checksum(const uint8_t* hdr, size_t len);

}  // namespace uetsim
