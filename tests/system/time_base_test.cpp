// Simulation.TimeBase: the kernel time base (every due time a kernel event, the model never
// ahead of sc_time_stamp()) gives the same records as the decoupled one (the model ahead within
// the global quantum), on every example; Simulation.Quantum changes no record; bad values of
// either key stop the run before it starts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;
namespace fs = std::filesystem;

namespace {

// The manifest without what may differ: wall-clock figures, the wake-ups executed (the
// decoupled time base holds back frame ends nothing waits on) and the keys compared.
nlohmann::json comparable_manifest(const std::string& path)
{
    auto j = nlohmann::json::parse(read_text(path));
    for (const char* k :
         {"wall_time_s", "elaboration_wall_time_s", "peak_rss_bytes", "events_executed"})
        j.erase(k);
    j["scenario"]["Simulation"].erase("TimeBase");
    j["scenario"]["Simulation"].erase("Quantum");
    return j;
}

uint64_t events_executed(const std::string& path)
{
    return nlohmann::json::parse(read_text(path)).at("events_executed");
}

std::vector<std::string> files_under(const std::string& dir)
{
    std::vector<std::string> out;
    for (auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).string());
    std::sort(out.begin(), out.end());
    return out;
}

// Every record of `a` equals `b`'s byte for byte, the manifests as comparable_manifest; returns
// the number of CSVs compared.
int expect_same_records(const std::string& a, const std::string& b, const std::string& what)
{
    const auto fa = files_under(a), fb = files_under(b);
    EXPECT_EQ(fa, fb) << what;
    int csvs = 0;
    for (const auto& f : fa) {
        if (!fs::exists(b + "/" + f)) continue;
        if (f.find("manifest") != std::string::npos) {
            EXPECT_EQ(comparable_manifest(a + "/" + f), comparable_manifest(b + "/" + f))
                << what << " " << f;
            continue;
        }
        // A waveform file holds the date it was written (FST's header): not comparable.
        if (fs::path(f).extension() == ".fst") continue;
        if (fs::path(f).extension() == ".csv") ++csvs;
        EXPECT_TRUE(read_text(a + "/" + f) == read_text(b + "/" + f)) << what << ": " << f;
    }
    return csvs;
}

std::string manifest_in(const std::string& dir)
{
    for (auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().find("manifest") != std::string::npos)
            return e.path().string();
    ADD_FAILURE() << "no manifest in " << dir;
    return "";
}

std::vector<std::string> examples()
{
    std::vector<std::string> out;
    for (auto& e : fs::directory_iterator(source_dir() + "/examples"))
        if (e.path().extension() == ".yaml") out.push_back(e.path().stem().string());
    std::sort(out.begin(), out.end());
    return out;
}

class every_example : public ::testing::TestWithParam<std::string>
{
};

}  // namespace

TEST_P(every_example, gives_the_same_records_in_the_kernel_time_base)
{
    const std::string yaml = source_dir() + "/examples/" + GetParam() + ".yaml";
    const std::string a = scratch_dir("tb-decoupled"), b = scratch_dir("tb-kernel");
    auto ra = run_uetsim({"run", yaml, "--quiet", "--out", a});
    auto rb =
        run_uetsim({"run", yaml, "--quiet", "--out", b, "--set", "Simulation.TimeBase=kernel"});
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;
    EXPECT_NE(ra.out.find("scoreboard            ok"), std::string::npos) << ra.out;
    EXPECT_NE(rb.out.find("scoreboard            ok"), std::string::npos) << rb.out;
    EXPECT_GE(expect_same_records(a, b, GetParam()), 1);
    // Nothing is held back in the kernel time base: at least as many wake-ups run.
    EXPECT_GE(events_executed(manifest_in(b)), events_executed(manifest_in(a)));
    const auto jb = nlohmann::json::parse(read_text(manifest_in(b)));
    EXPECT_EQ(jb["scenario"]["Simulation"]["TimeBase"], "kernel");
}

INSTANTIATE_TEST_SUITE_P(time_base, every_example, ::testing::ValuesIn(examples()),
                         [](const auto& info) {
                             std::string n = info.param;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

// The quantum is how far the model runs ahead and how often a run looks at a stop request;
// the order of the wake-ups, and so every record, is the same for any quantum.
TEST(time_base, the_quantum_changes_no_record)
{
    const std::string a = scratch_dir("q-default"), b = scratch_dir("q-1us");
    const std::vector<std::string> common = {"run", "--quiet", "--set", "Simulation.RunTime=1ms"};
    auto args = [&](const std::string& out, const std::vector<std::string>& more) {
        std::vector<std::string> v = common;
        v.insert(v.end(), {"--out", out});
        v.insert(v.end(), more.begin(), more.end());
        return v;
    };
    auto ra = run_uetsim(args(a, {}));
    auto rb = run_uetsim(args(b, {"--set", "Simulation.Quantum=1us"}));
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;
    EXPECT_GE(expect_same_records(a, b, "quantum 1us"), 3);
    const auto ja = nlohmann::json::parse(read_text(manifest_in(a)));
    const auto jb = nlohmann::json::parse(read_text(manifest_in(b)));
    EXPECT_EQ(ja["scenario"]["Simulation"]["TimeBase"], "decoupled");  // the defaults, shown
    EXPECT_DOUBLE_EQ(ja["scenario"]["Simulation"]["Quantum"].get<double>(), 10e-6);
    EXPECT_DOUBLE_EQ(jb["scenario"]["Simulation"]["Quantum"].get<double>(), 1e-6);
}

TEST(time_base, bad_values_stop_the_run_before_it_starts)
{
    struct bad
    {
        std::string set, key, value, allowed;
    };
    for (const bad& c : {bad{"Simulation.TimeBase=lockstep", "Simulation.TimeBase", "lockstep",
                             "decoupled, kernel"},
                         bad{"Simulation.Quantum=0s", "Simulation.Quantum", "0s", "1ns..1ms"},
                         bad{"Simulation.Quantum=2ms", "Simulation.Quantum", "2ms", "1ns..1ms"}}) {
        const std::string out = scratch_dir("tb-bad");
        auto r = run_uetsim({"run", "--quiet", "--out", out, "--set", c.set});
        EXPECT_EQ(r.exit_code, 2) << c.set << ": " << r.err;
        EXPECT_NE(r.err.find(c.key), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(c.value), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(c.allowed), std::string::npos) << r.err;
        EXPECT_TRUE(fs::is_empty(out)) << c.set << ": something was written";
    }
}

// UETSIM_TIME_BASE is the component tier's hook (tests/CMakeLists.txt); a run takes its time base
// from the key, and a value the hook does not know is bad input too.
TEST(time_base, an_unknown_UETSIM_TIME_BASE_is_bad_input)
{
    const std::string out = scratch_dir("tb-env");
    setenv("UETSIM_TIME_BASE", "lockstep", 1);
    auto r = run_uetsim({"run", "--quiet", "--out", out, "--set", "Simulation.RunTime=1ms"});
    unsetenv("UETSIM_TIME_BASE");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("UETSIM_TIME_BASE=lockstep"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("decoupled and kernel"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out + "/uetsim-manifest.json"));
}
