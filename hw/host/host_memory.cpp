#include "hw/host/host_memory.h"

#include "hw/kernel/sim_clock.h"

namespace uetsim {

host_memory::host_memory(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name), port("port")
{
    port.register_b_transport(this, &host_memory::b_transport);
}

void host_memory::b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
{
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    if (t.is_read()) {
        m_bytes_read += t.get_data_length();
        return;
    }
    m_bytes_written += t.get_data_length();
    report_write(t, sim_now() + delay);
}

void host_memory::report_write(const tlm::tlm_generic_payload& t, const sc_core::sc_time& at) const
{
    if (!m_observer) return;
    static const pcie_tag untagged{};
    const pcie_tag* tag = t.get_extension<pcie_tag>();
    m_observer(tag ? *tag : untagged, t.get_data_ptr(), t.get_data_length(), at);
}

}  // namespace uetsim
