// The receiving ends of the UET NIC's PDCs, found by (source host, sender PDC id). The first
// packet of a PDC to arrive opens its receiving end (SYN information: the first PSN) with a
// receiver PDC id from 32769..65535, wrapping. Senders reuse PDC ids once a message is done: a
// SYN packet with another first PSN reopens the PDC; a non-SYN packet with another first PSN
// is a late copy from the earlier PDC and is rejected. A receiving end is open while a message
// begun on it has bytes still to arrive; the table counts the open ends from each peer, since a
// PDC group lives while any PDC to or from its peer is open. Each receiving end holds a slot of
// the NIC's sack_tracker from its first packet until a reopen replaces it (the tracker's state
// must outlive a message: later messages of a kept-open PDC and late duplicates use it). Pure
// logic.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "hw/nic/uet/sack_tracker.h"

namespace uetsim {

struct receiver_pdc
{
    uint16_t id = 0;
    uint16_t sender_id = 0;        // the sender's PDC id (its SPDCID)
    uint32_t src_ip = 0;           // the sender's address (CLOSE_REQ goes there)
    bool close_requested = false;  // a CLOSE_REQ was sent for it
    uint32_t first_psn = 0;        // tells a reused sender PDC id from the earlier PDC
    uint32_t src_host = 0;
    uint32_t sack_slot = 0;       // its context in the NIC's sack_tracker
    uint64_t rcvd_bytes = 0;      // payload of the new data packets received (ACKs carry it)
    uint64_t expected_bytes = 0;  // the sizes of the messages begun (their offset-0 packet seen)
    std::vector<uint32_t> last_psns;  // uet-events: last PSNs of messages not yet all received
    // ROD: the next PSN to deliver (from the first ROD packet on), and whether the gap before
    // it was NACKed (one ROD_OOO NACK per gap: the sender goes back N once).
    uint32_t rod_next = 0;
    bool rod_started = false;
    bool rod_gap_nacked = false;
    receiver_pdc(uint16_t rid, uint32_t first, uint32_t src, uint32_t slot)
        : id(rid), first_psn(first), src_host(src), sack_slot(slot)
    {
    }
    // A message begun on it still has bytes to arrive (or a packet came before its offset 0).
    bool open() const { return rcvd_bytes != expected_bytes; }
};

// What on_data did with a packet's receiving end.
enum class rx_end {
    found,       // the open end
    opened,      // opened or reopened by this packet
    late_copy,   // a late copy from an earlier PDC with the same sender id: nullptr
    no_context,  // it needs a new end and every SACK tracker slot is in use: nullptr
    unknown,     // not a SYN and no end (closed by the close handshake): nullptr
};

class rx_pdc_table
{
public:
    static constexpr uint16_t first_id = 32769;
    static constexpr uint16_t last_id = 65535;

    // Receiving ends open and close slots of `sacks`, which outlives the table.
    explicit rx_pdc_table(sack_tracker& sacks) : m_sacks(sacks) {}
    // With the close handshake, ends are closed by CLOSE_CMD, so a data packet without SYN
    // information for an end not in the table is `unknown` (without it, it opens one).
    void closes_by_handshake() { m_handshake = true; }

    // The receiving end for a data packet, opened or reopened as its SYN information says, or
    // nullptr (`what` says why). `what` (if given) says what happened.
    receiver_pdc* on_data(uint32_t src_host, uint16_t spdcid, uint32_t first_psn, bool syn,
                          rx_end* what = nullptr);
    size_t size() const { return m_pdcs.size(); }
    // CLOSE_CMD: the end of `src_host`'s PDC `spdcid` with `first_psn` leaves the table and its
    // SACK slot is free; the end, or nullptr when there is none (a retransmitted command).
    std::unique_ptr<receiver_pdc> close(uint32_t src_host, uint16_t spdcid, uint32_t first_psn);
    // An end with no message in progress that no CLOSE_REQ has asked for yet (marked asked), or
    // nullptr: a scan, only when a new end found every slot in use.
    receiver_pdc* idle_end_to_close();

    // A new (not duplicate) data packet on `rp`: `payload` bytes at `offset` of a message of
    // `message_bytes`. True when it completed the last open receiving end from its peer.
    bool deliver(receiver_pdc& rp, uint64_t offset, uint32_t payload, uint64_t message_bytes)
    {
        const bool was_open = rp.open();
        rp.rcvd_bytes += payload;
        if (offset == 0) rp.expected_bytes += message_bytes;
        if (was_open == rp.open()) return false;
        if (rp.open()) {
            ++m_open_from[rp.src_host];
            return false;
        }
        return close_one(rp.src_host);
    }
    // Receiving ends open from `src_host` (a lookup: once per message, not per packet).
    uint32_t open_from(uint32_t src_host) const
    {
        auto it = m_open_from.find(src_host);
        return it == m_open_from.end() ? 0 : it->second;
    }

private:
    static constexpr uint64_t key(uint32_t src_host, uint16_t spdcid)
    {
        return (uint64_t(src_host) << 16) | spdcid;
    }

    // One fewer open end from `src_host`; true when none is left.
    bool close_one(uint32_t src_host)
    {
        auto it = m_open_from.find(src_host);
        if (--it->second > 0) return false;
        m_open_from.erase(it);
        return true;
    }

    sack_tracker& m_sacks;
    std::unordered_map<uint64_t, std::unique_ptr<receiver_pdc>> m_pdcs;
    std::unordered_map<uint32_t, uint32_t> m_open_from;  // src host -> open receiving ends
    uint16_t m_next_id = first_id;
    bool m_handshake = false;
};

}  // namespace uetsim
