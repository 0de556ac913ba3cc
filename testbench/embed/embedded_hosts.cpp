#include "testbench/embed/embedded_hosts.h"

#include <stdexcept>
#include <string>

#include "hw/nic/common/host_commands.h"
#include "testbench/run/run_input_error.h"
#include "testbench/traffic/app/rdma_application.h"

namespace uetsim {

embedded_hosts::embedded_hosts(fabric& fab, rdma_application* app, uint32_t mss,
                               outside_call call_outside)
    : m_fab(fab), m_app(app), m_call_outside(std::move(call_outside)), m_board(mss)
{
}

embedded_host& embedded_hosts::host(uint32_t h)
{
    auto& slot = m_hosts[h];
    if (!slot) {
        const std::string& name = m_fab.topo().devices[h].name;
        slot = std::make_unique<embedded_host>((name + "_attach").c_str(), h, name,
                                               m_fab.nic_host_at(h), *this);
    }
    return *slot;
}

bool embedded_hosts::driven(uint32_t host) const
{
    const auto it = m_hosts.find(host);
    return it != m_hosts.end() && it->second->drives_mmio();
}

bool embedded_hosts::finish_binding()
{
    bool bound = false;
    for (auto& [h, e] : m_hosts) {
        bound = e->finish_binding() || bound;
        m_user_memory = m_user_memory || e->owns_memory();
        m_user_mmio = m_user_mmio || e->drives_mmio();
        if (!e->drives_mmio() || !m_app) continue;
        const placement& p = m_app->hosts();
        for (const auto* role : {&p.initiators, &p.responders})
            for (uint32_t x : *role)
                if (x == h)
                    throw run_input_error(
                        e->host_name() +
                        ": its mmio is bound to a driver of the application's, "
                        "but the RDMA application (RdmaApplication.Enabled: true) places an " +
                        (role == &p.initiators ? "Initiator" : "Responder") +
                        " on it; set RdmaApplication.Enabled: false or leave this host's mmio "
                        "unbound");
    }
    // Only then do the NICs' writes pass through here: a run without binds is unchanged.
    if (bound) m_fab.run_on_hosts(this);
    return bound;
}

void embedded_hosts::connection_sent(uint32_t host, const cm_fields& m)
{
    if (m_app && m.connection < m_app->connections())
        throw std::runtime_error(
            m_fab.topo().devices[host].name + ": connection " + std::to_string(m.connection) +
            " written to mmio is one of the RDMA application's (0.." +
            std::to_string(m_app->connections() - 1) + "); number the application's own from " +
            std::to_string(m_app->connections()));
    m_connections.insert(m.connection);
}

void embedded_hosts::doorbell(uint32_t host, const wqe_descriptor& d)
{
    m_board.posted(host, wqe_message_id(d.qp, d.wqe_id), d.bytes);
}

void embedded_hosts::call_memory(embedded_host& h, tlm::tlm_generic_payload& t,
                                 sc_core::sc_time& delay)
{
    sc_core::sc_time annotated = delay;
    const uint64_t took = m_call_outside([&] { h.memory->b_transport(t, annotated); });
    delay = annotated + sc_core::sc_time::from_value(took);
}

void embedded_hosts::host_memory_written(uint32_t host, const pcie_tag& tag,
                                         const unsigned char* data, uint32_t bytes,
                                         const sc_core::sc_time& at)
{
    const bool ours =
        is_wqe_message(tag.message) && m_connections.count(qp_of_message(tag.message));
    if (tag.purpose == pcie_purpose::data_write && ours) {
        m_board.written(tag.message, tag.offset, bytes);
        return;
    }
    if (driven(host)) {
        embedded_host& e = *m_hosts.at(host);
        // A receive completion (CompletionAt: target) is the application's, not the program's.
        if (tag.purpose == pcie_purpose::completion_write &&
            !load<completion_entry>(data).receive) {
            const completion_entry c = load<completion_entry>(data);
            const uint64_t message = wqe_message_id(c.qp, c.wqe_id);
            m_board.completed(message);
            e.completion_written({c.qp, c.wqe_id, m_board.bytes_of(message), at}, at.value());
            return;
        }
        if (tag.purpose == pcie_purpose::connection_write) {
            const cm_fields m = load<cm_fields>(data);
            connection_message out;
            out.kind = connection_message::type(uint8_t(m.type));
            out.connection = m.connection;
            out.initiator_host = m.initiator_host;
            out.responder_host = m.responder_host;
            e.connection_message_written(out, at.value());
            return;
        }
    }
    if (m_app) m_app->host_memory_written(host, tag, data, bytes, at);
}

}  // namespace uetsim
