// The UET NIC's prefetch buffer (ScalaUETPdsManager PrefetchBufferEnable, PrefetchBufferSize; the
// transport page's "Prefetch buffer"): one store shared by every PDC of the NIC. A new data
// packet's wire size (payload + 106 B) is reserved in it when its payload fetch is issued; the
// payload waits there, in its PDC's PSN order, until the group's window and the egress pool let it
// go on the wire, and its space is released at that commit. A fetch that does not fit waits, and
// the transmit process starts again once the buffer has drained to half its size or less.
// Pure accounting: the NIC module wraps it (uet_nic), the PDS scheduler reads it.
#pragma once

#include <cstdint>
#include <string>

#include "hw/common/ring.h"

namespace uetsim {

// One PDC's packets in the prefetch buffer, in PSN order: fetch issued, not yet committed. The
// payloads arrive in that order (completions return in the order the reads were sent), so the
// first `arrived` of them are in the buffer and the rest are still crossing PCIe.
class pdc_prefetch
{
public:
    struct entry
    {
        uint32_t psn = 0;
        uint32_t wire_bytes = 0;
    };

    bool empty() const { return m_q.empty(); }
    size_t size() const { return m_q.size(); }
    uint32_t arrived() const { return m_arrived; }
    // A payload is in the buffer and may be committed (the oldest).
    bool ready() const { return m_arrived > 0; }
    const entry& oldest() const { return m_q.front(); }
    // Wire bytes this PDC holds reserved (uet-monitor's PDC_prefetched_bytes).
    uint64_t bytes() const { return m_bytes; }

private:
    friend class prefetch_buffer;
    ring<entry> m_q;
    uint32_t m_arrived = 0;
    uint64_t m_bytes = 0;
};

class prefetch_buffer
{
public:
    // PrefetchBufferSize's smallest value (a smaller one is refused when written, the buffer on
    // or off): one full data packet at the default RdmaDataMSS, 4,096 + 106 B.
    static constexpr uint64_t min_size_bytes = 4202;
    // A data packet's wire size beyond its payload (the transport page's headers).
    static constexpr uint32_t data_overhead_bytes = 106;

    explicit prefetch_buffer(uint64_t size_bytes) : m_size(size_bytes) {}

    uint64_t size() const { return m_size; }
    uint64_t occupancy() const { return m_occupancy; }
    uint64_t max_occupancy() const { return m_max_occupancy; }
    bool fits(uint32_t wire_bytes) const { return m_occupancy + wire_bytes <= m_size; }
    // A fetch found no room: the transmit process waits for the buffer to drain to half.
    void block() { m_blocked = true; }
    bool blocked() const { return m_blocked; }

    // The fetch of packet `psn` of `q` is issued: its wire size reserved (fits() was true).
    void issue(pdc_prefetch& q, uint32_t psn, uint32_t wire_bytes);
    // The oldest payload of `q` still crossing PCIe has arrived.
    void arrive(pdc_prefetch& q);
    // The oldest arrived payload of `q` goes to the wire: its space is released. `restart` is
    // set when a blocked transmit process starts again now (the buffer at half or less).
    pdc_prefetch::entry commit(pdc_prefetch& q, bool& restart);

    uint64_t fetches_issued() const { return m_issued; }
    uint64_t commits() const { return m_commits; }

    // Full data packets of payload `mss` the buffer holds: size / (mss + 106), rounded down.
    static uint64_t full_packets(uint64_t size_bytes, uint32_t mss)
    {
        return size_bytes / (uint64_t(mss) + data_overhead_bytes);
    }

private:
    uint64_t m_size;
    uint64_t m_occupancy = 0;
    uint64_t m_max_occupancy = 0;
    uint64_t m_issued = 0, m_commits = 0;
    bool m_blocked = false;
};

// The configuration rule that stops a run (the configuration page): with the buffer on, it must
// hold one data packet on the wire, RdmaDataMSS + 106 B. "" when valid, else a message naming
// the keys (`prefix` + PrefetchBufferSize, PrefetchBufferEnable, RdmaDataMSS), the values and
// what is allowed.
std::string prefetch_buffer_error(bool enable, uint64_t size_bytes, uint32_t rdma_data_mss,
                                  const std::string& prefix);

}  // namespace uetsim
