// The Verilated flow-hash block beside every switch of a loaded fabric, in lockstep with the
// C++ hash: every hash a switch computes is checked, and the run completes with no mismatch
// (a mismatch throws, and leaves the kernel as a SystemC report the test harness turns into a
// failure).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testbench/run/simulation.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

TEST(switch_lockstep, rtl_flow_hash_checks_every_hash_of_a_loaded_fabric)
{
    scenario sc;
    sc.simulation.name = "lock";
    sc.rtl.modes["FlowHash"] = rtl_mode::both;
    for (uint32_t h = 0; h < 16; ++h) {
        flow_spec f;
        f.src = h;
        f.dst = (h + 8) % 16;
        f.bytes = 256 * 1024;
        sc.flows.messages.push_back(f);
    }
    const std::string dir = test::scratch_dir("lock");
    run_options o;
    o.out_dir = dir;
    run_summary s = run_simulation(sc, o);
    EXPECT_TRUE(s.scoreboard_ok) << s.scoreboard_message;
    auto m = nlohmann::json::parse(test::read_text(dir + "/lock-manifest.json"));
    // Each data packet is hashed at its leaf (8 uplinks); ACKs too on their way back.
    EXPECT_GT(m.at("rtl_flow_hash_checks").get<uint64_t>(), 16u * 64);
}
