// The UET NIC's open sender PDCs with data outstanding, one line each, for the report of a run
// that stalled (Simulation.StallTimeout).
#include <cstdio>

#include "hw/nic/uet/uet_nic.h"

namespace uetsim {

std::string uet_nic::outstanding_connections() const
{
    std::string out;
    for (size_t id = pdc_table::first_id; id < m_pdcs.id_slots(); ++id) {
        const sender_pdc* p = m_pdcs.find(uint16_t(id));
        if (!p || !p->open) continue;
        const pdc_group& g = m_pdcs.group(p->group);
        const uint32_t unacked = p->st.next_psn() - p->st.oldest_unacked();
        if (unacked == 0 && !p->st.has_retransmission() && g.fetched_unacked == 0) continue;
        char line[400];
        std::snprintf(line, sizeof line,
                      "host%u PDC %u -> host%u (remote PDC %u): PSNs %u..%u unacknowledged (%u "
                      "packets), %zu waiting for retransmission, %llu bytes in flight in its "
                      "group, window %.0f bytes%s\n",
                      m_host, unsigned(p->id), p->dst, unsigned(p->remote_id),
                      p->st.oldest_unacked(), p->st.next_psn() - 1, unacked,
                      p->st.retransmissions_pending(), (unsigned long long)g.inflight,
                      g.cc ? g.cc->cwnd_bytes() : 0.0,
                      p->probe_outstanding ? ", a probe outstanding" : "");
        out += line;
    }
    return out;
}

}  // namespace uetsim
