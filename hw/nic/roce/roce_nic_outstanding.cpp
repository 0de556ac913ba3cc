// The RoCE NIC's queue pairs with a message in progress, one line each, for the report of a run
// that stalled (Simulation.StallTimeout).
#include <algorithm>
#include <cstdio>
#include <vector>

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
    for (const queue_pair* qp : busy) {
        char line[400];
        std::snprintf(line, sizeof line,
                      "host%u QP %u -> host%u: message %llu of %llu bytes, PSN %u oldest "
                      "outstanding, next PSN %u, %llu packets outstanding, %llu being fetched, "
                      "%zu messages waiting, transport timer %s, rate %.0f Mbps\n",
                      m_host, qp->qpn, qp->dst_host, (unsigned long long)qp->message,
                      (unsigned long long)qp->req.message_bytes(), qp->req.oldest_outstanding_psn(),
                      qp->req.next_psn(), (unsigned long long)qp->req.outstanding(),
                      (unsigned long long)qp->req.fetching(), qp->waiting.size(),
                      qp->timer_running ? "running" : "stopped", qp->rate.rate_bps() / 1e6);
        out += line;
    }
    return out;
}

}  // namespace uetsim
