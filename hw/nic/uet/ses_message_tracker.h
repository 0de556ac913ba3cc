// The target's SES view of the messages that arrive without a PDC (RUDI and UUD): which packets
// of each message are placed, so that the message completes once when its last one is and a
// packet that comes again is not placed twice. It is message state, not PDC state: no PSN, no
// window, no ACK state. Pure logic.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace uetsim {

class ses_message_tracker
{
public:
    enum class arrival : uint8_t { placed, completes, duplicate };

    // A packet of `message` from `src` at payload `offset` of a `message_bytes` message cut at
    // `mss` bytes a packet.
    arrival on_packet(uint32_t src, uint64_t message, uint64_t offset, uint64_t message_bytes,
                      uint32_t mss)
    {
        const key k{src, message};
        if (m_done.count(k)) return arrival::duplicate;
        auto it = m_open.find(k);
        if (it == m_open.end()) {
            const uint64_t packets = message_bytes == 0 ? 1 : (message_bytes + mss - 1) / mss;
            it = m_open.emplace(k, entry{std::vector<bool>(size_t(packets), false), 0}).first;
        }
        entry& e = it->second;
        const size_t i = size_t(offset / mss);
        if (i >= e.placed.size() || e.placed[i]) return arrival::duplicate;
        e.placed[i] = true;
        if (++e.count < e.placed.size()) return arrival::placed;
        m_open.erase(it);
        m_done.insert(k);
        return arrival::completes;
    }

    // Messages begun and not complete (a UUD message that lost a packet stays here).
    size_t incomplete() const { return m_open.size(); }

private:
    struct key
    {
        uint32_t src;
        uint64_t message;
        bool operator==(const key& o) const { return src == o.src && message == o.message; }
    };
    struct key_hash
    {
        size_t operator()(const key& k) const
        {
            return std::hash<uint64_t>()(k.message * 0x9E3779B97F4A7C15ull ^ k.src);
        }
    };
    struct entry
    {
        std::vector<bool> placed;
        uint64_t count;
    };
    std::unordered_map<key, entry, key_hash> m_open;
    // Completed messages: a late copy of one of their packets (a RUDI retransmission whose
    // RUDI_RESP was lost) is answered but not placed again.
    std::unordered_set<key, key_hash> m_done;
};

}  // namespace uetsim
