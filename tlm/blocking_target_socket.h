// A TLM-2.0 target socket for memory-mapped targets whose b_transport never waits (PCIe, host
// memory, a NIC's BAR).
//
// tlm_utils::simple_target_socket costs about 2.9 KB per socket (its nb-to-b adapter keeps a
// payload event queue, events and process handles), this one about 1.1 KB: with four per UET
// host that is 470 MB of a 65,536-host fabric (docs/performance.md, "Memory per host and per
// port"). A non-blocking initiator is still served: BEGIN_REQ runs b_transport at once and
// returns TLM_COMPLETED with the delay annotated, which the base protocol allows because the
// target never waits.
#pragma once

#include <tlm>

namespace uetsim {

template <typename MODULE>
class blocking_target_socket : public tlm::tlm_target_socket<32>, private tlm::tlm_fw_transport_if<>
{
public:
    using b_transport_fn = void (MODULE::*)(tlm::tlm_generic_payload&, sc_core::sc_time&);

    explicit blocking_target_socket(const char* name) : tlm::tlm_target_socket<32>(name)
    {
        bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
    }

    void register_b_transport(MODULE* m, b_transport_fn f)
    {
        m_module = m;
        m_b_transport = f;
    }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) override
    {
        (m_module->*m_b_transport)(t, delay);
    }
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override
    {
        if (phase == tlm::BEGIN_REQ) b_transport(t, delay);
        // A completed transaction has no further phase; anything after BEGIN_REQ ends it too.
        return tlm::TLM_COMPLETED;
    }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi&) override
    {
        t.set_dmi_allowed(false);
        return false;
    }
    unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

    MODULE* m_module = nullptr;
    b_transport_fn m_b_transport = nullptr;
};

}  // namespace uetsim
