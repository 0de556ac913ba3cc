// Counters and samples of one RoCE NIC, read by the roce-transport-stats record (the transport
// page's columns; each is cumulative, the record derives the ivl_ columns).
#pragma once

#include <cstdint>

#include "hw/common/sample_stats.h"

namespace uetsim {

struct roce_transport_counters
{
    uint64_t pkts_sent = 0;           // num_pkts_sent: every transport packet
    uint64_t verb_pkts_sent = 0;      // data packets
    uint64_t non_verb_pkts_sent = 0;  // ACKs, NAKs, CNPs, connection packets
    uint64_t conn_pkts_sent = 0, conn_pkts_recvd = 0;
    uint64_t rdma_write_cnt = 0;  // WRITE data packets sent, retransmissions included
    uint64_t rdma_send_cnt = 0;   // SEND data packets sent, retransmissions included
    uint64_t acks_sent = 0, acks_recvd = 0;
    uint64_t nacks_sent = 0, nacks_recvd = 0;
    uint64_t writes_recvd = 0, sends_recvd = 0;  // data packets received
    uint64_t cnp_sent = 0, cnp_recvd = 0;
    uint64_t seq_out_of_order = 0;  // gaps detected (one per NAK sent)
    uint64_t duplicate = 0;
    uint64_t wqe_created = 0, wqe_completed = 0;
    uint64_t rtx = 0;  // retransmission episodes (NAKs received + timer expiries)
    uint64_t rto = 0;  // timer expiries
    sample_stats calc_rtt_usec;
    uint64_t rx_drops_no_qp_data = 0, rx_drops_no_qp_ctrl = 0;
    uint64_t rx_drops_after_nak = 0, rx_drops_ghost_ack = 0;
    uint64_t tx_payload_discards = 0;
    uint64_t rx_bytes_delivered = 0;  // payload written to host memory

    uint64_t rx_drops() const
    {
        return rx_drops_no_qp_data + rx_drops_no_qp_ctrl + rx_drops_after_nak + rx_drops_ghost_ack;
    }
};

// nd-stats `rx_drops` of a RoCE NIC's port (the output-files page): the drops of its receive
// pools (`pool_drops`, the port's own count) + num_rx_drops_no_qp_data + num_rx_drops_after_nak.
// Control packets without a queue pair, ghost ACKs and payload discards are not in it.
inline uint64_t roce_nd_rx_drops(uint64_t pool_drops, const roce_transport_counters& c)
{
    return pool_drops + c.rx_drops_no_qp_data + c.rx_drops_after_nak;
}

}  // namespace uetsim
