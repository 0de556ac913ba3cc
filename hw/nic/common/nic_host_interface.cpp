#include "hw/nic/common/nic_host_interface.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

namespace uetsim {

namespace {

// The bytes of a DMA transaction (a completion, a connection message, or payload whose content
// the model does not carry). Every transfer is a b_transport that returns before the next
// begins, so all host interfaces share one buffer instead of keeping 4 KB each.
std::vector<unsigned char>& dma_scratch()
{
    static std::vector<unsigned char> buffer(4096);
    return buffer;
}

}  // namespace

nic_host_interface::nic_host_interface(const sc_core::sc_module_name& name, uint32_t host,
                                       const pcie_config& cfg,
                                       std::function<uint32_t(uint32_t)> ip_of_host)
    : sc_core::sc_module(name)
    , bar("bar")
    , dma("dma")
    , m_host(host)
    , m_shared_cfg(share_settings(cfg))
    , m_cfg(*m_shared_cfg)
    , m_ip_of_host(std::move(ip_of_host))
    , m_bar_writes("bar_writes", [this](bar_write w) { on_bar_write(w); })
    , m_tag(new pcie_tag)
    , m_latency_ps(ps_from_seconds(cfg.latency_s))
{
    bar.register_b_transport(this, &nic_host_interface::b_transport);
    m_txn.set_extension(m_tag);
    m_txn.set_streaming_width(0);
    m_txn.set_byte_enable_ptr(nullptr);
}

// ---------------------------------------------------------------------------------------------
// BAR: doorbells and connection messages from the host.

void nic_host_interface::b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
{
    if (!t.is_write()) {
        t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    bar_write w;
    w.address = t.get_address();
    if (w.address == pcie_map::cm_send_register) {
        if (t.get_data_length() < sizeof(cm_fields)) {
            t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return;
        }
        w.cm = load<cm_fields>(t.get_data_ptr());
    } else if (w.address == pcie_map::receive_post_register) {
        if (t.get_data_length() < sizeof(receive_post)) {
            t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return;
        }
        w.recv = load<receive_post>(t.get_data_ptr());
    } else if (w.address >= pcie_map::doorbell_base) {
        if (t.get_data_length() < sizeof(wqe_descriptor)) {
            t.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return;
        }
        w.wqe = load<wqe_descriptor>(t.get_data_ptr());
        w.wqe.qp = pcie_map::qp_of_doorbell(w.address);
    } else {
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    // Acted on when it has crossed the link; the link is serial, so arrivals are in order.
    m_bar_writes.push(w,
                      std::max<uint64_t>(sim_now_ps() + delay.value(), m_bar_writes.last_due_ps()));
}

void nic_host_interface::on_bar_write(bar_write w)
{
    if (w.address == pcie_map::cm_send_register) {
        const cm_fields& m = w.cm;
        // The Responder's NIC creates its end of the queue pair as it sends the response.
        if (m.type == cm_type::response) create_qp(m.connection, m.initiator_host);
        const uint32_t dst = m.type == cm_type::response ? m.initiator_host : m.responder_host;
        ++m_counters.connection_messages_sent;
        m_transport->send_connection_message(dst, m_ip_of_host(dst), m);
        return;
    }
    if (w.address == pcie_map::receive_post_register) {
        ++m_counters.receives_posted;
        m_transport->receive_posted(w.recv.src_host, w.recv.message);
        return;
    }
    ++m_counters.doorbells;
    m_transport->work_request_posted();
    auto it = m_qps.find(w.wqe.qp);
    if (it == m_qps.end())
        throw std::logic_error(std::string(name()) + ": doorbell for queue pair " +
                               std::to_string(w.wqe.qp) + ", which is not set up");
    queue_pair& qp = it->second;
    if (qp.busy) {
        qp.waiting.push_back(w.wqe);
        m_counters.max_waiting = std::max<uint64_t>(m_counters.max_waiting, qp.waiting.size());
    } else {
        start(qp, w.wqe);
    }
}

void nic_host_interface::start(queue_pair& qp, const wqe_descriptor& d)
{
    qp.busy = true;
    m_transport->post_message(wqe_message_id(d.qp, d.wqe_id), qp.peer_host,
                              m_ip_of_host(qp.peer_host), d.bytes, d.traffic_class, d.qp, m_mode);
}

void nic_host_interface::create_qp(uint32_t qp, uint32_t peer_host)
{
    // A repeated setup (a retried request) finds its queue pair already there.
    auto& q = m_qps[qp];
    q.peer_host = peer_host;
}

// ---------------------------------------------------------------------------------------------
// Transport events.

void nic_host_interface::message_complete(uint64_t message)
{
    const double now_s = sim_now().to_seconds();
    if (is_rtr_message(message)) return;  // the NIC's own RTR: no host software waits for it
    if (!is_wqe_message(message)) {
        if (m_direct_complete) m_direct_complete(message, now_s);
        return;
    }
    ++m_counters.wqes_completed;
    const uint32_t qpn = qp_of_message(message);
    queue_pair& qp = m_qps.at(qpn);
    std::vector<unsigned char>& scratch = dma_scratch();
    completion_entry c;
    c.qp = qpn;
    c.wqe_id = wqe_of_message(message);
    scratch.assign(std::max<size_t>(m_cfg.completion_bytes, sizeof(c)), 0);
    store(scratch.data(), c);
    m_tag->src_host = m_host;
    m_tag->message = message;
    m_tag->offset = 0;
    dma_transfer(tlm::TLM_WRITE_COMMAND, pcie_purpose::completion_write, sim_now_ps(),
                 m_cfg.completion_bytes, scratch.data());
    // The next WQE of the queue pair goes into service at once; its completion entry is
    // already on its way.
    qp.busy = false;
    if (!qp.waiting.empty()) {
        const wqe_descriptor next = qp.waiting.front();
        qp.waiting.pop_front();
        start(qp, next);
    }
}

void nic_host_interface::message_received(uint32_t src_host, uint64_t message, uint64_t bytes)
{
    if (!m_receive_completions || is_rtr_message(message)) return;
    ++m_counters.receive_completions;
    std::vector<unsigned char>& scratch = dma_scratch();
    completion_entry c;
    if (is_wqe_message(message)) {
        c.qp = qp_of_message(message);
        c.wqe_id = wqe_of_message(message);
    }
    c.bytes = bytes;
    c.receive = 1;
    c.src_host = src_host;
    c.message = message;
    scratch.assign(std::max<size_t>(m_cfg.completion_bytes, sizeof(c)), 0);
    store(scratch.data(), c);
    m_tag->src_host = src_host;
    m_tag->message = message;
    m_tag->offset = 0;
    // Posted, right behind the message's last payload write on the same lanes: PCIe keeps
    // posted writes in order, so the entry lands after the data without waiting for it.
    dma_transfer(tlm::TLM_WRITE_COMMAND, pcie_purpose::completion_write, sim_now_ps(),
                 m_cfg.completion_bytes, scratch.data());
}

void nic_host_interface::connection_message_received(uint32_t src_host, const cm_fields& m)
{
    ++m_counters.connection_messages_received;
    // The Initiator's NIC creates its end of the queue pair when the response arrives.
    if (m.type == cm_type::response) create_qp(m.connection, m.responder_host);
    std::vector<unsigned char>& scratch = dma_scratch();
    scratch.assign(sizeof(cm_fields), 0);
    store(scratch.data(), m);
    m_tag->src_host = src_host;
    m_tag->message = 0;
    m_tag->offset = 0;
    dma_transfer(tlm::TLM_WRITE_COMMAND, pcie_purpose::connection_write, sim_now_ps(),
                 sizeof(cm_fields), scratch.data());
}

// ---------------------------------------------------------------------------------------------
// DMA

uint64_t nic_host_interface::dma_transfer(tlm::tlm_command cmd, pcie_purpose purpose,
                                          uint64_t at_ps, uint32_t bytes, const unsigned char* data)
{
    std::vector<unsigned char>& scratch = dma_scratch();
    if (scratch.size() < bytes) scratch.resize(bytes);
    const uint64_t now = sim_now_ps();
    m_tag->purpose = purpose;
    m_txn.set_command(cmd);
    m_txn.set_address(0);
    m_txn.set_data_ptr(data ? const_cast<unsigned char*>(data) : scratch.data());
    m_txn.set_data_length(bytes);
    m_txn.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = picoseconds(at_ps > now ? at_ps - now : 0);
    dma->b_transport(m_txn, delay);
    if (m_txn.is_response_error())
        throw std::runtime_error(std::string(name()) +
                                 ": DMA failed: " + m_txn.get_response_string());
    return now + delay.value();
}

uint64_t nic_host_interface::fetch_payload(uint64_t at_ps, uint32_t bytes)
{
    return dma_transfer(tlm::TLM_READ_COMMAND, pcie_purpose::payload_fetch, at_ps, bytes);
}

uint64_t nic_host_interface::fetch_context(uint64_t at_ps, uint32_t bytes)
{
    return dma_transfer(tlm::TLM_READ_COMMAND, pcie_purpose::context_fetch, at_ps, bytes);
}

uint64_t nic_host_interface::write_context(uint64_t at_ps, uint32_t bytes)
{
    return dma_transfer(tlm::TLM_WRITE_COMMAND, pcie_purpose::context_write, at_ps, bytes);
}

uint64_t nic_host_interface::write_payload(uint32_t src_host, uint64_t message, uint64_t offset,
                                           uint32_t bytes)
{
    m_tag->src_host = src_host;
    m_tag->message = message;
    m_tag->offset = offset;
    const uint64_t done =
        dma_transfer(tlm::TLM_WRITE_COMMAND, pcie_purpose::data_write, sim_now_ps(), bytes);
    m_write_free_ps = done - m_latency_ps;
    return done;
}

uint64_t nic_host_interface::write_backlog_bytes(uint64_t now_ps) const
{
    if (m_write_free_ps <= now_ps) return 0;
    return uint64_t(double(m_write_free_ps - now_ps) * nic_to_host_bps() / 8e12);
}

}  // namespace uetsim
