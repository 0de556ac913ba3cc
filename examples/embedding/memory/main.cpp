// A host memory of your own (docs/embedding.md, example "memory"): a TLM-2.0 target whose
// b_transport calls wait() for its own latency, a fixed part plus a part per byte, bound to
// every host's memory socket in place of uetsim's host memory (which answers at once). The
// NICs' DMA reads (payload fetch) and writes (received data, completion entries, connection
// messages) reach it through the PCIe link; everything else is uetsim's.
//
//   memory_example memory.yaml --out out
#include <iostream>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <uetsim/uetsim.h>

namespace {

// The latency model: 100 ns plus 0.25 ns per byte (4 GB/s).
const sc_core::sc_time kFixed(100, sc_core::SC_NS);
const sc_core::sc_time kPerByte(250, sc_core::SC_PS);

class latency_memory : public sc_core::sc_module
{
public:
    tlm_utils::simple_target_socket<latency_memory> socket{"socket"};

    explicit latency_memory(const sc_core::sc_module_name& name) : sc_core::sc_module(name)
    {
        socket.register_b_transport(this, &latency_memory::b_transport);
    }

    uint64_t reads() const { return m_reads; }
    uint64_t writes() const { return m_writes; }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
    {
        // Loosely timed: first catch up with the initiator's time, then take our own.
        wait(delay);
        delay = sc_core::SC_ZERO_TIME;
        wait(kFixed + kPerByte * double(t.get_data_length()));
        (t.is_read() ? m_reads : m_writes)++;
        t.set_response_status(tlm::TLM_OK_RESPONSE);
    }

    uint64_t m_reads = 0;
    uint64_t m_writes = 0;
};

}  // namespace

int sc_main(int argc, char** argv)
{
    uetsim::session s(argc, argv);
    try {
        s.elaborate();
    } catch (const uetsim::input_error& e) {
        std::cerr << "memory_example: error: " << e.what() << "\n";
        return 2;
    }
    // One memory per host: a target socket takes one initiator.
    std::vector<std::unique_ptr<latency_memory>> memories;
    for (uint32_t h = 0; h < s.hosts(); ++h) {
        memories.push_back(
            std::make_unique<latency_memory>(("memory" + std::to_string(h)).c_str()));
        s.host(h).memory.bind(memories.back()->socket);
    }
    s.run();
    for (const auto& m : memories)
        std::cout << m->name() << ": " << m->reads() << " reads, " << m->writes() << " writes\n";
    if (s.exit_code() != 0) return s.exit_code();
    return s.scoreboard_ok() ? 0 : 3;
}
