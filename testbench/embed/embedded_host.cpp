#include "testbench/embed/embedded_host.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "hw/kernel/sim_clock.h"
#include "hw/nic/common/host_commands.h"
#include "testbench/embed/embedded_hosts.h"

namespace uetsim {

// The public layouts (include/uetsim/uetsim.h) are the NIC's own (hw/nic/common/host_commands.h,
// tlm/packet.h), byte for byte.
static_assert(sizeof(bar::wqe_descriptor) == sizeof(wqe_descriptor));
static_assert(offsetof(bar::wqe_descriptor, wqe_id) == offsetof(wqe_descriptor, wqe_id));
static_assert(offsetof(bar::wqe_descriptor, bytes) == offsetof(wqe_descriptor, bytes));
static_assert(offsetof(bar::wqe_descriptor, traffic_class) ==
              offsetof(wqe_descriptor, traffic_class));
static_assert(sizeof(connection_message) == sizeof(cm_fields));
static_assert(offsetof(connection_message, connection) == offsetof(cm_fields, connection));
static_assert(offsetof(connection_message, initiator_host) == offsetof(cm_fields, initiator_host));
static_assert(offsetof(connection_message, responder_host) == offsetof(cm_fields, responder_host));
static_assert(uint8_t(connection_message::type::request) == uint8_t(cm_type::request) &&
              uint8_t(connection_message::type::response) == uint8_t(cm_type::response) &&
              uint8_t(connection_message::type::ack) == uint8_t(cm_type::ack));
static_assert(bar::connection_register == pcie_map::cm_send_register &&
              bar::doorbell_base == pcie_map::doorbell_base &&
              bar::doorbell_stride == pcie_map::doorbell_stride);

namespace {

// The kernel's time for an event at the model's time `at_ps` (the model may run ahead).
sc_core::sc_time from_kernel_now(uint64_t at_ps)
{
    const uint64_t kernel = sc_core::sc_time_stamp().value();
    return sc_core::sc_time::from_value(at_ps > kernel ? at_ps - kernel : 0);
}

}  // namespace

embedded_host::embedded_host(const sc_core::sc_module_name& name, uint32_t index,
                             const std::string& host_name, nic_host& host, embedded_hosts& owner)
    : sc_core::sc_module(name)
    , mmio("mmio")
    , memory("memory")
    , m_index(index)
    , m_host_name(host_name)
    , m_host(host)
    , m_owner(owner)
    , m_to_pcie("to_pcie")
    , m_from_pcie("from_pcie")
    , m_replaced_driver("replaced_driver")
    , m_replaced_memory("replaced_memory")
    , m_completions_due("completions_due", [this](completion c) { landed(c); })
    , m_messages_due("messages_due", [this](received_connection_message m) { landed(m); })
{
    mmio.register_b_transport(this, &embedded_host::b_transport_mmio);
    m_from_pcie.register_b_transport(this, &embedded_host::b_transport_memory);
    m_replaced_driver.register_b_transport(this, &embedded_host::b_transport_replaced_driver);
}

bool embedded_host::finish_binding()
{
    // The application's binds so far (an initiator bound to mmio binds mmio's backward port;
    // memory bound to a target binds memory's forward port).
    m_user_mmio = mmio.get_base_port().bind_count() > 0;
    m_user_memory = memory.get_base_port().bind_count() > 0;
    m_host.take_host_side();
    if (m_user_mmio)
        m_host.mmio().out.bind(m_replaced_driver);
    else
        m_host.mmio().out.bind(mmio);
    if (m_user_memory)
        m_replaced_memory.bind(m_host.memory().port);
    else
        memory.bind(m_host.memory().port);
    m_to_pcie.bind(m_host.pcie().host_in);
    m_host.pcie().host_out.bind(m_from_pcie);
    return m_user_mmio || m_user_memory;
}

void embedded_host::b_transport_mmio(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
{
    // The application's writes say what they are for as the built-in driver's do (pcie-stats
    // counts them by purpose); an extension added here is taken off again on the way back.
    pcie_tag tag;
    const bool tagged = m_user_mmio && !t.get_extension<pcie_tag>();
    if (tagged) {
        tag.purpose = t.get_address() == pcie_map::cm_send_register ? pcie_purpose::connection_send
                                                                    : pcie_purpose::doorbell;
        t.set_extension(&tag);
    }
    // The application's own writes are the scoreboard's; the built-in driver's are its own.
    if (m_user_mmio && t.is_write()) {
        const uint64_t address = t.get_address();
        const unsigned char* data = t.get_data_ptr();
        if (address == pcie_map::cm_send_register && t.get_data_length() >= sizeof(cm_fields))
            m_owner.connection_sent(m_index, load<cm_fields>(data));
        else if (address >= pcie_map::doorbell_base &&
                 t.get_data_length() >= sizeof(wqe_descriptor)) {
            wqe_descriptor d = load<wqe_descriptor>(data);
            d.qp = pcie_map::qp_of_doorbell(address);
            m_owner.doorbell(m_index, d);
        }
    }
    m_to_pcie->b_transport(t, delay);
    if (tagged) t.clear_extension(&tag);
}

void embedded_host::b_transport_replaced_driver(tlm::tlm_generic_payload&, sc_core::sc_time&)
{
    // The RDMA application refuses to run on such a host (embedded_hosts::finish_binding).
    throw std::logic_error(
        m_host_name + ": the built-in driver wrote to a host whose mmio the application drives");
}

void embedded_host::b_transport_memory(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
{
    if (!m_user_memory) {
        memory->b_transport(t, delay);  // host memory reports what landed itself
        return;
    }
    m_owner.call_memory(*this, t, delay);
    if (t.is_write() && !t.is_response_error()) m_host.memory().report_write(t, sim_now() + delay);
}

void embedded_host::completion_written(const completion& c, uint64_t at_ps)
{
    m_completions_due.push(c, std::max(at_ps, m_completions_due.last_due_ps()));
}

void embedded_host::connection_message_written(const connection_message& m, uint64_t at_ps)
{
    m_messages_due.push({m, sc_core::SC_ZERO_TIME}, std::max(at_ps, m_messages_due.last_due_ps()));
}

void embedded_host::landed(const completion& c)
{
    completion now = c;
    now.time = sim_now();
    m_completions.push_back(now);
    if (m_on_completion) m_on_completion(now);
    m_completion_event.notify(from_kernel_now(now.time.value()));
}

void embedded_host::landed(const received_connection_message& m)
{
    received_connection_message now = m;
    now.time = sim_now();
    m_messages.push_back(now);
    m_connection_event.notify(from_kernel_now(now.time.value()));
}

bool embedded_host::next_completion(completion& c)
{
    if (m_completions.empty() || m_completions.front().time > sc_core::sc_time_stamp())
        return false;
    c = m_completions.front();
    m_completions.pop_front();
    return true;
}

bool embedded_host::next_connection_message(received_connection_message& m)
{
    if (m_messages.empty() || m_messages.front().time > sc_core::sc_time_stamp()) return false;
    m = m_messages.front();
    m_messages.pop_front();
    return true;
}

}  // namespace uetsim
