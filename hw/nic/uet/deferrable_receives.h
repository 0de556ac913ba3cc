// The target's side of deferrable sends (UET 1.0 DEFERRABLE_SEND, the AI profiles' rendezvous):
// per (sender, message), whether the host has posted the message's receive buffer and whether
// the message's first transfer was deferred. A packet of the first transfer is placed only when
// the buffer was posted before the message's first packet arrived; otherwise every packet of
// that transfer is discarded (and acknowledged as deferred), and once the buffer is posted the
// target asks the sender to restart (DEFERRABLE_RTR). Packets of the restarted transfer are
// always placed. An entry lives from the first packet or the post until the message is placed.
// Pure logic.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace uetsim {

class deferrable_receives
{
public:
    struct entry
    {
        bool posted = false;
        bool deferred = false;
        uint32_t src_ip = 0;  // where the RTR goes
        uint8_t traffic_class = 0;
        uint32_t job = 0;  // the RTR's JobID: the message's
    };

    // A new packet of deferrable send `message` from `src` (`restart`: of its restarted
    // transfer): true to place its payload, false to discard it.
    bool on_packet(uint32_t src, uint64_t message, bool restart, uint32_t src_ip,
                   uint8_t traffic_class, uint32_t job = 0)
    {
        if (restart) return true;
        entry& e = m_entries[key(src, message)];
        if (e.posted && !e.deferred) return true;
        e.deferred = true;
        e.src_ip = src_ip;
        e.traffic_class = traffic_class;
        e.job = job;
        return false;
    }
    // Whether a packet of the first transfer of `message` is answered as deferred.
    bool deferred(uint32_t src, uint64_t message, bool restart) const
    {
        if (restart) return false;
        auto it = m_entries.find(key(src, message));
        return it != m_entries.end() && it->second.deferred;
    }
    // The host posted the buffer of `message` from `src`: true when its first transfer was
    // deferred, so an RTR is due now (`e` receives the entry).
    bool on_posted(uint32_t src, uint64_t message, entry& e)
    {
        entry& x = m_entries[key(src, message)];
        x.posted = true;
        e = x;
        return x.deferred;
    }
    // Every byte of `message` is placed: it is forgotten.
    void placed(uint32_t src, uint64_t message) { m_entries.erase(key(src, message)); }
    size_t size() const { return m_entries.size(); }

private:
    struct pair_hash
    {
        size_t operator()(const std::pair<uint32_t, uint64_t>& k) const
        {
            return std::hash<uint64_t>()(k.second * 0x9E3779B97F4A7C15ull ^ k.first);
        }
    };
    static std::pair<uint32_t, uint64_t> key(uint32_t src, uint64_t message)
    {
        return {src, message};
    }
    std::unordered_map<std::pair<uint32_t, uint64_t>, entry, pair_hash> m_entries;
};

}  // namespace uetsim
