// The scale-up fabric's timing (docs: workload-execution, Scale-up groups), as a pure event model:
// the owner calls send() when a send node starts, keeps one wake-up at next_event_ps() and calls
// run_due() from it, and gets back when each transfer was sent, received and acknowledged.
//
// A transfer is cut into packets of at most ScaleUpMaxPayloadSize data bytes, each with
// ScaleUpHeaderSize header bytes (a zero-byte transfer is one header-only packet).
//  - Sending: the sender keeps one queue per receiver, each with one packet in service at a
//    time. A packet takes (data + header) x 8 / bandwidth, times the number of receivers the
//    sender has packets queued for when it starts; so k receivers share the sender's bandwidth
//    equally, as taking packets from their queues in turn at the full rate would.
//  - Crossing: one switch hop and two cable segments within a subgroup, three hops and four
//    segments between subgroups of the group.
//  - Receiving: the receiver keeps one queue per sender, fed as packets arrive; a packet takes its
//    size at the group's bandwidth times the number of senders whose packets are queued at the
//    receiver when it starts. The transfer is received when its last packet has been taken in.
//  - The send completes when the last packet has been sent; the transfer is acknowledged one
//    round trip (twice the crossing latency) after that (the fabric has no acknowledgments).
// The packets starting at one instant see every change of that instant: the packets ending then
// are out first, and a send() only queues its transfer, its first packet starting at the next
// run_due() (next_event_ps() is then now), so the sends of one instant count one another.
// Times are integer ps, each duration rounded to the nearest ps once. O(log n) per packet.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "testbench/traffic/chakra/mapping_file.h"

namespace uetsim::chakra {

// A member of the fabric (a rank): its scale-up group (none: it never uses the fabric) and
// subgroup.
struct scale_up_member
{
    std::optional<uint32_t> group;  // ScaleUpGroupId
    uint32_t subgroup = 0;          // ScaleUpSubgroupId
};

struct scale_up_config
{
    uint64_t max_payload_bytes = 4096;  // ScaleUpMaxPayloadSize, >= 1
    uint64_t header_bytes = 24;         // ScaleUpHeaderSize
};

enum class scale_up_event_kind { sent, received, acked };

struct scale_up_event
{
    uint64_t transfer;
    scale_up_event_kind kind;
    uint64_t at_ps;
    bool operator==(const scale_up_event& o) const
    {
        return transfer == o.transfer && kind == o.kind && at_ps == o.at_ps;
    }
};

// A member's scale-up device in nd-stats: packets and bytes, headers included.
struct scale_up_counters
{
    uint64_t tx_packets = 0;
    uint64_t tx_bytes = 0;
    uint64_t rx_packets = 0;
    uint64_t rx_bytes = 0;
};

class scale_up_fabric
{
public:
    // Member i is members[i]; every group a member names is in `groups` (std::invalid_argument
    // otherwise, or when max_payload_bytes is 0).
    scale_up_fabric(std::vector<scale_up_member> members,
                    const std::vector<scale_up_group_params>& groups, scale_up_config cfg);
    // The members are the mapping's ranks.
    scale_up_fabric(const mapping& m, scale_up_config cfg);

    // True when a transfer from `src` to `dst` goes over the fabric: both are in one group.
    bool carries(uint32_t src, uint32_t dst) const;

    // Transfer `transfer` (an id of the caller's, unique among those not yet both received and
    // acknowledged) of `bytes` from `src` to `dst` starts at `now_ps`. Needs carries(src, dst).
    void send(uint64_t transfer, uint32_t src, uint32_t dst, uint64_t bytes, uint64_t now_ps);

    // When the model next has something to do (a packet starts or ends, an event is due).
    std::optional<uint64_t> next_event_ps() const;

    // Brings the model to `now_ps` and appends the events of every transfer sent, received or
    // acknowledged by then, in time order.
    void run_due(uint64_t now_ps, std::vector<scale_up_event>& out);

    const scale_up_counters& counters(uint32_t member) const { return m_counters.at(member); }
    // The bandwidth of the member's group (0 outside a group), for utilization.
    double bandwidth_gbps(uint32_t member) const;
    // The crossing latency between two members of a group, one way.
    uint64_t one_way_ps(uint32_t src, uint32_t dst) const;
    // Transfers not yet both received and acknowledged.
    size_t transfers_in_flight() const { return m_transfers.size(); }

private:
    struct group_timing
    {
        double bandwidth_gbps;
        double rate_bps;
        uint64_t hop_ps;
        uint64_t cable_ps;
    };
    struct member_info
    {
        int64_t group;  // index in m_groups, -1 outside a group
        uint32_t subgroup;
    };
    struct transfer_state
    {
        uint32_t src, dst;
        uint64_t bytes;
        uint64_t packets;
        uint64_t received = 0;  // packets taken in
        bool acked = false;
        uint64_t one_way_ps;
    };
    // A sender's queue for one receiver: transfers in send order, the first being cut.
    struct tx_queue
    {
        uint32_t src, dst;
        std::deque<uint64_t> transfers;
        uint64_t next_packet = 0;  // of the first transfer
    };
    // A receiver's queue for one sender: arrived packets, as runs of one transfer's packets.
    struct rx_run
    {
        uint64_t transfer;
        uint64_t first;
        uint64_t count;
    };
    struct rx_queue
    {
        uint32_t dst, src;
        std::deque<rx_run> runs;
        bool busy = false;  // the first packet is being taken in
        bool ready = false;
    };
    enum class step : uint8_t { packet_sent, packet_arrived, packet_taken_in, acked };
    struct pending
    {
        uint64_t at;
        uint64_t seq;
        step kind;
        void* queue;  // tx_queue or rx_queue (none for acked)
        uint64_t transfer;
        uint64_t packet;
        bool operator>(const pending& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };

    // Brings the model to `now`. Packets due to start at `now` start only with `start_now`.
    void advance(uint64_t now, bool start_now);
    void handle(const pending& p);
    void start_sending(tx_queue& q, uint64_t now);
    void start_taking_in(rx_queue& q, uint64_t now);
    void schedule(uint64_t at, step kind, void* queue, uint64_t transfer, uint64_t packet);
    uint64_t packet_bytes(const transfer_state& t, uint64_t packet) const;
    uint64_t packet_ps(uint64_t bytes, uint32_t member, uint64_t sharing) const;
    void finish_if_done(uint64_t transfer);
    const member_info& info(uint32_t member) const;

    scale_up_config m_cfg;
    std::vector<group_timing> m_groups;
    std::vector<member_info> m_members;
    std::vector<scale_up_counters> m_counters;
    std::vector<uint64_t> m_sending_to;           // per member: receivers with packets queued
    std::vector<uint64_t> m_receiving_from;       // per member: senders with packets queued
    std::unordered_map<uint64_t, tx_queue> m_tx;  // by src << 32 | dst
    std::unordered_map<uint64_t, rx_queue> m_rx;  // by dst << 32 | src
    std::unordered_map<uint64_t, transfer_state> m_transfers;
    std::priority_queue<pending, std::vector<pending>, std::greater<pending>> m_heap;
    std::vector<tx_queue*> m_ready_tx;  // queues to start a packet from, at m_now
    std::vector<rx_queue*> m_ready_rx;
    std::vector<scale_up_event> m_out;  // events not yet handed out
    uint64_t m_now = 0;
    uint64_t m_seq = 0;
};

}  // namespace uetsim::chakra
