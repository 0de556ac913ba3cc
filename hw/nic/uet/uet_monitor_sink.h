// Per-packet observations of the UET NIC (the uet-monitor record). The NIC fills a row
// (make_monitor_row, from the packet and its sender's state); the testbench decides whether and
// where to write it, so hw/ never depends on records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace uetsim {

struct uet_monitor_row
{
    enum class dir : uint8_t { tx, retx, rx };
    enum class type : uint8_t { rud_request, ack_cc, nack, ctrl };

    uint64_t sim_time_ps = 0;
    uint32_t fep_id = 0;  // the NIC's node id
    uint64_t job_id = 0;  // message (WQE) number, 0 where none applies
    uint64_t packet_uid = 0;
    uint32_t packet_size = 0;
    uint32_t local_ip = 0, remote_ip = 0;
    uint16_t local_pdc = 0, remote_pdc = 0;
    dir direction = dir::tx;
    type packet_type = type::rud_request;
    bool has_entropy = false;
    uint16_t entropy_value = 0;
    bool has_rtt = false;
    double rtt_ns = 0;
    bool has_nack_code = false;
    bool nack_last_hop = false;
    uint8_t nack_code = 0;  // the NACK's code (tlm/nack_codes.h)
    bool has_ar = false, ar = false;
    bool has_ecn_marked = false, ecn_marked = false;
    bool has_m_flag = false, m_flag = false;
    bool has_sender_state = false;  // bytes fetched / in flight / window
    uint64_t bytes_fetched = 0, bytes_in_flight = 0;
    uint64_t nic_prefetched_bytes = 0, pdc_prefetched_bytes = 0;  // 0 without prefetch buffer
    double congestion_window = 0;
    bool has_penalty = false;
    uint8_t penalty = 0;
    // A data packet sent: the latest receiver penalty its sender received (not a column: the
    // penalty trigger reads it).
    bool has_sender_penalty = false;
    uint8_t sender_penalty = 0;
    uint8_t dscp = 0;
    bool has_psn = false;
    uint32_t psn = 0;
    bool has_ack = false;
    uint32_t cack_psn = 0, sack_base_psn = 0;
    std::vector<uint32_t> bitmap_psns;
};

class uet_monitor_sink
{
public:
    virtual ~uet_monitor_sink() = default;
    // Takes a row; true when it fired one of the monitor's triggers (RTT or receiver penalty),
    // which selected its connection: the NIC counts them for Trace.Trigger `On: monitor`.
    virtual bool row(const uet_monitor_row& r) = 0;
};

struct packet;

// The sending PDC's group as a row shows it (bytes fetched / in flight, window, message).
struct uet_monitor_sender
{
    uint64_t bytes_fetched = 0;
    uint64_t bytes_in_flight = 0;
    double congestion_window = 0;
    uint64_t job_id = 0;
    uint8_t latest_penalty = 0;         // the receiver penalty of the group's latest ACK
    uint64_t nic_prefetched_bytes = 0;  // the prefetch buffer's occupancy (0: it is off)
    uint64_t pdc_prefetched_bytes = 0;  // of it, the sending PDC's
};

// The row for UET packet `p` seen by the NIC `fep_id` (address `local_ip`) at `now_ps` going
// `d`; `sender` is the sending PDC's state where the packet has one, `rtt_ns` (>= 0) the RTT
// sample an ACK gave. False for a packet that is not UET's (no row).
bool make_monitor_row(const packet& p, uet_monitor_row::dir d, uint64_t now_ps, uint32_t fep_id,
                      uint32_t local_ip, const uet_monitor_sender* sender, double rtt_ns,
                      uet_monitor_row& r);

}  // namespace uetsim
