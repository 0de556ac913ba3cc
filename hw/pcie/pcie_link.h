// A host's PCIe link as a TLM-2.0 interconnect of generic-payload transactions, loosely timed:
// each direction is a serial resource (pcie_lanes) and a transaction returns, in its delay
// argument, when it has crossed. No target waits, so the link can be called from methods.
//
//   host (initiator) --host_in--> [host-to-NIC lanes] --nic_out--> NIC BAR (doorbells)
//   NIC  (initiator) --nic_in-->  [NIC-to-host lanes] --host_out--> host memory (DMA)
//
// A DMA read sends its request on the NIC-to-host lanes and its completions with data on the
// host-to-NIC lanes. Data moves in transfers of at most MaxPayloadSize bytes, each with a fixed
// overhead; every transfer also takes the configured one-way latency.
#pragma once

#include <array>
#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "hw/kernel/sim_clock.h"
#include "hw/pcie/pcie_config.h"
#include "hw/common/state_probe.h"
#include "hw/pcie/pcie_lanes.h"
#include "hw/pcie/pcie_tag.h"

namespace uetsim {

class pcie_link : public sc_core::sc_module
{
public:
    tlm_utils::simple_target_socket<pcie_link> host_in;
    tlm_utils::simple_initiator_socket<pcie_link> nic_out;
    tlm_utils::simple_target_socket<pcie_link> nic_in;
    tlm_utils::simple_initiator_socket<pcie_link> host_out;

    enum side { nic_side = 0, host_side = 1 };  // the end that transmits

    // What one end has put on the link, cumulative.
    struct side_stats
    {
        uint64_t transfers = 0;                                // TLPs
        uint64_t link_bytes = 0;                               // payload plus per-transfer overhead
        uint64_t payload_bytes = 0;                            // data (and request) bytes
        std::array<uint64_t, k_pcie_purposes> transactions{};  // by purpose
        uint64_t busy_ps = 0;                                  // time the lanes were transmitting
    };

    pcie_link(const sc_core::sc_module_name& name, const pcie_config& cfg);

    const side_stats& stats(side s) const { return m_stats[s]; }
    double rate_bps(side s) const { return m_lanes[s].rate_bps(); }
    // Side `s`'s busy time counted in stats() but still ahead at the current time (transactions
    // are counted when issued; their bytes cross later).
    uint64_t queued_ps(side s) const { return m_lanes[s].queued_ps(sim_now_ps()); }
    const pcie_config& config() const { return m_cfg; }
    // Waveforms: called after each transfer is queued on either side (nullptr: not traced).
    void set_probe(state_probe* p) { m_probe = p; }

private:
    void b_transport_host(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void b_transport_nic(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    // Puts `payload` bytes on side `s`'s lanes no earlier than `at_ps`; returns when they have
    // crossed (latency included).
    uint64_t cross(side s, uint64_t at_ps, uint64_t payload);

    pcie_config m_cfg;
    std::array<pcie_lanes, 2> m_lanes;
    std::array<side_stats, 2> m_stats;
    uint64_t m_latency_ps;
    state_probe* m_probe = nullptr;
};

}  // namespace uetsim
