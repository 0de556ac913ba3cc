// uetsim as a library (docs/embedding.md): the build installs to a fresh prefix, each example in
// examples/embedding/ is configured and built out of tree against the installed package
// (find_package(uetsim), uetsim::uetsim), run with its scenario, and judged from its records.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

// A shell word.
std::string quoted(const std::string& s)
{
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs `command` in a shell; fails the test with its output unless it exits 0.
void must_run(const std::string& command)
{
    const std::string out = shell_output(command + " 2>&1; echo \"exit=$?\"");
    ASSERT_NE(out.find("exit=0\n"), std::string::npos) << command << "\n" << out;
}

// The build installed under `prefix`.
void install(const std::string& prefix)
{
    must_run(quoted(UETSIM_CMAKE) + " --install " + quoted(UETSIM_BUILD_DIR) + " --prefix " +
             quoted(prefix));
}

// The CMake project in `src` configured (with `options`, e.g. "-DNAME=VALUE") and built in
// `build` against `prefix`.
void build_project(const std::string& src, const std::string& prefix, const std::string& build,
                   const std::string& options = "")
{
    std::string launcher;
    if (!std::string(UETSIM_CXX_LAUNCHER).empty())
        launcher = " -DCMAKE_CXX_COMPILER_LAUNCHER=" + quoted(UETSIM_CXX_LAUNCHER);
    must_run(quoted(UETSIM_CMAKE) + " -S " + quoted(src) + " -B " + quoted(build) +
             " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + quoted(prefix) + launcher +
             (options.empty() ? "" : " " + quoted(options)));
    must_run(quoted(UETSIM_CMAKE) + " --build " + quoted(build) + " -j2");
}

// examples/embedding/<name> built in `build` against `prefix`; the program.
std::string build_example(const std::string& name, const std::string& prefix,
                          const std::string& build)
{
    build_project(source_dir() + "/examples/embedding/" + name, prefix, build);
    return build + "/" + name + "_example";
}

struct program_result
{
    int exit_code = -1;
    std::string out;
};

program_result run_program(const std::string& program, const std::vector<std::string>& args)
{
    std::string command = "SC_COPYRIGHT_MESSAGE=DISABLE " + quoted(program);
    for (const auto& a : args) command += " " + quoted(a);
    const std::string out = shell_output(command + " 2>&1; echo \"exit=$?\"");
    const size_t at = out.rfind("exit=");
    return {std::stoi(out.substr(at + 5)), out.substr(0, at)};
}

// The last row of `record` for component `host` (and `side`, when the record has one).
size_t last_row(const csv& c, const std::string& host, const std::string& side = "")
{
    size_t found = c.rows.size();
    for (size_t r = 0; r < c.rows.size(); ++r)
        if (c.str(r, "component_name") == host && (side.empty() || c.str(r, "side") == side))
            found = r;
    EXPECT_LT(found, c.rows.size()) << "no row of " << host << " " << side;
    return found;
}

// rdma-perf's latency per WQE, in ps (perf_metric_usec is a whole number of ps / 10^6).
std::map<uint32_t, int64_t> latency_ps(const csv& perf)
{
    std::map<uint32_t, int64_t> out;
    for (size_t r = 0; r < perf.rows.size(); ++r)
        out[uint32_t(perf.num(r, "wqe_id"))] = std::llround(perf.num(r, "perf_metric_usec") * 1e6);
    return out;
}

// A driver model's SC_THREAD sets up queue pair 7 from host0 to host1 through their mmio and
// posts 16 RDMA WRITEs of 65,536 B on it (examples/embedding/driver/main.cpp).
TEST(embedding, driver_posts_rdma_writes_through_mmio_and_sees_each_completion)
{
    const std::string dir = scratch_dir("embedding-driver");
    install(dir + "/prefix");
    const std::string program = build_example("driver", dir + "/prefix", dir + "/build");
    const std::string out = dir + "/out";
    const program_result r = run_program(
        program,
        {source_dir() + "/examples/embedding/driver/driver.yaml", "--out", out, "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("driver: 16 RDMA WRITEs of 65536 B completed"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;

    // The host side of host0's PCIe link carried the driver's 16 doorbells and its request and
    // ack; host1's its response. The NIC side of host0 wrote 16 completion entries; host1's
    // wrote the payload: 16 WQEs × 65,536 B / 4,096 B (UetNic.RdmaDataMSS) = 256 data writes.
    const csv pcie = read_csv(out + "/driver-pcie-stats-0.csv");
    size_t row = last_row(pcie, "host0", "host");
    EXPECT_EQ(pcie.num(row, "doorbells"), 16);
    EXPECT_EQ(pcie.num(row, "connection_sends"), 2);
    row = last_row(pcie, "host1", "host");
    EXPECT_EQ(pcie.num(row, "doorbells"), 0);
    EXPECT_EQ(pcie.num(row, "connection_sends"), 1);
    row = last_row(pcie, "host0", "nic");
    EXPECT_EQ(pcie.num(row, "completion_writes"), 16);
    EXPECT_EQ(pcie.num(row, "data_writes"), 0);
    row = last_row(pcie, "host1", "nic");
    EXPECT_EQ(pcie.num(row, "data_writes"), 256);
    EXPECT_EQ(pcie.num(row, "completion_writes"), 0);

    // host0's NIC took 16 messages and completed all of them, in 256 data packets (none lost on
    // an idle switch); host1's received the 256.
    const csv uet = read_csv(out + "/driver-uet-transport-stats-0.csv");
    row = last_row(uet, "host0");
    EXPECT_EQ(uet.num(row, "wqes_created"), 16);
    EXPECT_EQ(uet.num(row, "wqes_completed"), 16);
    EXPECT_EQ(uet.num(row, "write_pkts_sent"), 256);
    row = last_row(uet, "host1");
    EXPECT_EQ(uet.num(row, "write_pkts_rcvd"), 256);

    const nlohmann::json manifest = nlohmann::json::parse(read_text(out + "/driver-manifest.json"));
    EXPECT_EQ(manifest["scoreboard"]["ok"], true) << manifest["scoreboard"];

    // The built-in RDMA application on the same hosts would drive their mmio too: refused as
    // bad input (exit code 2) before anything is simulated, naming the key to change.
    const program_result clash =
        run_program(program, {source_dir() + "/examples/embedding/driver/driver.yaml", "--set",
                              "RdmaApplication.Enabled=true", "--out", dir + "/clash", "--quiet"});
    EXPECT_EQ(clash.exit_code, 2) << clash.out;
    EXPECT_NE(clash.out.find("uetsim: error: host0: its mmio is bound to a driver of the "
                             "application's, but the RDMA application"),
              std::string::npos)
        << clash.out;
    EXPECT_NE(clash.out.find("set RdmaApplication.Enabled: false"), std::string::npos) << clash.out;
}

// A host memory whose b_transport waits 100 ns + 0.25 ns per byte
// (examples/embedding/memory/main.cpp), under the built-in RDMA application with one
// connection and one 1,024-byte WQE (one packet) outstanding at a time.
TEST(embedding, memory_with_its_own_latency_adds_exactly_that_to_each_wqe)
{
    const std::string dir = scratch_dir("embedding-memory");
    install(dir + "/prefix");
    const std::string program = build_example("memory", dir + "/prefix", dir + "/build");
    const std::string scenario = source_dir() + "/examples/embedding/memory/memory.yaml";
    const program_result r = run_program(program, {scenario, "--out", dir + "/out", "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const command_result base = run_uetsim({"run", scenario, "--out", dir + "/base", "--quiet"});
    ASSERT_EQ(base.exit_code, 0) << base.err;

    // Per WQE, the memory is on the Initiator's critical path twice: the payload fetch reads
    // 1,024 B (100 + 256 ns) and the completion entry writes Pcie.CompletionSize = 64 B
    // (100 + 16 ns). The Responder's data write only holds the receive pool, which is empty
    // again long before the next packet, and the doorbell does not touch memory. So each
    // WQE's doorbell-to-completion time grows by 356 + 116 = 472 ns, exactly.
    const int64_t added_ps = (100'000 + 1024 * 250) + (100'000 + 64 * 250);
    ASSERT_EQ(added_ps, 472'000);
    const std::map<uint32_t, int64_t> with =
        latency_ps(read_csv(dir + "/out/memory-rdma-perf-0.csv"));
    const std::map<uint32_t, int64_t> without =
        latency_ps(read_csv(dir + "/base/memory-rdma-perf-0.csv"));
    ASSERT_GT(with.size(), 20u);
    ASSERT_GT(without.size(), with.size());  // slower WQEs: fewer of them by the stop time
    for (const auto& [wqe, ps] : with) EXPECT_EQ(ps - without.at(wqe), added_ps) << "WQE " << wqe;

    // Every read and write of host memory went to the program's memories: each host's count is
    // printed by the program; the Initiator's reads are its payload fetches (one per WQE
    // started).
    EXPECT_NE(r.out.find("memory0: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("memory1: "), std::string::npos) << r.out;
}

// A program hands an entropy engine of its own (a subclass of the model's, counting its
// answers) to host0..host3 through session::configure_nics, with the model's headers from the
// installed package (tests/system/embedding_engine).
TEST(embedding, an_engine_of_the_programs_own_answers_for_the_hosts_it_was_given_to)
{
    const std::string dir = scratch_dir("embedding-engine");
    install(dir + "/prefix");
    build_project(source_dir() + "/tests/system/embedding_engine", dir + "/prefix", dir + "/build");
    const program_result r =
        run_program(dir + "/build/engine_program",
                    {"--set", "Simulation.RunTime=200us", "--out", dir + "/out", "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;

    // The engine gives one value per data packet its NIC sends (retransmissions included):
    // host0..host3's write_pkts_sent, and none of the other hosts' packets.
    const csv uet = read_csv(dir + "/out/uetsim-uet-transport-stats-0.csv");
    double given = 0, others = 0;
    for (int h = 0; h < 16; ++h) {
        const double sent = uet.num(last_row(uet, "host" + std::to_string(h)), "write_pkts_sent");
        (h < 4 ? given : others) += sent;
    }
    ASSERT_GT(given, 0);
    ASSERT_GT(others, 0);
    EXPECT_NE(r.out.find("engine answers: " + std::to_string(uint64_t(given)) + "\n"),
              std::string::npos)
        << r.out << "host0..host3 sent " << given;
}

}  // namespace

namespace {

// One line of rtl_engine_example's output: "<nic>.<host>_entropy_lb requests: open A, next B,
// feedback C, close D".
struct block_requests
{
    uint64_t open = 0, next = 0, feedback = 0, close = 0;
    uint64_t total() const { return open + next + feedback + close; }
};

std::map<std::string, block_requests> requests_by_host(const std::string& out)
{
    std::map<std::string, block_requests> by_host;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        const size_t at = line.find("_entropy_lb requests: ");
        if (at == std::string::npos) continue;
        const std::string host = line.substr(line.find('.') + 1, at - line.find('.') - 1);
        block_requests b;
        EXPECT_EQ(std::sscanf(line.c_str() + at,
                              "_entropy_lb requests: open %lu, next %lu, "
                              "feedback %lu, close %lu",
                              &b.open, &b.next, &b.feedback, &b.close),
                  4)
            << line;
        by_host[host] = b;
    }
    return by_host;
}

// The rising edges of the 1-bit signal `name` in a VCD file (SystemC's writer: "$var wire 1 ID
// name $end", then "1ID" at each change to 1).
uint64_t rising_edges(const std::string& vcd, const std::string& name)
{
    std::istringstream lines(read_text(vcd));
    std::string id;
    uint64_t edges = 0;
    for (std::string line; std::getline(lines, line);) {
        if (id.empty()) {
            std::istringstream words(line);
            std::string var, kind, width, code, signal;
            if (words >> var >> kind >> width >> code >> signal && var == "$var" && signal == name)
                id = code;
        } else if (line == "1" + id) {
            ++edges;
        }
    }
    EXPECT_FALSE(id.empty()) << "no signal " << name << " in " << vcd;
    return edges;
}

}  // namespace

// A Verilated block in SystemC mode (sc_clock, sc_signal pins: examples/embedding/rtl_engine)
// answers host0..host3's entropy questions, from outside the model through
// call_outside_model, in a REPS run where a spine link degrades and another goes down.
TEST(embedding, a_systemc_mode_block_as_the_entropy_engine_gives_the_records_of_the_model)
{
    const std::string dir = scratch_dir("embedding-rtl-engine");
    install(dir + "/prefix");
    const std::string program = build_example("rtl_engine", dir + "/prefix", dir + "/build");
    const std::string scenario = source_dir() + "/examples/embedding/rtl_engine/rtl_engine.yaml";
    const std::string out = dir + "/out";
    const program_result r =
        run_program(program, {scenario, "--out", out, "--quiet", "--vcd", "host1"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const nlohmann::json manifest =
        nlohmann::json::parse(read_text(out + "/rtl_engine-manifest.json"));
    EXPECT_EQ(manifest["status"], "complete");

    // The block's answers are the model's and come within the EntropyLookup stage, so every
    // record is the one `uetsim run` writes with the C++ engine, byte for byte.
    const command_result base = run_uetsim({"run", scenario, "--out", dir + "/base", "--quiet"});
    ASSERT_EQ(base.exit_code, 0) << base.err;
    const auto want = csv_files(dir + "/base");
    ASSERT_GE(want.size(), 5u);
    EXPECT_EQ(csv_files(out), want);

    // One next per data packet sent (retransmissions included), feedback from the ACKs, NACKs
    // and time-outs, one open and one close per PDC group, on host0..host3 only.
    const csv uet = read_csv(out + "/rtl_engine-uet-transport-stats-0.csv");
    const std::map<std::string, block_requests> asked = requests_by_host(r.out);
    ASSERT_EQ(asked.size(), 4u) << r.out;
    for (int h = 0; h < 4; ++h) {
        const std::string host = "host" + std::to_string(h);
        ASSERT_EQ(asked.count(host), 1u) << r.out;
        const block_requests& b = asked.at(host);
        const size_t row = last_row(uet, host);
        EXPECT_EQ(double(b.next), uet.num(row, "write_pkts_sent")) << host;
        EXPECT_GT(uet.num(row, "num_rtx"), 0) << host << ": the failing link cost no packet";
        EXPECT_GE(double(b.feedback), uet.num(row, "ack_pkts_rcvd")) << host;
        EXPECT_EQ(b.open, 1u) << host;
        EXPECT_EQ(b.close, 1u) << host;
    }

    // host1's pins, read back from the waveform: one request taken and one response per request
    // the block answered. (host1's flow ends before the run does: SystemC writes a time step's
    // values once the next one begins, so a response in the run's last time step, host0's close
    // here, is not in a waveform.)
    const csv flows = read_csv(out + "/rtl_engine-flow-perf-0.csv");
    for (size_t i = 0; i < flows.rows.size(); ++i)
        if (flows.num(i, "src_host") == 1)
            EXPECT_LT(flows.num(i, "finish_time_sec"), manifest["sim_time_s"].get<double>());
    const std::string vcd = out + "/host1-entropy_lb.vcd";
    EXPECT_EQ(rising_edges(vcd, "req_valid"), asked.at("host1").total());
    EXPECT_EQ(rising_edges(vcd, "rsp_valid"), asked.at("host1").total());

    // A mutant of the block (one bit of the xorshift lost) is stopped at its first wrong answer
    // with uetsim's RTL mismatch report: exit code 1, manifest status rtl_mismatch.
    build_project(source_dir() + "/examples/embedding/rtl_engine", dir + "/prefix", dir + "/mutant",
                  "-DENTROPY_LB_VERILATOR_ARGS=-DUETSIM_MUTANT_XORSHIFT_BIT");
    const program_result m =
        run_program(dir + "/mutant/rtl_engine_example", {scenario, "--out", dir + "/m", "--quiet"});
    EXPECT_EQ(m.exit_code, 1) << m.out;
    EXPECT_NE(m.out.find("uetsim: error: rtl mismatch: host"), std::string::npos) << m.out;
    EXPECT_NE(m.out.find("_entropy_lb at "), std::string::npos) << m.out;
    const nlohmann::json mm = nlohmann::json::parse(read_text(dir + "/m/rtl_engine-manifest.json"));
    EXPECT_EQ(mm["status"], "rtl_mismatch");
}
