// uetsim as a library (docs/embedding.md). A program of the user's provides sc_main, creates a
// session with the arguments of `uetsim run` ([SCENARIO] [--set K=V]... [--out DIR]), elaborates
// it, binds its own SystemC/TLM-2.0 parts to the hosts' attachment points, and runs it: the
// records and the manifest come out as `uetsim run` writes them.
//
//   int sc_main(int argc, char** argv)
//   {
//       uetsim::session s(argc, argv);
//       s.elaborate();                        // throws uetsim::input_error (exit 2's message)
//       my_memory mem("mem");
//       s.host(0).memory.bind(mem.socket);    // replaces host0's memory, on host0 only
//       s.run();
//       return s.exit_code();
//   }
//
// Only SystemC and TLM-2.0 headers are included; everything else stays inside libuetsim.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

namespace uetsim {

// The library's version: "0.1.0", as `uetsim --version` prints it.
const char* version();

// Bad input (a scenario key, a value, an output folder): the message `uetsim run` prints after
// "uetsim: error: " before it exits with code 2.
class input_error : public std::invalid_argument
{
public:
    explicit input_error(const std::string& what) : std::invalid_argument(what) {}
};

// The NIC's BAR as the host writes it through `mmio` (docs/embedding.md, "The doorbell and WQE
// space"). Every write is a TLM_WRITE_COMMAND; the data is one of the layouts below, in the
// host's byte order, and the transaction's data length is what crosses PCIe (at least the
// layout's size; the built-in driver writes Rdma.DoorbellPayloadSize + 28 bytes per doorbell).
namespace bar {
// A connection_request to set up a queue pair, or the answer to one.
inline constexpr uint64_t connection_register = 0x0;
// The doorbell of queue pair `qp`: a WQE descriptor posts one RDMA WRITE on it.
inline constexpr uint64_t doorbell_base = 0x1000;
inline constexpr uint64_t doorbell_stride = 8;
constexpr uint64_t doorbell(uint32_t qp)
{
    return doorbell_base + uint64_t(qp) * doorbell_stride;
}
// What a doorbell carries: an RDMA WRITE of `bytes` on queue pair `qp` (the queue pair comes from
// the doorbell's address; this field is not read). `wqe_id` numbers the WQEs of a queue pair
// from 1; the NIC runs one WQE of a queue pair at a time, in posting order.
struct wqe_descriptor
{
    uint32_t qp = 0;
    uint32_t wqe_id = 0;
    uint64_t bytes = 0;
    uint8_t traffic_class = 0;
};
}  // namespace bar

// Connection setup, three messages across the network (docs/rdma-application.md): the
// Initiator's host writes a request naming both hosts; the NIC delivers it to the Responder's
// host, which writes the response (its NIC creates its end of queue pair `connection`); the
// response reaches the Initiator (its NIC creates its end), which writes the ack.
struct connection_message
{
    enum class type : uint8_t { request = 1, response = 2, ack = 3 };
    type kind = type::request;
    uint32_t connection = 0;  // the queue pair's number on both NICs: unique in the run
    uint32_t initiator_host = 0;
    uint32_t responder_host = 0;
};

// A completion the NIC wrote into host memory: WQE `wqe_id` of queue pair `qp` is done (every
// byte acknowledged). `time`: when the entry landed in host memory.
struct completion
{
    uint32_t qp = 0;
    uint32_t wqe_id = 0;
    uint64_t bytes = 0;  // the WQE's, as its doorbell gave it
    sc_core::sc_time time;
};

// A connection message the NIC wrote into host memory, and when it landed.
struct received_connection_message
{
    connection_message message;
    sc_core::sc_time time;
};

class embedded_host;
struct nic_config;

// One host's attachment points, bound (or not) before session::run(). A socket left unbound
// keeps the built-in part; binding one replaces the built-in part on this host only.
class host_attachment
{
public:
    // The NIC's doorbell and WQE space (a target): bind the initiator socket of a driver of your
    // own here. Blocking transport; the call returns when the write has crossed PCIe (in the
    // delay argument). Replaces the built-in RDMA application's driver on this host.
    tlm::tlm_target_socket<32>& mmio;
    // The NIC's DMA reads and writes of host memory (an initiator): bind a memory target of your
    // own here. Its b_transport may call wait() (docs/embedding.md, "What may call wait()").
    tlm::tlm_initiator_socket<32>& memory;

    uint32_t index() const;  // the host's number (host3: 3)
    const std::string& name() const;

    // Notified at the time each completion lands in this host's memory.
    const sc_core::sc_event& completion_event() const;
    // The oldest completion that has landed by now (sc_time_stamp()), taken off the list; false
    // when none has.
    bool next_completion(completion& c);
    // Called inside the model at the time each completion lands; must return without waiting.
    void on_completion(std::function<void(const completion&)> f);

    // The same for the connection messages the NIC delivers to this host.
    const sc_core::sc_event& connection_event() const;
    bool next_connection_message(received_connection_message& m);

    host_attachment(tlm::tlm_target_socket<32>& mmio_socket,
                    tlm::tlm_initiator_socket<32>& memory_socket, embedded_host& host);

private:
    embedded_host& m_host;
};

namespace detail {
struct run_arguments;
}

// One run of a scenario, as `uetsim run` runs it. One session per process (SystemC elaborates
// once).
class session
{
public:
    // The arguments of `uetsim run` after argv[0]: [SCENARIO] [--set K=V]... [--out DIR]
    // [--quiet] [--progress]. Parsing errors surface from elaborate().
    session(int argc, char** argv);
    explicit session(const detail::run_arguments& args);  // the command's own, parsed
    ~session();
    session(const session&) = delete;
    session& operator=(const session&) = delete;

    // Loads and checks the scenario, prepares the output folder and builds the model. Throws
    // input_error with the message `uetsim run` would print before exiting with code 2.
    void elaborate();

    // NIC hosts of the scenario (0 with Nic.Type: raw); after elaborate().
    uint32_t hosts() const;
    // Host `i`'s attachment points (created on first use); after elaborate(), before run().
    // Throws input_error for a host that does not exist or has no NIC.
    host_attachment& host(uint32_t i);

    // Hands a NIC engine of the application's own to the hosts whose names match `host_glob`
    // (fnmatch, as Rtl[glob]): `configure` is called with each such host's configuration before
    // its NIC is built, after the Rtl.* blocks are injected, and may set its engine factories
    // (nic_config::make_entropy_engine, make_sack_tracker: <uetsim/internal/testbench/scenario.h>).
    // Before elaborate(); several calls apply in order.
    void configure_nics(const std::string& host_glob,
                        std::function<void(const std::string& host, nic_config& nic)> configure);

    // Runs to the scenario's stop time (or until the traffic ends or a signal stops it), then
    // closes the records and writes the manifest. Internal errors are printed as `uetsim run`
    // prints them and set exit_code(); run() itself does not throw for them.
    void run();

    // What `uetsim run` would exit with: 0, 1 (internal error, RTL mismatch), 2 (bad input),
    // 130/143 (stopped by SIGINT/SIGTERM).
    int exit_code() const;
    // Every message, every WQE (the application's through mmio included) completed and every
    // byte arrived exactly once; `uetsim run` prints FAILED and exits 0 otherwise.
    bool scoreboard_ok() const;
    // The scoreboard's problems, one per line (empty when ok).
    std::string scoreboard_report() const;
    const std::string& out_dir() const;
    const std::string& name() const;  // Simulation.Name: the records' file prefix

private:
    struct state;
    std::unique_ptr<state> m;
};

}  // namespace uetsim
