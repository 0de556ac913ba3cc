// The RoCE NIC's queue pairs with a message in progress, one line each, for the report of a run
// that stalled (Simulation.StallTimeout).
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "hw/nic/roce/roce_nic.h"

namespace uetsim {

std::string roce_nic::outstanding_connections() const
{
    std::vector<const queue_pair*> busy;
    for (const auto& [qpn, qp] : m_qps)
        if (qp->req.busy() || !qp->waiting.empty()) busy.push_back(qp.get());
    // Hash-map order is not an order a reader can follow: by queue pair number.
    std::sort(busy.begin(), busy.end(),
              [](const queue_pair* a, const queue_pair* b) { return a->qpn < b->qpn; });
    std::string out;
    for (const queue_pair* qp : busy)
        out += fmt::format(
            "host{} QP {} -> host{}: message {} of {} bytes, PSN {} oldest outstanding, next PSN "
            "{}, "
            "{} packets outstanding, {} being fetched, {} messages waiting, transport timer {}, "
            "rate {:.0f} Mbps\n",
            m_host, qp->qpn, qp->dst_host, qp->message, qp->req.message_bytes(),
            qp->req.oldest_outstanding_psn(), qp->req.next_psn(), qp->req.outstanding(),
            qp->req.fetching(), qp->waiting.size(), qp->timer_running ? "running" : "stopped",
            qp->rate.rate_bps() / 1e6);
    return out;
}

}  // namespace uetsim
