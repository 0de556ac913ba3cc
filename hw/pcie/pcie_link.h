// A host's PCIe link as a TLM-2.0 interconnect of generic-payload transactions, loosely timed:
// each direction is a serial resource (pcie_lanes) and a transaction returns, in its delay
// argument, when it has crossed. No target waits, so the link can be called from methods.
//
//   host (initiator) --host_in--> [host-to-NIC lanes] --nic_out--> NIC BAR (doorbells)
//   NIC  (initiator) --nic_in-->  [NIC-to-host lanes] --host_out--> host memory (DMA)
//
// A DMA read sends its request on the NIC-to-host lanes and its completions with data on the
// host-to-NIC lanes, one request per MaxReadRequestSize bytes. Data moves in transfers (TLPs) of
// at most MaxPayloadSize bytes, each with a fixed overhead; every transfer also takes the
// configured one-way latency. A TLP starts only when the receiving end has flow-control credits
// of its type (pcie_credit_pool); they return CreditReturnLatency after it has arrived.
#pragma once

#include <array>
#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "hw/kernel/sim_clock.h"
#include "hw/common/state_probe.h"
#include "hw/pcie/pcie_config.h"
#include "hw/common/ring.h"
#include "hw/common/shared_settings.h"
#include "hw/pcie/pcie_credits.h"
#include "hw/pcie/pcie_lanes.h"
#include "hw/pcie/pcie_tag.h"
#include "tlm/blocking_target_socket.h"

namespace uetsim {

class pcie_link : public sc_core::sc_module
{
public:
    blocking_target_socket<pcie_link> host_in;
    tlm_utils::simple_initiator_socket<pcie_link> nic_out;
    blocking_target_socket<pcie_link> nic_in;
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
        uint64_t credit_wait_ps = 0;  // time TLPs waited for the receiver's credits
        std::array<uint64_t, k_pcie_tlp_types> credit_waits{};  // TLPs that waited, by type
    };
    // A time the lanes of one side stood still for want of credits, [from_ps, to_ps).
    struct credit_wait
    {
        uint64_t from_ps;
        uint64_t to_ps;
    };

    pcie_link(const sc_core::sc_module_name& name, const pcie_config& cfg);

    const side_stats& stats(side s) const { return m_stats[s]; }
    double rate_bps(side s) const { return m_lanes[s].rate_bps(); }
    // Side `s`'s busy time counted in stats() but still ahead at the current time (transactions
    // are counted when issued; their bytes cross later).
    uint64_t queued_ps(side s) const { return m_lanes[s].queued_ps(sim_now_ps()); }
    // The part of queued_ps() that is waits for credits, not lane time (counted in
    // stats().credit_wait_ps but still ahead at the current time).
    uint64_t waits_ahead_ps(side s);
    const pcie_config& config() const { return m_cfg; }
    // Waveforms: called after each transfer is queued on either side (nullptr: not traced).
    void set_probe(state_probe* p) { m_probe = p; }
    // Side `s`'s credit waits not yet over, oldest first (ended ones are dropped by whoever
    // reads them first).
    ring<credit_wait>& credit_waits(side s) { return m_waits[s]; }
    // The credits side `s`'s TLPs take at the other end, by type.
    const pcie_credit_pool& credits(side s, pcie_tlp_type t) const
    {
        return m_credits[s][size_t(t)];
    }

private:
    void b_transport_host(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    void b_transport_nic(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    // Puts `payload` bytes of TLPs of `type` on side `s`'s lanes no earlier than `at_ps`;
    // returns when they have crossed (latency included).
    uint64_t cross(side s, uint64_t at_ps, uint64_t payload, pcie_tlp_type type);
    // The same TLP by TLP, each waiting for its credits.
    uint64_t cross_with_credits(side s, uint64_t at_ps, uint64_t payload, pcie_tlp_type type);

    std::shared_ptr<const pcie_config> m_shared_cfg;  // one copy for the fabric's alike links
    const pcie_config& m_cfg;
    std::array<pcie_lanes, 2> m_lanes;
    std::array<side_stats, 2> m_stats;
    uint64_t m_latency_ps;
    uint64_t m_credit_return_ps;  // from a TLP's last byte on the lanes to its credits' return
    // With no latency a TLP's credits are back when the lanes are free for the next one, so
    // credits can never hold a TLP back and are not counted.
    bool m_credits_on;
    std::array<std::array<pcie_credit_pool, k_pcie_tlp_types>, 2> m_credits;
    std::array<ring<credit_wait>, 2> m_waits;  // allocated at the first wait
    state_probe* m_probe = nullptr;
};

}  // namespace uetsim
