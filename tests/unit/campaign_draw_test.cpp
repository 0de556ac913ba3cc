// The campaign's case draw: each case is the same whenever it is drawn, different from its
// neighbours, stays inside the campaign file's ranges, resolves as a scenario, and every fault
// it schedules ends (so a failure is the model's, never the draw's). Bad campaign files are
// refused naming the key.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include <yaml-cpp/yaml.h>

#include "sim/campaign/campaign_file.h"
#include "sim/campaign/case_draw.h"
#include "sim/config/loader.h"
#include "sim/units.h"
#include "tests/support/run_uetsim.h"

namespace uetsim::campaign {
namespace {

using test::scratch_dir;
using test::source_dir;
using test::write_file;

campaign_spec example()
{
    return read_campaign_file(source_dir() + "/examples/campaign/faults.yaml");
}

TEST(campaign_draw, a_case_is_the_same_whenever_it_is_drawn)
{
    const campaign_spec spec = example();
    EXPECT_EQ(draw_case(spec, 7).yaml, draw_case(spec, 7).yaml);
    EXPECT_NE(draw_case(spec, 7).yaml, draw_case(spec, 8).yaml);
    campaign_spec other = spec;
    other.seed = spec.seed + 1;
    EXPECT_NE(draw_case(spec, 7).yaml, draw_case(other, 7).yaml);
}

TEST(campaign_draw, cases_stay_in_their_ranges_and_every_fault_ends)
{
    const campaign_spec spec = example();
    std::set<std::string> nics, patterns, kinds;
    for (uint32_t i = 0; i < 300; ++i) {
        const drawn_case c = draw_case(spec, i);
        ASSERT_TRUE(c.refused.empty()) << "case " << i << ": " << c.refused << "\n" << c.yaml;
        const YAML::Node doc = YAML::Load(c.yaml);
        nics.insert(c.nic);
        patterns.insert(c.pattern);
        const uint32_t hosts = std::stoul(c.topology.substr(c.topology.find(' ') + 1));
        std::map<uint32_t, int> sends, receives;
        for (const auto& f : doc["Flows"]) {
            const uint32_t src = f["Src"].as<uint32_t>(), dst = f["Dst"].as<uint32_t>();
            EXPECT_NE(src, dst) << c.yaml;
            EXPECT_LT(src, hosts);
            EXPECT_LT(dst, hosts);
            const uint64_t b = parse_bytes(f["Bytes"].as<std::string>());
            EXPECT_GE(double(b), std::floor(spec.workload.bytes.lo)) << c.yaml;
            EXPECT_LE(double(b), std::ceil(spec.workload.bytes.hi)) << c.yaml;
            if (f["Start"]) {
                EXPECT_LE(parse_quantity(f["Start"].as<std::string>(), dimension::time),
                          spec.workload.start.hi + 1e-9);
            }
            ++sends[src];
            ++receives[dst];
        }
        if (c.pattern == "permutation") {
            EXPECT_EQ(sends.size(), hosts) << c.yaml;
            EXPECT_EQ(receives.size(), hosts) << c.yaml;
        }
        if (c.pattern == "incast") {
            EXPECT_EQ(receives.size(), 1u) << c.yaml;
        }
        // Each down or degrade or loss is followed by an up on its link, each pause by a resume.
        std::map<std::string, int> open;
        double last = 0;
        for (const auto& f : doc["Faults"]) {
            const double at = parse_quantity(f["At"].as<std::string>(), dimension::time);
            EXPECT_GE(at, last) << "faults in time order\n" << c.yaml;
            EXPECT_LE(at, spec.faults.at.hi + spec.faults.duration.hi + 2e-9) << c.yaml;
            last = at;
            const std::string link = f["Link"].as<std::string>(), a = f["Action"].as<std::string>();
            kinds.insert(a);
            if (a == "down" || a == "degrade" || a == "loss") ++open[link];
            if (a == "pause") {
                EXPECT_EQ(link.rfind("host", 0), 0u) << "a storm is on a host link\n" << c.yaml;
                ++open["pause " + link];
            }
            if (a == "up") open[link] = 0;
            if (a == "resume") --open["pause " + link];
            if (a == "loss") {
                const double p = f["Loss"].as<double>();
                EXPECT_GE(p, spec.faults.loss.lo);
                EXPECT_LE(p, spec.faults.loss.hi);
            }
        }
        for (const auto& [link, n] : open) EXPECT_LE(n, 0) << link << " never ends\n" << c.yaml;
        if (doc["Faults"]) {
            EXPECT_LE(doc["Faults"].size(), 2 * spec.faults.count.hi);
        }
    }
    // 300 cases reach every value the file lists.
    EXPECT_EQ(nics, (std::set<std::string>{"roce", "uet"}));
    EXPECT_EQ(patterns.size(), 5u);
    EXPECT_EQ(kinds, (std::set<std::string>{"degrade", "down", "loss", "pause", "resume", "up"}));
}

std::string refusal(const std::string& text)
{
    const std::string path = write_file(scratch_dir("campaign-file") + "/c.yaml", text);
    try {
        read_campaign_file(path);
    } catch (const config::config_error& e) {
        return e.what();
    }
    return "";
}

TEST(campaign_draw, bad_campaign_files_name_the_key)
{
    EXPECT_NE(refusal("Workload: {Pattern: [incast]}\n")
                  .find("unknown key 'Workload.Pattern'; did you mean 'Patterns'?"),
              std::string::npos);
    EXPECT_NE(refusal("Workload: {Patterns: [incest]}\n")
                  .find("Workload.Patterns: 'incest' is not one of permutation, incast, random, "
                        "all-to-all, collective"),
              std::string::npos);
    EXPECT_NE(refusal("Draw: {Nic.Type: [uet, rocky]}\n")
                  .find("Draw.Nic.Type: the value 'rocky' does not resolve"),
              std::string::npos);
    EXPECT_NE(refusal("Faults: {Count: [3, 1], Kinds: [flap]}\n")
                  .find("Faults.Count: the range's low end is above its high end"),
              std::string::npos);
    EXPECT_NE(refusal("Faults: {Count: 2}\n")
                  .find("Faults.Kinds: a campaign with faults names their kinds"),
              std::string::npos);
    EXPECT_NE(refusal("Faults: {Loss: [0, 2], Kinds: [loss]}\n")
                  .find("Faults.Loss: '2' is not a probability from 0 to 1"),
              std::string::npos);
    EXPECT_NE(refusal("Cases: 0\n").find("Cases: 0 is outside 1 .. 1000000"), std::string::npos);
    EXPECT_NE(refusal("Workload: {Patterns: [collective]}\n")
                  .find("collective needs Workload.Collectives"),
              std::string::npos);
    EXPECT_EQ(refusal("Cases: 3\n"), "");
    // A seed is any 64-bit value, and nothing above (found by the campaign fuzzer: a double
    // cannot hold it).
    EXPECT_NE(refusal("Seed: 78888888888888888888888888\n")
                  .find("Seed: '78888888888888888888888888' is not a whole number from 0 to "
                        "18446744073709551615"),
              std::string::npos);
    EXPECT_NE(refusal("Seed: -1\n").find("Seed: '-1' is not a whole number"), std::string::npos);
    EXPECT_NE(refusal("Seed: 1.5\n").find("Seed: '1.5' is not a whole number"), std::string::npos);
    EXPECT_EQ(refusal("Seed: 18446744073709551615\n"), "");
}

TEST(campaign_draw, a_seed_above_2_to_the_53_is_read_exactly)
{
    const std::string path =
        write_file(scratch_dir("campaign-seed") + "/c.yaml", "Seed: 18446744073709551615\n");
    EXPECT_EQ(read_campaign_file(path).seed, 18446744073709551615ull);
}

}  // namespace
}  // namespace uetsim::campaign
