// Host memory as a TLM-2.0 target on the host's end of the PCIe link. It answers every read
// and accepts every write at once (the reference model does not model memory latency) and
// keeps no contents: payload bytes are not simulated, only their size and timing. What lands
// is reported to the host's software through an observer, with the time it lands.
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>
#include <tlm>

#include "hw/pcie/pcie_tag.h"
#include "tlm/blocking_target_socket.h"

namespace uetsim {

class host_memory : public sc_core::sc_module
{
public:
    blocking_target_socket<host_memory> port;

    // A write landed: its purpose and tag, its data, and when it lands (absolute).
    using write_observer = std::function<void(const pcie_tag& tag, const unsigned char* data,
                                              uint32_t bytes, const sc_core::sc_time& at)>;

    explicit host_memory(const sc_core::sc_module_name& name);

    void observe_writes(write_observer f) { m_observer = std::move(f); }
    // Tells the observer of write `t` landing at `at`: what b_transport does for a write, for a
    // memory of someone else's standing in front of this one (testbench/embed/embedded_host.h).
    void report_write(const tlm::tlm_generic_payload& t, const sc_core::sc_time& at) const;

    uint64_t bytes_read() const { return m_bytes_read; }
    uint64_t bytes_written() const { return m_bytes_written; }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);

    write_observer m_observer;
    uint64_t m_bytes_read = 0;
    uint64_t m_bytes_written = 0;
};

}  // namespace uetsim
