// The receiving ends of the UET NIC's PDCs, found by (source host, sender PDC id). The first
// packet of a PDC to arrive opens its receiving end (SYN information: the first PSN) with a
// receiver PDC id from 32769..65535, wrapping. Senders reuse PDC ids once a message is done: a
// SYN packet with another first PSN reopens the PDC; a non-SYN packet with another first PSN
// is a late copy from the earlier PDC and is rejected. Pure logic.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "hw/nic/uet/pdc_receiver.h"

namespace uetsim {

struct receiver_pdc
{
    uint16_t id = 0;
    uint32_t first_psn = 0;  // tells a reused sender PDC id from the earlier PDC
    pdc_receiver st;
    std::vector<uint32_t> last_psns;  // uet-events: last PSNs of messages not yet all received
    receiver_pdc(uint16_t rid, uint32_t first) : id(rid), first_psn(first), st(first) {}
};

class rx_pdc_table
{
public:
    static constexpr uint16_t first_id = 32769;
    static constexpr uint16_t last_id = 65535;

    // The receiving end for a data packet, opened or reopened as its SYN information says, or
    // nullptr for a late copy from an earlier PDC with the same sender id. `opened` (if given)
    // says whether this packet opened or reopened it.
    receiver_pdc* on_data(uint32_t src_host, uint16_t spdcid, uint32_t first_psn, bool syn,
                          bool* opened = nullptr);
    size_t size() const { return m_pdcs.size(); }

private:
    static constexpr uint64_t key(uint32_t src_host, uint16_t spdcid)
    {
        return (uint64_t(src_host) << 16) | spdcid;
    }

    std::unordered_map<uint64_t, std::unique_ptr<receiver_pdc>> m_pdcs;
    uint16_t m_next_id = first_id;
};

}  // namespace uetsim
