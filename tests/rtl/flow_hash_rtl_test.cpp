// The flow_hash RTL block (rtl/flow_hash/flow_hash.sv), Verilated in SystemC mode, against the
// C++ model uetsim::flow_hash16 (hw/switch/flow_hash.cpp), which is the golden reference.
//
// Every TEST elaborates its own bench, so run them one per process (ctest does; by hand use
// --gtest_filter=flow_hash_rtl.<name>), STYLE.md P3.

// Verilated headers before <systemc> (STYLE.md P13).
#include "Vflow_hash.h"
#include "Vflow_hash_pipe.h"
#include "rtl/verilated_includes.h"

#include <gtest/gtest.h>

#include <systemc>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>
#include <unistd.h>

#include "hw/switch/flow_hash.h"
#include "rtl/flow_hash/flow_hash_rtl.h"

using namespace uetsim;

namespace {

struct hash_case
{
    ecmp_hash_method method = ecmp_hash_method::crc32_with_salt;
    flow_key key;
    uint32_t salt = 0;
};

std::string describe(const hash_case& c)
{
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "method=%u (%s) protocol=%u src_ip=0x%08x dst_ip=0x%08x src_port=%u "
                  "dst_port=%u salt=0x%08x",
                  unsigned(c.method), std::string(to_string(c.method)).c_str(),
                  unsigned(c.key.protocol), c.key.src_ip, c.key.dst_ip, unsigned(c.key.src_port),
                  unsigned(c.key.dst_port), c.salt);
    return buf;
}

std::string mismatch_text(uint64_t index, const hash_case& c, uint16_t model, uint16_t rtl)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, " model=0x%04x rtl=0x%04x", model, rtl);
    return "case #" + std::to_string(index) + " at " + sc_core::sc_time_stamp().to_string() + ": " +
           describe(c) + buf;
}

// The random stimulus: every field random, the method uniform over the six methods, protocol
// mostly UDP (17), some TCP (6), some anything else; now and then corner values.
class stimulus
{
public:
    explicit stimulus(uint64_t seed) : m_rng(seed) {}

    hash_case next()
    {
        hash_case c;
        c.method = static_cast<ecmp_hash_method>(m_rng() % 6);
        const unsigned p = m_rng() % 100;
        c.key.protocol = p < 80 ? 17 : p < 95 ? 6 : static_cast<uint8_t>(m_rng());
        c.key.src_ip = pick32();
        c.key.dst_ip = pick32();
        c.key.src_port = static_cast<uint16_t>(pick32());
        c.key.dst_port = (m_rng() % 4 == 0) ? uint16_t{4793} : static_cast<uint16_t>(pick32());
        c.salt = pick32();
        return c;
    }

private:
    uint32_t pick32()
    {
        static constexpr std::array<uint32_t, 8> corners{
            0u, 1u, 0x1FFu, 0x200u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
        if (m_rng() % 64 == 0) return corners[m_rng() % corners.size()];
        return static_cast<uint32_t>(m_rng());
    }
    std::mt19937_64 m_rng;
};

// Drives the combinational Vflow_hash directly through its pins: one key per nanosecond (the
// model's eval method runs in the delta after the pins change; the thread reads `hash` at the
// next time step). `on_result` returns false to stop.
class direct_bench : public sc_core::sc_module
{
public:
    using source = std::function<bool(hash_case&)>;                    // false: no more keys
    using sink = std::function<bool(const hash_case&, uint16_t rtl)>;  // false: stop

    direct_bench(const sc_core::sc_module_name& nm, source src, sink snk)
        : sc_core::sc_module(nm), dut("dut"), m_src(std::move(src)), m_snk(std::move(snk))
    {
        SC_HAS_PROCESS(direct_bench);
        dut.method(method);
        dut.protocol(protocol);
        dut.src_ip(src_ip);
        dut.dst_ip(dst_ip);
        dut.src_port(src_port);
        dut.dst_port(dst_port);
        dut.salt(salt);
        dut.hash(hash);
        SC_THREAD(run);
    }

    uint64_t driven = 0;
    bool finished = false;

    sc_core::sc_signal<uint32_t> method{"method"}, protocol{"protocol"}, src_ip{"src_ip"},
        dst_ip{"dst_ip"}, src_port{"src_port"}, dst_port{"dst_port"}, salt{"salt"}, hash{"hash"};
    Vflow_hash dut;

private:
    void run()
    {
        hash_case c;
        while (m_src(c)) {
            method.write(static_cast<uint32_t>(c.method));
            protocol.write(c.key.protocol);
            src_ip.write(c.key.src_ip);
            dst_ip.write(c.key.dst_ip);
            src_port.write(c.key.src_port);
            dst_port.write(c.key.dst_port);
            salt.write(c.salt);
            wait(1, sc_core::SC_NS);
            ++driven;
            if (!m_snk(c, static_cast<uint16_t>(hash.read()))) break;
        }
        finished = true;
        sc_core::sc_stop();
    }

    source m_src;
    sink m_snk;
};

// The CRC register after `state` took 32 more bits is F(state ^ data) with F linear and
// invertible; this undoes F (32 reflected shift steps backwards).
uint32_t crc_unshift32(uint32_t c)
{
    for (int i = 0; i < 32; ++i) {
        const uint32_t b = c >> 31;  // the forward step's output bit 31 is the shifted-out bit
        if (b) c ^= 0xEDB88320u;
        c = (c << 1) | b;
    }
    return c;
}

uint16_t fold16(uint32_t x)
{
    return static_cast<uint16_t>((x >> 16) ^ (x & 0xFFFFu));
}

std::string temp_path(const std::string& leaf)
{
    const auto dir =
        std::filesystem::temp_directory_path() / ("uetsim_rtl_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / leaf).string();
}

}  // namespace

// One million random keys through the RTL; every output equals flow_hash16. Stops at the first
// mismatch and prints the inputs and both outputs.
TEST(flow_hash_rtl, matches_model_on_one_million_random_keys)
{
    constexpr uint64_t n = 1000000;
    stimulus stim(0x5EEDF10A5EEDull);
    uint64_t produced = 0, compared = 0;
    std::array<uint64_t, 6> per_method{};
    std::string first_mismatch;

    direct_bench bench(
        "bench",
        [&](hash_case& c) {
            if (produced == n) return false;
            c = stim.next();
            ++produced;
            return true;
        },
        [&](const hash_case& c, uint16_t rtl) {
            const uint16_t model = flow_hash16(c.method, c.key, c.salt);
            ++per_method[static_cast<size_t>(c.method)];
            if (rtl != model) {
                first_mismatch = mismatch_text(compared, c, model, rtl);
                return false;
            }
            ++compared;
            return true;
        });
    sc_core::sc_start();

    ASSERT_TRUE(first_mismatch.empty()) << first_mismatch;
    EXPECT_TRUE(bench.finished);
    EXPECT_EQ(compared, n);
    for (size_t m = 0; m < per_method.size(); ++m)
        EXPECT_GT(per_method[m], n / 6 - n / 60) << "method " << m;
}

// The RTL's CRC engine gives the standard check value: choose the first four key bytes (and for
// crc32WithSalt the salt) so that the register is 0xFFFFFFFF after them; the remaining nine key
// bytes are "123456789", so the CRC the block computes is CRC-32("123456789") = 0xCBF43926.
// Checked against that constant (not against the C++ CRC), and against flow_hash16 too.
TEST(flow_hash_rtl, crc_engine_gives_the_standard_check_value)
{
    const uint32_t before_tail = crc_unshift32(0xFFFFFFFFu);  // state ^ first4 must be this
    auto key_with_tail = [](uint32_t first4_le) {
        // Key bytes: protocol, sport_hi, sport_lo, dport_hi | dport_lo, sip[4], dip[4].
        // The CRC consumes the first four bytes as a little-endian word.
        flow_key k;
        k.protocol = static_cast<uint8_t>(first4_le);
        k.src_port =
            static_cast<uint16_t>(((first4_le >> 8) & 0xFFu) << 8 | ((first4_le >> 16) & 0xFFu));
        k.dst_port = static_cast<uint16_t>(((first4_le >> 24) & 0xFFu) << 8 | '1');
        k.src_ip = 0x32333435u;  // "2345"
        k.dst_ip = 0x36373839u;  // "6789"
        return k;
    };
    std::vector<hash_case> cases;
    std::vector<uint16_t> expected;
    // crc32: register starts at 0xFFFFFFFF.
    cases.push_back({ecmp_hash_method::crc32, key_with_tail(0xFFFFFFFFu ^ before_tail), 0x1234u});
    expected.push_back(fold16(0xCBF43926u));  // 0xF2D2
    // crc32WithSalt: register starts at ~salt; pick the first bytes, solve for the salt.
    for (uint32_t first4 : {0x12345611u, 0x00000006u, 0xFFFFFFFFu}) {
        const uint32_t salt = ~(before_tail ^ first4);
        cases.push_back({ecmp_hash_method::crc32_with_salt, key_with_tail(first4), salt});
        expected.push_back(fold16(fmix32(0xCBF43926u ^ salt)));
    }
    // Sanity of the construction on the C++ side: the 13 key bytes end in "123456789".
    {
        uint8_t b[13];
        flow_key_bytes(cases[0].key, b);
        ASSERT_EQ(std::string(reinterpret_cast<const char*>(b + 4), 9), "123456789");
    }

    size_t next = 0;
    std::vector<uint16_t> got;
    direct_bench bench(
        "bench",
        [&](hash_case& c) {
            if (next == cases.size()) return false;
            c = cases[next++];
            return true;
        },
        [&](const hash_case&, uint16_t rtl) {
            got.push_back(rtl);
            return true;
        });
    sc_core::sc_start();

    ASSERT_EQ(got.size(), cases.size());
    EXPECT_EQ(expected[0], 0xF2D2u);
    for (size_t i = 0; i < cases.size(); ++i) {
        EXPECT_EQ(got[i], expected[i]) << describe(cases[i]);
        EXPECT_EQ(got[i], flow_hash16(cases[i].method, cases[i].key, cases[i].salt))
            << describe(cases[i]);
    }
}

// Golden vector (computed independently in Python) and the out-of-range method codes 6 and 7,
// which give 0 in the RTL as in the C++.
TEST(flow_hash_rtl, golden_vector_and_unused_method_codes)
{
    flow_key k;
    k.protocol = 17;
    k.src_ip = 0x0A000001u;
    k.dst_ip = 0x0A000102u;
    k.src_port = 0xC000u;
    k.dst_port = 4793;
    const uint32_t salt = 0x9E3779B9u;
    const std::array<uint16_t, 8> want{0x03EC, 0x867A, 0xD344, 0xD3BA, 0x101, 0x101, 0, 0};

    unsigned next = 0;
    std::vector<uint16_t> got;
    direct_bench bench(
        "bench",
        [&](hash_case& c) {
            if (next == want.size()) return false;
            c = {static_cast<ecmp_hash_method>(next++), k, salt};
            return true;
        },
        [&](const hash_case&, uint16_t rtl) {
            got.push_back(rtl);
            return true;
        });
    sc_core::sc_start();

    ASSERT_EQ(got.size(), want.size());
    for (size_t m = 0; m < want.size(); ++m) {
        EXPECT_EQ(got[m], want[m]) << "method " << m;
        EXPECT_EQ(got[m], flow_hash16(static_cast<ecmp_hash_method>(m), k, salt)) << "method " << m;
    }
}

// The registered variant: one key per clock with random bubbles, reset, out_valid one cycle
// after in_valid, every hash equal to the model's.
TEST(flow_hash_rtl, pipelined_variant_has_one_cycle_latency_and_matches_model)
{
    struct pipe_bench : sc_core::sc_module
    {
        sc_core::sc_clock clk{"clk", 1, sc_core::SC_NS};
        sc_core::sc_signal<bool> rst_n{"rst_n"}, in_valid{"in_valid"}, out_valid{"out_valid"};
        sc_core::sc_signal<uint32_t> method{"method"}, protocol{"protocol"}, src_ip{"src_ip"},
            dst_ip{"dst_ip"}, src_port{"src_port"}, dst_port{"dst_port"}, salt{"salt"},
            hash{"hash"};
        Vflow_hash_pipe dut{"dut"};
        uint64_t cycles = 200000, issued = 0, retired = 0;
        std::string error;

        explicit pipe_bench(const sc_core::sc_module_name& nm) : sc_core::sc_module(nm)
        {
            SC_HAS_PROCESS(pipe_bench);
            dut.clk(clk);
            dut.rst_n(rst_n);
            dut.in_valid(in_valid);
            dut.method(method);
            dut.protocol(protocol);
            dut.src_ip(src_ip);
            dut.dst_ip(dst_ip);
            dut.src_port(src_port);
            dut.dst_port(dst_port);
            dut.salt(salt);
            dut.out_valid(out_valid);
            dut.hash(hash);
            SC_THREAD(run);
        }

        void run()
        {
            stimulus stim(77);
            std::mt19937 bubbles(5);
            struct pending
            {
                hash_case c;
                uint64_t cycle;
            };
            std::deque<pending> expect;
            rst_n.write(false);
            in_valid.write(false);
            for (uint64_t cyc = 0; cyc < cycles && error.empty(); ++cyc) {
                wait(clk.posedge_event());
                // Drive the key the RTL samples at the next rising edge.
                if (cyc == 3) rst_n.write(true);
                const bool valid = cyc >= 3 && bubbles() % 10 < 7;
                in_valid.write(valid);
                if (valid) {
                    const hash_case c = stim.next();
                    method.write(static_cast<uint32_t>(c.method));
                    protocol.write(c.key.protocol);
                    src_ip.write(c.key.src_ip);
                    dst_ip.write(c.key.dst_ip);
                    src_port.write(c.key.src_port);
                    dst_port.write(c.key.dst_port);
                    salt.write(c.salt);
                    expect.push_back({c, cyc});
                    ++issued;
                }
                // Outputs registered at this cycle's rising edge, from keys driven last cycle.
                wait(clk.negedge_event());
                if (cyc < 4 && out_valid.read()) error = "out_valid during/just after reset";
                if (!out_valid.read()) continue;
                if (expect.empty()) {
                    error = "out_valid without a key in flight";
                    break;
                }
                const pending p = expect.front();
                expect.pop_front();
                const uint16_t model = flow_hash16(p.c.method, p.c.key, p.c.salt);
                const uint16_t rtl = static_cast<uint16_t>(hash.read());
                if (p.cycle + 1 != cyc)
                    error = "latency " + std::to_string(cyc - p.cycle) + " cycles, expected 1";
                else if (rtl != model)
                    error = mismatch_text(retired, p.c, model, rtl);
                ++retired;
            }
            sc_core::sc_stop();
        }
    } bench("bench");
    sc_core::sc_start();

    ASSERT_TRUE(bench.error.empty()) << bench.error;
    EXPECT_GT(bench.issued, bench.cycles / 2);
    EXPECT_GE(bench.retired + 1, bench.issued);  // the last key may still be in flight
}

// The SystemC wrapper (the seam the switch would use): blocking evaluate() from a thread and
// non-blocking lockstep check() from a method, with waves written to an FST file.
TEST(flow_hash_rtl, wrapper_evaluate_and_lockstep_check_with_waves)
{
    struct wrapper_bench : sc_core::sc_module
    {
        rtl_flow_hasher hasher;
        sc_core::sc_event tick;
        uint64_t n = 20000, evaluated = 0, method_calls = 0;
        std::string error;
        stimulus thread_stim{1}, method_stim{2};

        wrapper_bench(const sc_core::sc_module_name& nm, const rtl_flow_hasher_cfg& cfg)
            : sc_core::sc_module(nm), hasher("flow_hasher", cfg)
        {
            SC_HAS_PROCESS(wrapper_bench);
            SC_THREAD(evaluate_thread);
            SC_METHOD(check_method);
            sensitive << tick;
            dont_initialize();
        }

        void evaluate_thread()
        {
            for (uint64_t i = 0; i < n && error.empty(); ++i) {
                const hash_case c = thread_stim.next();
                const uint16_t rtl = hasher.evaluate(c.method, c.key, c.salt);
                const uint16_t model = flow_hash16(c.method, c.key, c.salt);
                if (rtl != model) error = mismatch_text(i, c, model, rtl);
                ++evaluated;
                tick.notify(sc_core::SC_ZERO_TIME);  // the method queues checks meanwhile
                wait(1, sc_core::SC_NS);             // one key per ns: readable waves
            }
            wait(1, sc_core::SC_NS);  // let the last lockstep checks drain
            sc_core::sc_stop();
        }

        // Like a switch's SC_METHOD: computes with the C++ model, hands the RTL a check. Queues
        // two per call, so keys from check() and evaluate() interleave in the wrapper's queue.
        void check_method()
        {
            for (int j = 0; j < 2; ++j) {
                const hash_case c = method_stim.next();
                hasher.check(c.method, c.key, c.salt, flow_hash16(c.method, c.key, c.salt));
            }
            ++method_calls;
        }
    };

    // UETSIM_RTL_FST=/some/path.fst keeps the waves for gtkwave (docs/rtl.md).
    const char* keep = std::getenv("UETSIM_RTL_FST");
    const std::string fst = keep && keep[0] ? std::string(keep) : temp_path("flow_hash.fst");
    rtl_flow_hasher_cfg cfg;
    cfg.fst_path = fst;
    wrapper_bench bench("bench", cfg);
    sc_core::sc_start();

    ASSERT_TRUE(bench.error.empty()) << bench.error;
    EXPECT_EQ(bench.evaluated, bench.n);
    EXPECT_EQ(bench.hasher.checks(), 2 * bench.method_calls);
    EXPECT_EQ(bench.hasher.checks(), 2 * bench.n);
    EXPECT_EQ(bench.hasher.mismatches(), 0u);
    EXPECT_EQ(bench.hasher.evaluations(), 3 * bench.n);
    EXPECT_EQ(bench.hasher.pending(), 0u);
    // Delta cycles only: the RTL adds no simulated time.
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(double(bench.n + 1), sc_core::SC_NS));

    std::error_code ec;  // the wrapper closed the FST at end_of_simulation
    const auto size = std::filesystem::file_size(fst, ec);
    EXPECT_FALSE(ec) << fst;
    EXPECT_GT(size, 1000u) << fst;
    if (!(keep && keep[0]))
        std::filesystem::remove_all(std::filesystem::path(fst).parent_path(), ec);
}

// A lockstep mismatch is an SC_REPORT_ERROR naming the inputs and both outputs.
TEST(flow_hash_rtl, wrapper_reports_a_lockstep_mismatch)
{
    static std::vector<std::string> errors;
    struct bench_t : sc_core::sc_module
    {
        rtl_flow_hasher hasher{"flow_hasher"};
        explicit bench_t(const sc_core::sc_module_name& nm) : sc_core::sc_module(nm)
        {
            SC_HAS_PROCESS(bench_t);
            SC_METHOD(inject);
        }
        void inject()
        {
            flow_key k;
            k.src_ip = 0x0A000001u;
            k.dst_ip = 0x0A000102u;
            k.src_port = 0xC000u;
            k.dst_port = 4793;
            const uint16_t right = flow_hash16(ecmp_hash_method::crc32, k, 0);
            hasher.check(ecmp_hash_method::crc32, k, 0, right);
            hasher.check(ecmp_hash_method::crc32, k, 0, static_cast<uint16_t>(right ^ 1u));
            hasher.check(ecmp_hash_method::hash, k, 0, flow_hash16(ecmp_hash_method::hash, k, 0));
        }
    } bench("bench");

    // Capture the error instead of failing (test_main's handler turns errors into failures).
    auto previous = sc_core::sc_report_handler::get_handler();
    sc_core::sc_report_handler::set_handler(
        [](const sc_core::sc_report& r, const sc_core::sc_actions&) {
            if (r.get_severity() >= sc_core::SC_ERROR) errors.push_back(r.get_msg());
        });
    sc_core::sc_start(1, sc_core::SC_NS);
    sc_core::sc_report_handler::set_handler(previous);

    EXPECT_EQ(bench.hasher.checks(), 3u);
    EXPECT_EQ(bench.hasher.mismatches(), 1u);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("mismatch"), std::string::npos) << errors[0];
    EXPECT_NE(errors[0].find("method=1 (crc32)"), std::string::npos) << errors[0];
    EXPECT_NE(errors[0].find("src_ip=0x0a000001"), std::string::npos) << errors[0];
    EXPECT_NE(errors[0].find("model=0x867b rtl=0x867a"), std::string::npos) << errors[0];
}

// $finish/$stop/fatal from Verilated code go through SystemC (STYLE.md P6): a fatal is an
// SC_REPORT_ERROR, never a silent exit(0).
TEST(flow_hash_rtl, verilator_fatal_is_a_systemc_error)
{
    static std::vector<std::string> errors;
    auto previous = sc_core::sc_report_handler::get_handler();
    sc_core::sc_report_handler::set_handler(
        [](const sc_core::sc_report& r, const sc_core::sc_actions&) {
            if (r.get_severity() >= sc_core::SC_ERROR) errors.push_back(r.get_msg());
        });
    bool threw = false;
    try {
        vl_fatal("flow_hash.sv", 42, "top.flow_hash", "injected");
    } catch (const std::exception&) {
        threw = true;  // vl_fatal must not return
    }
    vl_finish("flow_hash.sv", 43, "top.flow_hash");  // not running: only an info report
    sc_core::sc_report_handler::set_handler(previous);

    EXPECT_TRUE(threw);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("injected at flow_hash.sv:42"), std::string::npos) << errors[0];
    EXPECT_EQ(sc_core::sc_get_status(), sc_core::SC_ELABORATION);
}

// Verilog $finish stops the SystemC kernel (no exit(0), no second-$finish surprise) and $stop
// (also what a failed RTL assertion calls) is an error.
TEST(flow_hash_rtl, verilog_finish_stops_the_kernel_and_stop_is_an_error)
{
    static std::vector<std::string> errors;
    struct bench_t : sc_core::sc_module
    {
        bool after_finish = false;
        explicit bench_t(const sc_core::sc_module_name& nm) : sc_core::sc_module(nm)
        {
            SC_HAS_PROCESS(bench_t);
            SC_THREAD(run);
        }
        void run()
        {
            wait(5, sc_core::SC_NS);
            vl_stop("flow_hash.sv", 7, "top.flow_hash");
            vl_finish("flow_hash.sv", 8, "top.flow_hash");
            wait(5, sc_core::SC_NS);
            after_finish = true;
        }
    } bench("bench");

    auto previous = sc_core::sc_report_handler::get_handler();
    sc_core::sc_report_handler::set_handler(
        [](const sc_core::sc_report& r, const sc_core::sc_actions&) {
            if (r.get_severity() >= sc_core::SC_ERROR) errors.push_back(r.get_msg());
        });
    sc_core::sc_start(100, sc_core::SC_NS);
    sc_core::sc_report_handler::set_handler(previous);

    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(5, sc_core::SC_NS));
    EXPECT_FALSE(bench.after_finish);
    EXPECT_EQ(sc_core::sc_get_status(), sc_core::SC_STOPPED);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("Verilog $stop at flow_hash.sv:7"), std::string::npos) << errors[0];
}
