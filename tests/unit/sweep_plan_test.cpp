// The sweep's pure logic: ranges, value matching, run ids, the cross product with Exclude rules,
// nearest-rank percentiles, summary cells and the progress estimate (hand-derived numbers).
#include <gtest/gtest.h>

#include "sim/sweep/csv_table.h"
#include "hw/common/nearest_rank.h"
#include "sim/sweep/sweep_plan.h"
#include "sim/sweep/sweep_progress.h"

namespace uetsim::sweep {
namespace {

using strings = std::vector<std::string>;

TEST(sweep_plan, ranges_include_both_ends)
{
    EXPECT_EQ(range_values("1", "5", "2"), (strings{"1", "3", "5"}));
    EXPECT_EQ(range_values("1", "6", "2"), (strings{"1", "3", "5"}));
    // 0.1 steps do not drift: 0.3 is printed as 0.3, and To is kept despite rounding.
    EXPECT_EQ(range_values("0.1", "0.3", "0.1"), (strings{"0.1", "0.2", "0.3"}));
    EXPECT_EQ(range_values("2us", "6us", "2us"), (strings{"2us", "4us", "6us"}));
    EXPECT_EQ(range_values("7", "7", "1"), (strings{"7"}));
}

TEST(sweep_plan, bad_ranges_say_why)
{
    auto why = [](const std::string& f, const std::string& t, const std::string& s) {
        try {
            range_values(f, t, s);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(why("5", "1", "1"), "To 1 is below From 5");
    EXPECT_EQ(why("1", "5", "0"), "Step 0 must be positive");
    EXPECT_EQ(why("1", "5", "-1"), "Step -1 must be positive");
    EXPECT_EQ(why("1us", "5ms", "1us"), "From, To and Step take the same unit (1us, 5ms, 1us)");
    EXPECT_EQ(why("a", "5", "1"), "From 'a' is not a number");
    EXPECT_EQ(why("0", "1e6", "1"), "1000001 values; a range holds at most 100000");
}

TEST(sweep_plan, values_match_as_text_or_as_numbers)
{
    EXPECT_TRUE(same_value("None", "None"));
    EXPECT_FALSE(same_value("None", "none"));
    EXPECT_TRUE(same_value("7", "7.0"));
    EXPECT_TRUE(same_value("1e3", "1000"));
    EXPECT_FALSE(same_value("7us", "7"));
}

TEST(sweep_plan, id_fragments_are_folder_safe)
{
    EXPECT_EQ(id_fragment("Default Packet Spraying"), "Default-Packet-Spraying");
    EXPECT_EQ(id_fragment("[leaf0-spine1, 100Gbps]"), "leaf0-spine1-100Gbps");
    EXPECT_EQ(id_fragment("a_b/c"), "a-b-c");
    EXPECT_EQ(id_fragment("1.5e+3"), "1.5e+3");
    EXPECT_EQ(id_fragment("//"), "-");
}

plan two_by_three()
{
    plan p;
    p.sets = {"Simulation.RunTime=5ms"};
    p.axes = {{"UetNic.PacketSprayingType", {"None", "Default Packet Spraying"}},
              {"Simulation.RandomSeed", {"1", "2", "3"}}};
    return p;
}

TEST(sweep_plan, cross_product_first_axis_outermost)
{
    const auto runs = two_by_three().runs();
    ASSERT_EQ(runs.size(), 6u);
    EXPECT_EQ(runs[0].id, "PacketSprayingType=None_RandomSeed=1");
    EXPECT_EQ(runs[2].id, "PacketSprayingType=None_RandomSeed=3");
    EXPECT_EQ(runs[3].id, "PacketSprayingType=Default-Packet-Spraying_RandomSeed=1");
    EXPECT_EQ(runs[5].value_index, (std::vector<size_t>{1, 2}));
    for (size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(runs[i].index, i);
    EXPECT_EQ(
        two_by_three().run_sets(runs[4]),
        (strings{"Simulation.RunTime=5ms", "UetNic.PacketSprayingType=Default Packet Spraying",
                 "Simulation.RandomSeed=2"}));
}

TEST(sweep_plan, exclude_rules_leave_out_matching_runs)
{
    plan p = two_by_three();
    p.excludes = {{{{0, 0}, {1, 1}}},  // None with seed 2
                  {{{1, 2}}}};         // every run with seed 3
    const auto runs = p.runs();
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].id, "PacketSprayingType=None_RandomSeed=1");
    EXPECT_EQ(runs[1].id, "PacketSprayingType=Default-Packet-Spraying_RandomSeed=1");
    EXPECT_EQ(runs[2].id, "PacketSprayingType=Default-Packet-Spraying_RandomSeed=2");
    EXPECT_EQ(runs[2].index, 2u);
}

TEST(sweep_plan, clashing_names_use_whole_keys_and_ids_stay_unique)
{
    plan p;
    p.axes = {{"Switch.EcmpHashMethod", {"crc32"}},
              {"Switch[leaf*].EcmpHashMethod", {"hash", "a b", "a-b"}}};
    const auto runs = p.runs();
    ASSERT_EQ(runs.size(), 3u);
    EXPECT_EQ(runs[0].id, "Switch.EcmpHashMethod=crc32_Switch-leaf-.EcmpHashMethod=hash");
    EXPECT_EQ(runs[1].id, "Switch.EcmpHashMethod=crc32_Switch-leaf-.EcmpHashMethod=a-b");
    EXPECT_EQ(runs[2].id, "Switch.EcmpHashMethod=crc32_Switch-leaf-.EcmpHashMethod=a-b~2");
}

TEST(sweep_percentile, nearest_rank)
{
    const std::vector<double> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    EXPECT_EQ(nearest_rank(ten, 50), 5);   // rank ceil(5) = 5
    EXPECT_EQ(nearest_rank(ten, 99), 10);  // rank ceil(9.9) = 10
    EXPECT_EQ(nearest_rank(ten, 10), 1);
    EXPECT_EQ(nearest_rank(ten, 11), 2);  // rank ceil(1.1) = 2
    EXPECT_EQ(nearest_rank({42}, 99), 42);
    EXPECT_EQ(nearest_rank({1, 3}, 50), 1);
}

TEST(sweep_summary, cells_are_quoted_only_when_needed)
{
    EXPECT_EQ(csv_cell("plain"), "plain");
    EXPECT_EQ(csv_cell("a, b"), "\"a, b\"");
    EXPECT_EQ(csv_cell("say \"x\""), "\"say \"\"x\"\"\"");
}

TEST(sweep_progress, eta_from_the_pace_of_this_invocation)
{
    sweep_progress p(10, 4);  // 4 complete before this invocation
    EXPECT_EQ(p.eta_s(5), -1);
    p.finished(true);
    p.finished(false);
    EXPECT_EQ(p.done(), 6u);
    EXPECT_EQ(p.failed(), 1u);
    EXPECT_DOUBLE_EQ(p.eta_s(8), 16);  // 2 runs in 8 s, 4 left
    EXPECT_EQ(p.line(8, "x"), "sweep: 6/10 done, 1 failed, eta 16 s: x");
}

}  // namespace
}  // namespace uetsim::sweep
