// What a NIC's transport needs from the host side: payload fetch and write over the host's
// PCIe lanes, the write backlog (for the receiver's service time), message completion and
// received connection messages. nic_host_interface implements it over PCIe; a test replaces it
// with a recording test double (tests/support/stub_host_dma.h) to elaborate NICs without a host.
// Times are absolute, in ps.
#pragma once

#include <cstdint>

#include "tlm/packet.h"

namespace uetsim {

class host_dma
{
public:
    virtual ~host_dma() = default;

    // `bytes` of payload read from host memory from `at_ps` on; returns when they arrived.
    virtual uint64_t fetch_payload(uint64_t at_ps, uint32_t bytes) = 0;
    // A PDC context of `bytes` read from host memory from `at_ps` on (a context cache miss);
    // returns when it arrived.
    virtual uint64_t fetch_context(uint64_t at_ps, uint32_t bytes) = 0;
    // An evicted PDC context of `bytes` written back to host memory from `at_ps` on (posted:
    // nothing waits for it); returns when it is across the lanes.
    virtual uint64_t write_context(uint64_t at_ps, uint32_t bytes) = 0;
    // Received payload `offset`..+`bytes` of `message` from `src_host` written to host memory
    // now; returns when the write is across the lanes.
    virtual uint64_t write_payload(uint32_t src_host, uint64_t message, uint64_t offset,
                                   uint32_t bytes) = 0;
    // Received data issued to the host and not yet across the NIC-to-host lanes, in link bytes.
    virtual uint64_t write_backlog_bytes(uint64_t now_ps) const = 0;
    virtual double nic_to_host_bps() const = 0;
    // Every byte of `message` is acknowledged.
    virtual void message_complete(uint64_t message) = 0;
    // The NIC issued the fetch of `message`'s last payload at `at_ps` (uet-events' SEND_COMPLETE):
    // every byte is on its way, the sender's "all bytes sent". Once per message.
    virtual void message_sent(uint64_t message, uint64_t at_ps) {}
    // This NIC has issued the write of the last byte of `message` (`bytes` long) from
    // `src_host`: the message is placed. Once per message, in the order of placement.
    virtual void message_received(uint32_t src_host, uint64_t message, uint64_t bytes) {}
    virtual void connection_message_received(uint32_t src_host, const cm_fields& m) = 0;
};

}  // namespace uetsim
