// A host side for NIC tests without PCIe or host memory: payload fetches take a fixed time,
// received payload is recorded per (source host, message) so a test can check that every byte
// landed exactly once, and completions and connection messages are recorded with their time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include <systemc>

#include "hw/nic/common/host_dma.h"

namespace uetsim::test {

class stub_host_dma : public host_dma
{
public:
    struct write
    {
        uint64_t offset;
        uint32_t bytes;
    };

    uint64_t fetch_latency_ps = 0;  // host memory read, request to completion
    uint64_t backlog_bytes = 0;     // what write_backlog_bytes reports
    double to_host_bps = 400e9;
    uint64_t write_latency_ps = 0;  // a write of received payload is done this long after it
    std::function<void(uint64_t)> on_complete;  // after a completion is recorded: the next post

    uint64_t fetch_payload(uint64_t at_ps, uint32_t bytes) override
    {
        fetched_bytes += bytes;
        return at_ps + fetch_latency_ps;
    }
    uint64_t fetch_context(uint64_t at_ps, uint32_t bytes) override
    {
        context_bytes_read += bytes;
        return at_ps + fetch_latency_ps;
    }
    uint64_t write_context(uint64_t at_ps, uint32_t bytes) override
    {
        context_bytes_written += bytes;
        return at_ps;
    }
    uint64_t write_payload(uint32_t src_host, uint64_t message, uint64_t offset,
                           uint32_t bytes) override
    {
        writes[{src_host, message}].push_back({offset, bytes});
        return sc_core::sc_time_stamp().value() + write_latency_ps;  // no lanes
    }
    uint64_t write_backlog_bytes(uint64_t) const override { return backlog_bytes; }
    double nic_to_host_bps() const override { return to_host_bps; }
    void message_complete(uint64_t message) override
    {
        completed[message].push_back(sc_core::sc_time_stamp().value());
        if (on_complete) on_complete(message);
    }
    void message_received(uint32_t src_host, uint64_t message, uint64_t) override
    {
        received[{src_host, message}].push_back(sc_core::sc_time_stamp().value());
    }
    void connection_message_received(uint32_t src_host, const cm_fields& m) override
    {
        connection_messages.push_back({src_host, m});
    }

    // True when the writes of `message` from `src_host` cover 0..bytes exactly once.
    bool written_once(uint32_t src_host, uint64_t message, uint64_t bytes) const
    {
        auto it = writes.find({src_host, message});
        if (it == writes.end()) return bytes == 0;
        std::vector<write> w = it->second;
        std::sort(w.begin(), w.end(),
                  [](const write& a, const write& b) { return a.offset < b.offset; });
        uint64_t next = 0;
        for (const write& x : w) {
            if (x.offset != next) return false;  // a gap or an overlap (a byte written twice)
            next += x.bytes;
        }
        return next == bytes;
    }

    uint64_t fetched_bytes = 0;
    uint64_t context_bytes_read = 0, context_bytes_written = 0;
    std::map<std::pair<uint32_t, uint64_t>, std::vector<write>> writes;
    std::map<uint64_t, std::vector<uint64_t>> completed;  // message -> completion times (ps)
    // (source host, message) -> when the receiving NIC found it placed in full (ps).
    std::map<std::pair<uint32_t, uint64_t>, std::vector<uint64_t>> received;
    std::vector<std::pair<uint32_t, cm_fields>> connection_messages;
};

}  // namespace uetsim::test
