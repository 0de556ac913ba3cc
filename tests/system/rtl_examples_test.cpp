// Every built-in RTL block in every mode on every example (examples/*.yaml), every other key at
// the example's value or its default (docs/rtl.md, "Latency"): with Rtl.FlowHash,
// Rtl.EntropyLoadBalancer and Rtl.SackTracker all `rtl`, then all `both`, each run exits 0 with a
// clean scoreboard and no mismatch, the blocks that the example's traffic reaches answer, and
// every CSV record is byte-identical to the `model` run's. The two application examples run a
// shorter RunTime (the same traffic, fewer connections); the others run whole.
// bench/rtl_modes_all.sh does the same for the bench scenarios too.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;
using json = nlohmann::json;

namespace {

const char* const k_blocks[] = {"FlowHash", "EntropyLoadBalancer", "SackTracker"};

// The example's manifest after a run that exits 0 with a clean scoreboard.
json run_ok(const std::string& example, const std::string& out, std::vector<std::string> sets)
{
    std::vector<std::string> args = {"run", source_dir() + "/examples/" + example + ".yaml",
                                     "--quiet", "--out", out};
    for (auto& s : sets) args.insert(args.end(), {"--set", s});
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << example << " " << (sets.empty() ? "" : sets.back()) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << example << r.out;
    for (const auto& e : std::filesystem::directory_iterator(out))
        if (e.path().filename().string().find("-manifest.json") != std::string::npos)
            return json::parse(read_text(e.path().string()));
    ADD_FAILURE() << example << ": no manifest in " << out;
    return json::object();
}

// `example` in model, rtl and both; `answering`: the blocks its traffic reaches (a UET NIC's two
// engines; the switches' flow hash where a switch has more than one path to spray over).
void check_example(const std::string& example, std::vector<std::string> sets,
                   const std::vector<std::string>& answering)
{
    const std::string dir = scratch_dir("rtl-ex-" + example);
    run_ok(example, dir + "/model", sets);
    const auto want = csv_files(dir + "/model");
    ASSERT_FALSE(want.empty()) << example;
    for (const std::string mode : {"rtl", "both"}) {
        std::vector<std::string> s = sets;
        for (const char* block : k_blocks) s.push_back(std::string("Rtl.") + block + "=" + mode);
        const std::string out = dir + "/" + mode;
        const json m = run_ok(example, out, s);
        ASSERT_TRUE(m.contains("rtl")) << example << " " << mode;
        EXPECT_FALSE(m.at("rtl").contains("mismatch")) << example << " " << mode;
        for (const std::string& block : answering) {
            const json& b = m.at("rtl").at("blocks").at(block);
            EXPECT_GT(b.at("requests").get<uint64_t>(), 0u)
                << example << " " << mode << " " << block;
            EXPECT_EQ(b.at("checked").get<uint64_t>(),
                      mode == "both" ? b.at("requests").get<uint64_t>() : 0u)
                << example << " " << mode << " " << block;
        }
        const auto got = csv_files(out);
        EXPECT_EQ(got.size(), want.size()) << example << " " << mode;
        for (const auto& [name, text] : want) {
            ASSERT_TRUE(got.count(name)) << example << " " << mode << " " << name;
            EXPECT_TRUE(text == got.at(name))
                << example << ": " << name << " differs between model and " << mode;
        }
    }
}

const std::vector<std::string> uet_nic = {"EntropyLoadBalancer", "SackTracker"};
const std::vector<std::string> uet_nic_and_switches = {"FlowHash", "EntropyLoadBalancer",
                                                       "SackTracker"};
const std::vector<std::string> switches = {"FlowHash"};

}  // namespace

TEST(rtl_examples, collectives)
{
    check_example("collectives", {"Simulation.RunTime=2ms"}, uet_nic_and_switches);
}

TEST(rtl_examples, collision_8x8)
{
    check_example("collision-8x8", {}, switches);  // raw hosts: no NIC engines
}

TEST(rtl_examples, fat_tree)
{
    check_example("fat-tree", {}, switches);  // raw hosts
}

TEST(rtl_examples, lossless_hol_blocking)
{
    check_example("lossless-hol-blocking", {}, uet_nic);  // one path between any two hosts
}

TEST(rtl_examples, rdma_incast)
{
    check_example("rdma-incast", {"Simulation.RunTime=1ms"}, uet_nic_and_switches);
}

TEST(rtl_examples, mixed_fabric)
{
    // UET hosts beside RoCE hosts; one spine, so no switch has a choice to hash.
    check_example("mixed-fabric", {}, {"EntropyLoadBalancer", "SackTracker"});
}

TEST(rtl_examples, roce_incast)
{
    check_example("roce-incast", {}, {});  // RoCE NICs and one switch: no block is reached
}

TEST(rtl_examples, single_switch_incast)
{
    check_example("single-switch-incast", {}, {});  // raw hosts on one switch
}

TEST(rtl_examples, uet_spraying)
{
    check_example("uet-spraying", {}, uet_nic_and_switches);
}

// A new example must be added above.
TEST(rtl_examples, every_example_is_covered)
{
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(source_dir() + "/examples"))
        if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names,
              (std::vector<std::string>{"collectives", "collision-8x8", "fat-tree",
                                        "lossless-hol-blocking", "mixed-fabric", "rdma-incast",
                                        "roce-incast", "single-switch-incast", "uet-spraying"}));
}
