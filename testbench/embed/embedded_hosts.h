// The hosts an embedding application attaches to (embedded_host.h), and what the NICs write
// into their memory: the completions and connection messages of a host whose MMIO the
// application drives go to its attachment at the time they land, the payload of the WQEs it
// posts to its scoreboard (driven_wqe_board.h), everything else to the built-in software (the
// RDMA application), as before. Installed as the fabric's host software only when the
// application bound a socket, so a run without one is unchanged.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>

#include <uetsim/uetsim.h>

#include "testbench/elab/fabric.h"
#include "testbench/embed/driven_wqe_board.h"
#include "testbench/embed/embedded_host.h"
#include "testbench/traffic/host_software.h"

namespace uetsim {

class rdma_application;

class embedded_hosts : public host_software
{
public:
    // How a memory target of the application's is called (it may call wait()): runs `call`
    // and returns the kernel time it took, in ps (hw/kernel's call_outside_model).
    using outside_call = std::function<uint64_t(const std::function<void()>& call)>;

    embedded_hosts(fabric& fab, rdma_application* app, uint32_t mss, outside_call call_outside);

    // Host `h`'s attachment, created on first use (h must have a NIC).
    embedded_host& host(uint32_t h);
    bool empty() const { return m_hosts.empty(); }

    // Before the kernel starts: binds every attachment's unbound sockets to the built-in parts
    // and takes over the hosts' software if the application bound any. Throws
    // run_input_error when the application drives the MMIO of a host on which the RDMA
    // application runs. Returns whether the application bound a socket.
    bool finish_binding();
    // After finish_binding: some host's memory is a target of the application's (which may
    // call wait(), so the model must run where it may block).
    bool application_memory() const { return m_user_memory; }
    // After finish_binding: some host's mmio is driven by the application.
    bool application_drives_mmio() const { return m_user_mmio; }

    // From an attachment's mmio: what the application's driver wrote.
    void connection_sent(uint32_t host, const cm_fields& m);
    void doorbell(uint32_t host, const wqe_descriptor& d);
    // An attachment's memory target of the application's.
    void call_memory(embedded_host& h, tlm::tlm_generic_payload& t, sc_core::sc_time& delay);

    void host_memory_written(uint32_t host, const pcie_tag& tag, const unsigned char* data,
                             uint32_t bytes, const sc_core::sc_time& at) override;

    // The application's WQEs: empty when every one posted completed with its bytes landed once.
    std::string scoreboard_report() const { return m_board.report(); }
    uint64_t wqes_posted() const { return m_board.posted_count(); }
    uint64_t wqes_completed() const { return m_board.completed_count(); }

private:
    bool driven(uint32_t host) const;

    fabric& m_fab;
    rdma_application* m_app;
    outside_call m_call_outside;
    driven_wqe_board m_board;
    std::map<uint32_t, std::unique_ptr<embedded_host>> m_hosts;
    std::unordered_set<uint32_t> m_connections;  // queue pairs the application set up
    bool m_user_memory = false;                  // some memory target is the application's
    bool m_user_mmio = false;                    // some host's mmio is the application's
};

}  // namespace uetsim
