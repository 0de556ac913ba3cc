// The NIC's host interface, shared by every NIC type: its BAR (a doorbell register per queue
// pair and a connection-management send register) as a TLM target, a WQE queue per queue pair
// with one WQE in service at a time, DMA into host memory (payload fetch, received data,
// completion entries, received connection messages) as a TLM initiator, and the queue-pair
// table that connection setup fills. The transport behind it implements rdma_transport.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "hw/common/shared_settings.h"
#include "hw/kernel/timed_fifo.h"
#include "hw/nic/common/host_commands.h"
#include "hw/nic/common/host_dma.h"
#include "hw/nic/common/rdma_transport.h"
#include "hw/pcie/pcie_config.h"
#include "hw/pcie/pcie_tag.h"
#include "tlm/blocking_target_socket.h"

namespace uetsim {

class nic_host_interface : public sc_core::sc_module, public host_dma
{
public:
    blocking_target_socket<nic_host_interface> bar;              // MMIO writes from the host
    tlm_utils::simple_initiator_socket<nic_host_interface> dma;  // into host memory

    struct counters
    {
        uint64_t doorbells = 0;
        uint64_t wqes_completed = 0;
        uint64_t max_waiting = 0;  // most WQEs waiting behind an in-service one, any QP
        uint64_t connection_messages_sent = 0;
        uint64_t connection_messages_received = 0;
        uint64_t receive_completions = 0;  // completion entries written for received messages
        uint64_t receives_posted = 0;      // receive buffers posted for deferrable sends
    };

    // `ip_of_host` gives a host's IP address (the queue pair's peer).
    nic_host_interface(const sc_core::sc_module_name& name, uint32_t host, const pcie_config& cfg,
                       std::function<uint32_t(uint32_t)> ip_of_host);

    void attach(rdma_transport* t) { m_transport = t; }
    // The delivery mode of the WQEs posted on this NIC's queue pairs (RdmaApplication.Mode).
    void set_delivery_mode(delivery_mode m) { m_mode = m; }
    // A directed message (Flows) was acknowledged in full; it has no queue pair or completion
    // entry.
    void on_direct_complete(std::function<void(uint64_t message, double time_s)> f)
    {
        m_direct_complete = std::move(f);
    }
    // A directed message's last payload fetch was issued at `at_ps` (host_dma::message_sent).
    void on_direct_sent(std::function<void(uint64_t message, uint64_t at_ps)> f)
    {
        m_direct_sent = std::move(f);
    }

    // Write a completion entry to the host for each message the NIC has placed (a receive
    // completion). Off unless an application asks for target completions.
    void write_receive_completions(bool on) { m_receive_completions = on; }
    bool writes_receive_completions() const { return m_receive_completions; }

    // host_dma: the services to the transport.
    uint64_t fetch_payload(uint64_t at_ps, uint32_t bytes) override;
    uint64_t fetch_context(uint64_t at_ps, uint32_t bytes) override;
    uint64_t write_context(uint64_t at_ps, uint32_t bytes) override;
    uint64_t write_payload(uint32_t src_host, uint64_t message, uint64_t offset,
                           uint32_t bytes) override;
    uint64_t write_backlog_bytes(uint64_t now_ps) const override;
    double nic_to_host_bps() const override { return m_cfg.nic_to_host_bps(); }
    void message_complete(uint64_t message) override;
    void message_sent(uint64_t message, uint64_t at_ps) override
    {
        if (m_direct_sent && !is_wqe_message(message) && !is_rtr_message(message))
            m_direct_sent(message, at_ps);
    }
    void message_received(uint32_t src_host, uint64_t message, uint64_t bytes) override;
    void connection_message_received(uint32_t src_host, const cm_fields& m) override;

    const counters& stats() const { return m_counters; }
    size_t queue_pairs() const { return m_qps.size(); }

private:
    struct queue_pair
    {
        uint32_t peer_host = 0;
        bool busy = false;  // a WQE is in service
        std::deque<wqe_descriptor> waiting;
    };
    // An MMIO write, handled when it has crossed the link.
    struct bar_write
    {
        uint64_t address = 0;
        wqe_descriptor wqe;
        cm_fields cm;
        receive_post recv;
    };

    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void on_bar_write(bar_write w);
    void start(queue_pair& qp, const wqe_descriptor& d);
    void create_qp(uint32_t qp, uint32_t peer_host);
    // A DMA transaction of `bytes` at absolute time `at_ps`; returns when it completes.
    uint64_t dma_transfer(tlm::tlm_command cmd, pcie_purpose purpose, uint64_t at_ps,
                          uint32_t bytes, const unsigned char* data = nullptr);

    uint32_t m_host;
    std::shared_ptr<const pcie_config> m_shared_cfg;
    const pcie_config& m_cfg;
    std::function<uint32_t(uint32_t)> m_ip_of_host;
    rdma_transport* m_transport = nullptr;
    delivery_mode m_mode = delivery_mode::rud;
    std::function<void(uint64_t, double)> m_direct_complete;
    std::function<void(uint64_t, uint64_t)> m_direct_sent;
    std::unordered_map<uint32_t, queue_pair> m_qps;
    timed_fifo<bar_write> m_bar_writes;
    tlm::tlm_generic_payload m_txn;
    pcie_tag* m_tag;               // owned by m_txn
    uint64_t m_latency_ps;         // Pcie.Latency
    uint64_t m_write_free_ps = 0;  // when the lanes finish the received data issued so far
    bool m_receive_completions = false;
    counters m_counters;
};

}  // namespace uetsim
