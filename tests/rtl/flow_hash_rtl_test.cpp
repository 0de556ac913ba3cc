// The flow_hash RTL block (rtl/flow_hash/flow_hash.sv), Verilated in C++ mode and stepped
// through rtl/common's clocked_block, against the C++ model uetsim::flow_hash16
// (hw/switch/flow_hash.cpp), which is the golden reference; and its wrapper rtl_flow_hasher
// (the switch's flow_hasher seam) in rtl and both modes.
//
// Run them one per process (ctest does; by hand use --gtest_filter=flow_hash_rtl.<name>),
// STYLE.md P3.

// Verilated headers before <systemc> (rtl/verilated_includes.h).
#include "Vflow_hash.h"
#include "Vflow_hash_mutant.h"
#include "Vflow_hash_pipe.h"
#include "rtl/common/clocked_block.h"
#include "rtl/flow_hash/flow_hash_block.h"

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

#include "hw/switch/flow_hash.h"
#include "rtl/flow_hash/flow_hash_rtl.h"
#include "tests/support/run_uetsim.h"

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

// Drives the combinational Vflow_hash directly through its pins, one key per settle, until the
// source has no more keys or the sink says stop.
class direct_bench
{
public:
    using source = std::function<bool(hash_case&)>;                    // false: no more keys
    using sink = std::function<bool(const hash_case&, uint16_t rtl)>;  // false: stop

    direct_bench(source src, sink snk) : dut("dut"), m_src(std::move(src)), m_snk(std::move(snk)) {}

    void run()
    {
        hash_case c;
        Vflow_hash& p = dut.pins();
        while (m_src(c)) {
            p.method = static_cast<uint8_t>(c.method);
            p.protocol = c.key.protocol;
            p.src_ip = c.key.src_ip;
            p.dst_ip = c.key.dst_ip;
            p.src_port = c.key.src_port;
            p.dst_port = c.key.dst_port;
            p.salt = c.salt;
            dut.settle();
            ++driven;
            if (!m_snk(c, p.hash)) return;
        }
        finished = true;
    }

    clocked_block<Vflow_hash> dut;
    uint64_t driven = 0;
    bool finished = false;

private:
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
    bench.run();

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
        [&](hash_case& c) {
            if (next == cases.size()) return false;
            c = cases[next++];
            return true;
        },
        [&](const hash_case&, uint16_t rtl) {
            got.push_back(rtl);
            return true;
        });
    bench.run();

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
        [&](hash_case& c) {
            if (next == want.size()) return false;
            c = {static_cast<ecmp_hash_method>(next++), k, salt};
            return true;
        },
        [&](const hash_case&, uint16_t rtl) {
            got.push_back(rtl);
            return true;
        });
    bench.run();

    ASSERT_EQ(got.size(), want.size());
    for (size_t m = 0; m < want.size(); ++m) {
        EXPECT_EQ(got[m], want[m]) << "method " << m;
        EXPECT_EQ(got[m], flow_hash16(static_cast<ecmp_hash_method>(m), k, salt)) << "method " << m;
    }
}

// The registered variant: one key per clock with random bubbles, reset (clocked_block holds
// rst_n low for two cycles at construction), out_valid one cycle after in_valid, every hash equal
// to the model's.
TEST(flow_hash_rtl, pipelined_variant_has_one_cycle_latency_and_matches_model)
{
    clocked_block<Vflow_hash_pipe> dut("pipe");
    Vflow_hash_pipe& p = dut.pins();
    EXPECT_EQ(dut.cycles(), 2u);
    EXPECT_EQ(p.out_valid, 0) << "after reset";
    stimulus stim(77);
    std::mt19937 bubbles(5);
    struct pending
    {
        hash_case c;
        uint64_t cycle;
    };
    std::deque<pending> expect;
    const uint64_t cycles = 200000;
    uint64_t issued = 0, retired = 0;
    std::string error;
    for (uint64_t cyc = 0; cyc < cycles && error.empty(); ++cyc) {
        // Drive the key the RTL samples at this cycle's rising edge.
        const bool valid = bubbles() % 10 < 7;
        p.in_valid = valid;
        if (valid) {
            const hash_case c = stim.next();
            p.method = static_cast<uint8_t>(c.method);
            p.protocol = c.key.protocol;
            p.src_ip = c.key.src_ip;
            p.dst_ip = c.key.dst_ip;
            p.src_port = c.key.src_port;
            p.dst_port = c.key.dst_port;
            p.salt = c.salt;
            expect.push_back({c, cyc});
            ++issued;
        }
        dut.tick();
        // Outputs registered at this edge, from the key driven for it.
        if (!p.out_valid) {
            if (valid)
                error = "no out_valid one cycle after in_valid at cycle " + std::to_string(cyc);
            continue;
        }
        if (expect.empty()) {
            error = "out_valid without a key in flight";
            break;
        }
        const pending k = expect.front();
        expect.pop_front();
        const uint16_t model = flow_hash16(k.c.method, k.c.key, k.c.salt);
        if (k.cycle != cyc)
            error = "latency " + std::to_string(cyc + 1 - k.cycle) + " cycles, expected 1";
        else if (p.hash != model)
            error = mismatch_text(retired, k.c, model, p.hash);
        ++retired;
    }

    ASSERT_TRUE(error.empty()) << error;
    EXPECT_GT(issued, cycles / 2);
    EXPECT_EQ(retired, issued);
    EXPECT_EQ(dut.cycles(), cycles + 2);
}

// The wrapper behind the switch's flow_hasher seam, from a SystemC process as the switch calls
// it: `rtl` returns the RTL's hash, `both` the model's, checked against the RTL; no simulated
// time passes; the pins the waveform probe sees are those of the last key; the block's own FST.
TEST(flow_hash_rtl, wrapper_in_rtl_and_both_modes_with_waves)
{
    struct bench_t : sc_core::sc_module
    {
        rtl_flow_hasher rtl{"leaf0.flow_hash", rtl_mode::rtl};
        rtl_flow_hasher both{"leaf1.flow_hash", rtl_mode::both};
        uint64_t n = 20000;
        std::string error;
        explicit bench_t(const sc_core::sc_module_name& nm) : sc_core::sc_module(nm)
        {
            SC_HAS_PROCESS(bench_t);
            SC_THREAD(run);
        }
        void run()
        {
            stimulus stim(1);
            for (uint64_t i = 0; i < n && error.empty(); ++i) {
                const hash_case c = stim.next();
                const uint16_t model = flow_hash16(c.method, c.key, c.salt);
                const sc_core::sc_time before = sc_core::sc_time_stamp();
                const uint16_t a = rtl.hash16(c.method, c.key, c.salt);
                const uint16_t b = both.hash16(c.method, c.key, c.salt);
                if (a != model || b != model) error = mismatch_text(i, c, model, a);
                if (sc_core::sc_time_stamp() != before) error = "the RTL took simulated time";
                wait(1, sc_core::SC_NS);  // one key per ns: readable waves
            }
        }
    };
    const char* keep = std::getenv("UETSIM_RTL_FST");
    const std::string fst =
        keep && keep[0] ? std::string(keep) : test::scratch_dir("flow-hash-fst") + "/flow_hash.fst";
    bench_t bench("bench");
    bench.rtl.core().open_fst(fst);
    struct last_pins : state_probe
    {
        rtl_pin_set* set = nullptr;
        std::vector<uint64_t> v;
        uint64_t calls = 0;
        void changed() override
        {
            ++calls;
            v.clear();
            for (const rtl_pin& p : set->pins()) v.push_back(p.value());
        }
    } probe;
    probe.set = &bench.both.pins();
    bench.both.pins().trace(&probe);
    sc_core::sc_start();

    ASSERT_TRUE(bench.error.empty()) << bench.error;
    EXPECT_EQ(bench.rtl.requests(), bench.n);
    EXPECT_EQ(bench.rtl.checked(), 0u) << "rtl mode compares nothing";
    EXPECT_EQ(bench.both.requests(), bench.n);
    EXPECT_EQ(bench.both.checked(), bench.n);
    EXPECT_EQ(bench.both.mismatches(), 0u);
    EXPECT_EQ(probe.calls, bench.n);
    ASSERT_EQ(probe.v.size(), 8u);  // method protocol src_ip dst_ip src_port dst_port salt hash
    hash_case last;
    last.method = static_cast<ecmp_hash_method>(probe.v[0]);
    last.key.protocol = uint8_t(probe.v[1]);
    last.key.src_ip = uint32_t(probe.v[2]);
    last.key.dst_ip = uint32_t(probe.v[3]);
    last.key.src_port = uint16_t(probe.v[4]);
    last.key.dst_port = uint16_t(probe.v[5]);
    last.salt = uint32_t(probe.v[6]);
    EXPECT_EQ(probe.v[7], flow_hash16(last.method, last.key, last.salt));
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(double(bench.n), sc_core::SC_NS));
    bench.rtl.core().open_fst(fst + ".2");  // closes the first file
    std::error_code ec;
    const auto size = std::filesystem::file_size(fst, ec);
    EXPECT_FALSE(ec) << fst;
    EXPECT_GT(size, 1000u) << fst;
}

// A wrong RTL (the test-only mutant, UETSIM_MUTANT_FLOW_HASH_SPORT5) in both mode: the model's
// hash is still what the switch gets, and the first differing key reaches the mismatch handler
// with its index, the inputs and both outputs. rtl mode returns the mutant's hash unchecked.
TEST(flow_hash_rtl, wrapper_reports_the_first_lockstep_mismatch)
{
    std::vector<rtl_mismatch> seen;
    set_rtl_mismatch_handler([&](const rtl_mismatch& m) { seen.push_back(m); });
    rtl_flow_hasher both("leaf0.flow_hash", rtl_mode::both,
                         std::make_unique<flow_hash_block<Vflow_hash_mutant>>("mutant"));
    rtl_flow_hasher rtl("leaf1.flow_hash", rtl_mode::rtl,
                        std::make_unique<flow_hash_block<Vflow_hash_mutant>>("mutant"));
    flow_key k;
    k.src_ip = 0x0A000001u;
    k.dst_ip = 0x0A000102u;
    k.dst_port = 4793;
    const uint16_t sports[] = {0xC000, 0xC001, 0xC005, 0xC00D};
    for (uint16_t sp : sports) {
        k.src_port = sp;
        EXPECT_EQ(both.hash16(ecmp_hash_method::crc32, k, 0),
                  flow_hash16(ecmp_hash_method::crc32, k, 0));
        EXPECT_EQ(rtl.hash16(ecmp_hash_method::crc32, k, 0),
                  flow_hash16(ecmp_hash_method::crc32, k, 0) ^ ((sp & 7) == 5 ? 1 : 0));
    }
    set_rtl_mismatch_handler({});

    EXPECT_EQ(both.checked(), 4u);
    EXPECT_EQ(both.mismatches(), 2u);
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].component, "leaf0.flow_hash");
    EXPECT_EQ(seen[0].request_index, 2u);
    EXPECT_EQ(seen[0].request,
              "method=1 (crc32) protocol=17 src_ip=0x0a000001 dst_ip=0x0a000102 src_port=49157 "
              "dst_port=4793 salt=0x00000000");
    k.src_port = 0xC005;
    const uint16_t model = flow_hash16(ecmp_hash_method::crc32, k, 0);
    EXPECT_EQ(seen[0].model, describe_hash(model));
    EXPECT_EQ(seen[0].rtl, describe_hash(uint16_t(model ^ 1)));
    EXPECT_EQ(seen[1].request_index, 3u);
    EXPECT_EQ(describe_hash(0x867a), "0x867a");
}

// $finish/$stop/fatal from Verilated code go through the model's one error channel (STYLE.md
// P6, docs/architecture.md "Errors"): a fatal throws naming where it came from, never a silent
// exit(0), and it does not return.
TEST(flow_hash_rtl, verilator_fatal_throws_naming_where)
{
    std::string what;
    try {
        vl_fatal("flow_hash.sv", 42, "top.flow_hash", "injected");
    } catch (const std::runtime_error& e) {
        what = e.what();
    }
    EXPECT_NE(what.find("injected at flow_hash.sv:42 (top.flow_hash)"), std::string::npos) << what;
    vl_finish("flow_hash.sv", 43, "top.flow_hash");  // not running: only an info report
    EXPECT_EQ(sc_core::sc_get_status(), sc_core::SC_ELABORATION);
}

namespace {

// A thread that calls `hook` (a Verilator runtime hook) at 5 ns and would go on 5 ns later.
struct hook_bench : sc_core::sc_module
{
    std::function<void()> hook;
    bool went_on = false;
    hook_bench(const sc_core::sc_module_name& nm, std::function<void()> h)
        : sc_core::sc_module(nm), hook(std::move(h))
    {
        SC_HAS_PROCESS(hook_bench);
        SC_THREAD(run);
    }
    void run()
    {
        wait(5, sc_core::SC_NS);
        hook();
        wait(5, sc_core::SC_NS);
        went_on = true;
    }
};

}  // namespace

// Verilog $finish stops the SystemC kernel (no exit(0), no second-$finish surprise).
TEST(flow_hash_rtl, verilog_finish_stops_the_kernel)
{
    hook_bench bench("bench", [] { vl_finish("flow_hash.sv", 8, "top.flow_hash"); });
    sc_core::sc_start(100, sc_core::SC_NS);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(5, sc_core::SC_NS));
    EXPECT_FALSE(bench.went_on);
    EXPECT_EQ(sc_core::sc_get_status(), sc_core::SC_STOPPED);
}

// $stop (also what a failed RTL assertion calls) stops the kernel and is an error: it leaves
// sc_start as SystemC's report of the exception, naming where it came from.
TEST(flow_hash_rtl, verilog_stop_is_an_error_that_stops_the_run)
{
    hook_bench bench("bench", [] { vl_stop("flow_hash.sv", 7, "top.flow_hash"); });
    // The error leaves the kernel as a SystemC report; catch it here rather than fail on it.
    sc_core::sc_report_handler::set_handler(
        [](const sc_core::sc_report& r, const sc_core::sc_actions&) { throw r; });
    std::string message;
    try {
        sc_core::sc_start(100, sc_core::SC_NS);
    } catch (const std::exception& e) {
        message = e.what();
    }
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(5, sc_core::SC_NS));
    EXPECT_FALSE(bench.went_on);
    EXPECT_NE(message.find("Verilog $stop at flow_hash.sv:7"), std::string::npos) << message;
}
