// Counters and samples of one UET NIC, read by the uet-transport-stats record.
#pragma once

#include <cstdint>

#include "hw/common/sample_stats.h"

namespace uetsim {

struct uet_transport_counters
{
    uint64_t total_pkts_sent = 0, total_pkts_rcvd = 0;
    uint64_t write_pkts_sent = 0, write_pkts_rcvd = 0;
    uint64_t ack_pkts_sent = 0, ack_pkts_rcvd = 0;
    uint64_t nack_pkts_sent = 0, nack_pkts_rcvd = 0;
    uint64_t wqes_created = 0, wqes_completed = 0;
    uint64_t num_out_of_order_events_on_nic = 0;
    uint64_t max_out_of_order_on_flow = 0;
    uint64_t num_dup_events_on_nic = 0;
    uint64_t probe_sent = 0, probe_ack_rcvd = 0;
    uint64_t num_rto = 0, num_rtx = 0, max_tx_count = 0;
    uint64_t m_marked_pkts_sent = 0, m_marked_pkts_rcvd = 0;
    uint64_t num_quick_adapt = 0;
    uint64_t rx_bytes_delivered = 0;  // payload written to host memory
    // RCCC: CREDIT and CREDIT_REQ packets each way, ACKs that brought credit (cc_type 1).
    uint64_t credit_pkts_sent = 0, credit_pkts_rcvd = 0;
    uint64_t credit_req_pkts_sent = 0, credit_req_pkts_rcvd = 0;
    uint64_t credit_acks_rcvd = 0;
    // The close handshake: CLOSE_CMD and CLOSE_REQ each way, this NIC's sender PDCs whose close
    // was acknowledged and receiving ends a CLOSE_CMD freed.
    uint64_t close_cmd_pkts_sent = 0, close_cmd_pkts_rcvd = 0;
    uint64_t close_req_pkts_sent = 0, close_req_pkts_rcvd = 0;
    uint64_t pdcs_closed = 0, rx_pdcs_closed = 0;
    // Interval maxima of the two max_* counters (reset by the record each interval).
    uint64_t ivl_max_out_of_order_on_flow = 0;
    uint64_t ivl_max_tx_count = 0;

    sample_stats rcvr_cwnd_pen;
    sample_stats cwnd_bytes;
    sample_stats avg_q_delay_usec;
    sample_stats rtt_usec;
    sample_stats bytes_in_flight;
};

}  // namespace uetsim
