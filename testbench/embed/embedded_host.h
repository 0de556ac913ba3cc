// One host's attachment points for an embedding application (include/uetsim/uetsim.h,
// docs/embedding.md): a target socket in front of the PCIe link's host side (`mmio`, the NIC's
// doorbell and WQE space) and an initiator socket behind it (`memory`, the NIC's DMA into host
// memory), with the completions and connection messages the NIC writes handed to the
// application at the time they land. Before the kernel starts, finish_binding() binds what the
// application left unbound to the built-in parts (the host CPU's MMIO port, host memory), so an
// unbound attachment changes no record.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <uetsim/uetsim.h>

#include "hw/kernel/timed_fifo.h"
#include "hw/pcie/pcie_tag.h"
#include "testbench/elab/nic_host.h"

namespace uetsim {

class embedded_hosts;

class embedded_host : public sc_core::sc_module
{
public:
    tlm_utils::simple_target_socket<embedded_host> mmio;
    tlm_utils::simple_initiator_socket<embedded_host> memory;

    embedded_host(const sc_core::sc_module_name& name, uint32_t index, const std::string& host_name,
                  nic_host& host, embedded_hosts& owner);

    uint32_t index() const { return m_index; }
    const std::string& host_name() const { return m_host_name; }

    // Before the kernel starts: the application's binds are known; what it left unbound gets
    // the built-in part. Returns whether the application bound either socket.
    bool finish_binding();
    bool drives_mmio() const { return m_user_mmio; }
    bool owns_memory() const { return m_user_memory; }

    // The NIC wrote a completion or a connection message, landing at `at_ps`.
    void completion_written(const completion& c, uint64_t at_ps);
    void connection_message_written(const connection_message& m, uint64_t at_ps);

    const sc_core::sc_event& completion_event() const { return m_completion_event; }
    const sc_core::sc_event& connection_event() const { return m_connection_event; }
    bool next_completion(completion& c);
    bool next_connection_message(received_connection_message& m);
    void on_completion(std::function<void(const completion&)> f) { m_on_completion = std::move(f); }

private:
    void b_transport_mmio(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void b_transport_memory(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void b_transport_replaced_driver(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void landed(const completion& c);
    void landed(const received_connection_message& m);

    uint32_t m_index;
    std::string m_host_name;
    nic_host& m_host;
    embedded_hosts& m_owner;
    tlm_utils::simple_initiator_socket<embedded_host> m_to_pcie;
    tlm_utils::simple_target_socket<embedded_host> m_from_pcie;
    // Where the host CPU's MMIO port goes when the application drives mmio: nowhere (left
    // unbound otherwise).
    tlm_utils::simple_target_socket_optional<embedded_host> m_replaced_driver;
    // What host memory's socket is bound to when the application's memory replaces it: nothing
    // calls through it (left unbound otherwise).
    tlm_utils::simple_initiator_socket_optional<embedded_host> m_replaced_memory;
    bool m_user_mmio = false;
    bool m_user_memory = false;
    timed_fifo<completion> m_completions_due;
    timed_fifo<received_connection_message> m_messages_due;
    std::deque<completion> m_completions;
    std::deque<received_connection_message> m_messages;
    sc_core::sc_event m_completion_event;
    sc_core::sc_event m_connection_event;
    std::function<void(const completion&)> m_on_completion;
};

}  // namespace uetsim
