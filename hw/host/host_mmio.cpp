#include "hw/host/host_mmio.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hw/kernel/sim_clock.h"

namespace uetsim {

host_mmio::host_mmio(const sc_core::sc_module_name& name)
    : sc_core::sc_module(name), out("out"), m_tag(new pcie_tag)
{
    m_txn.set_extension(m_tag);
    m_txn.set_streaming_width(0);
    m_txn.set_byte_enable_ptr(nullptr);
}

sc_core::sc_time host_mmio::write(uint64_t address, const std::vector<unsigned char>& data,
                                  uint32_t bytes, pcie_purpose purpose)
{
    m_buffer.assign(std::max<size_t>(bytes, data.size()), 0);
    std::copy(data.begin(), data.end(), m_buffer.begin());
    m_tag->purpose = purpose;
    m_txn.set_command(tlm::TLM_WRITE_COMMAND);
    m_txn.set_address(address);
    m_txn.set_data_ptr(m_buffer.data());
    m_txn.set_data_length(uint32_t(m_buffer.size()));
    m_txn.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    out->b_transport(m_txn, delay);
    if (m_txn.is_response_error())
        throw std::runtime_error(std::string(name()) + ": MMIO write at 0x" +
                                 std::to_string(address) +
                                 " failed: " + m_txn.get_response_string());
    return sim_now() + delay;
}

}  // namespace uetsim
