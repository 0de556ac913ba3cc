// A driver model of your own (docs/embedding.md, example "driver"): an SC_THREAD that sets up a
// queue pair between host0 (Initiator) and host1 (Responder) through their mmio sockets, posts
// N RDMA WRITEs on it with one doorbell each, and waits on host0's completion event until every
// one has completed, checking each completion. Everything else (the NICs, PCIe, the switch,
// host memory) is uetsim's.
//
//   driver_example driver.yaml --out out
#include <cstring>
#include <iostream>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <uetsim/uetsim.h>

namespace {

constexpr uint32_t kQueuePair = 7;       // any number unique in the run
constexpr uint32_t kWrites = 16;         // RDMA WRITEs posted
constexpr uint64_t kWriteBytes = 65536;  // bytes per WRITE
constexpr uint32_t kDoorbellBytes = 92;  // what crosses PCIe per doorbell (64 + 28 B of headers)

class driver : public sc_core::sc_module
{
public:
    tlm_utils::simple_initiator_socket<driver> initiator_mmio{"initiator_mmio"};
    tlm_utils::simple_initiator_socket<driver> responder_mmio{"responder_mmio"};

    driver(const sc_core::sc_module_name& name, uetsim::host_attachment& initiator,
           uetsim::host_attachment& responder)
        : sc_core::sc_module(name), m_initiator(initiator), m_responder(responder)
    {
        SC_HAS_PROCESS(driver);
        SC_THREAD(run);
    }

    uint32_t completed() const { return m_completed; }
    bool failed() const { return m_failed; }

private:
    // One MMIO write of `layout` at `address`, `bytes` long on PCIe; returns when it has crossed.
    template <typename T>
    void write(tlm_utils::simple_initiator_socket<driver>& socket, uint64_t address,
               const T& layout, uint32_t bytes)
    {
        std::vector<unsigned char> data(std::max<size_t>(bytes, sizeof(T)), 0);
        std::memcpy(data.data(), &layout, sizeof(T));
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(address);
        t.set_data_ptr(data.data());
        t.set_data_length(uint32_t(data.size()));
        t.set_streaming_width(uint32_t(data.size()));
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        socket->b_transport(t, delay);
        if (t.is_response_error()) fail("MMIO write failed: " + t.get_response_string());
        wait(delay);  // loosely timed: the write has crossed PCIe
    }

    // The next connection message delivered to `host`, waiting for it if none has landed yet.
    uetsim::connection_message next_message(uetsim::host_attachment& host)
    {
        uetsim::received_connection_message m;
        while (!host.next_connection_message(m)) wait(host.connection_event());
        return m.message;
    }

    void fail(const std::string& why)
    {
        std::cerr << name() << ": " << why << "\n";
        m_failed = true;
    }

    void run()
    {
        using type = uetsim::connection_message::type;
        // Connection setup: request from the Initiator's host, response from the Responder's,
        // ack from the Initiator's; each crosses the network.
        uetsim::connection_message cm;
        cm.kind = type::request;
        cm.connection = kQueuePair;
        cm.initiator_host = m_initiator.index();
        cm.responder_host = m_responder.index();
        write(initiator_mmio, uetsim::bar::connection_register, cm, sizeof cm);
        if (next_message(m_responder).kind != type::request) return fail("expected a request");
        cm.kind = type::response;
        write(responder_mmio, uetsim::bar::connection_register, cm, sizeof cm);
        if (next_message(m_initiator).kind != type::response) return fail("expected a response");
        cm.kind = type::ack;
        write(initiator_mmio, uetsim::bar::connection_register, cm, sizeof cm);
        std::cout << name() << ": queue pair " << kQueuePair << " set up at "
                  << sc_core::sc_time_stamp() << "\n";

        // Every WRITE posted at once: the NIC runs them one after the other, in posting order.
        for (uint32_t i = 1; i <= kWrites; ++i) {
            uetsim::bar::wqe_descriptor d;
            d.qp = kQueuePair;
            d.wqe_id = i;
            d.bytes = kWriteBytes;
            write(initiator_mmio, uetsim::bar::doorbell(kQueuePair), d, kDoorbellBytes);
        }
        // Completions: look before waiting, since several may land while this thread waits on
        // something else (an event notified then is not remembered).
        while (m_completed < kWrites) {
            uetsim::completion c;
            while (m_initiator.next_completion(c)) {
                ++m_completed;
                if (c.qp != kQueuePair || c.wqe_id != m_completed || c.bytes != kWriteBytes)
                    fail("completion of queue pair " + std::to_string(c.qp) + " WQE " +
                         std::to_string(c.wqe_id) + " where WQE " + std::to_string(m_completed) +
                         " was next");
            }
            if (m_completed < kWrites) wait(m_initiator.completion_event());
        }
        std::cout << name() << ": " << m_completed << " RDMA WRITEs of " << kWriteBytes
                  << " B completed at " << sc_core::sc_time_stamp() << "\n";
    }

    uetsim::host_attachment& m_initiator;
    uetsim::host_attachment& m_responder;
    uint32_t m_completed = 0;
    bool m_failed = false;
};

}  // namespace

int sc_main(int argc, char** argv)
{
    uetsim::session s(argc, argv);
    try {
        s.elaborate();
    } catch (const uetsim::input_error& e) {
        std::cerr << "driver_example: error: " << e.what() << "\n";
        return 2;
    }
    driver d("driver", s.host(0), s.host(1));
    d.initiator_mmio.bind(s.host(0).mmio);  // replaces the built-in driver on host0 and host1
    d.responder_mmio.bind(s.host(1).mmio);
    s.run();
    if (s.exit_code() != 0) return s.exit_code();
    if (d.failed() || d.completed() != kWrites || !s.scoreboard_ok()) {
        std::cerr << "driver_example: " << d.completed() << " of " << kWrites
                  << " WRITEs completed; scoreboard: "
                  << (s.scoreboard_ok() ? "ok" : s.scoreboard_report()) << "\n";
        return 3;
    }
    return 0;
}
