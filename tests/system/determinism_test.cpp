// Same scenario and seed: byte-identical records (the manifest's wall-clock members aside).
// A different seed: different ECMP placements.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;
namespace fs = std::filesystem;

namespace {

nlohmann::json manifest_without_wall_time(const std::string& path)
{
    auto j = nlohmann::json::parse(read_text(path));
    j.erase("wall_time_s");
    j.erase("elaboration_wall_time_s");
    j.erase("peak_rss_bytes");
    return j;
}

}  // namespace

TEST(determinism, default_scenario_twice_gives_identical_records)
{
    const std::string a = scratch_dir("det-a"), b = scratch_dir("det-b");
    auto ra = run_uetsim({"run", "--quiet", "--out", a});
    auto rb = run_uetsim({"run", "--quiet", "--out", b});
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;
    EXPECT_NE(ra.out.find("scoreboard            ok"), std::string::npos) << ra.out;
    int csvs = 0;
    for (auto& e : fs::directory_iterator(a)) {
        const std::string name = e.path().filename().string();
        ASSERT_TRUE(fs::exists(b + "/" + name)) << name;
        if (e.path().extension() == ".csv") {
            ++csvs;
            EXPECT_EQ(read_text(a + "/" + name), read_text(b + "/" + name)) << name;
        } else if (name.find("manifest") != std::string::npos) {
            EXPECT_EQ(manifest_without_wall_time(a + "/" + name),
                      manifest_without_wall_time(b + "/" + name));
        }
    }
    EXPECT_GE(csvs, 3);
}

TEST(determinism, another_seed_changes_the_placement)
{
    const std::string a = scratch_dir("seed-a"), b = scratch_dir("seed-b");
    ASSERT_EQ(run_uetsim({"run", "--quiet", "--out", a, "--set", "Simulation.RandomSeed=1", "--set",
                          "Simulation.RunTime=2ms"})
                  .exit_code,
              0);
    ASSERT_EQ(run_uetsim({"run", "--quiet", "--out", b, "--set", "Simulation.RandomSeed=2", "--set",
                          "Simulation.RunTime=2ms"})
                  .exit_code,
              0);
    const std::string f = "/uetsim-scala-switch-load-balancing-stats-0.csv";
    EXPECT_NE(read_text(a + f), read_text(b + f));
}
