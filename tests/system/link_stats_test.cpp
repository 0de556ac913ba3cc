// The link-stats record (docs/link-layer.md, docs/records.md): two rows per link every interval,
// frames and bytes as the sending port started them, corrupted as the receiving end's FCS check
// dropped them.
//
// Numbers used below, at the defaults (leaf-spine, 16 hosts, 8 per leaf, 8 spines, 400 Gbps,
// MSS 4096): a raw host sends a 1 MiB message as 256 full frames of 4096 + 106 = 4202 bytes on
// the wire, 1,075,712 bytes.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

// The last row of each link direction ("leaf0-spine3/a_to_b").
std::map<std::string, size_t> last_rows(const csv& c)
{
    std::map<std::string, size_t> last;
    for (size_t i = 0; i < c.rows.size(); ++i)
        last[c.str(i, "link_name") + "/" + c.str(i, "direction")] = i;
    return last;
}

}  // namespace

TEST(link_stats, frames_bytes_and_fcs_drops_per_link_direction)
{
    // One raw 1 MiB message host0 -> host8 over one spine (a raw host's frames keep one
    // entropy); a bit error rate on every leaf0-spine link corrupts some of them on the way up.
    const std::string dir = scratch_dir("link-stats");
    const std::string y =
        "Simulation: {Name: l, StopTime: 10ms, NDStatsReportInterval: 5us}\nNic: {Type: raw}\n"
        "Records: {Enabled: [nd-stats, link-stats]}\n"
        "Link[leaf0-spine*]: {BitErrorRate: 1e-6}\n"
        "Flows:\n  - {Src: 0, Dst: 8, Bytes: 1MiB}\n";
    const command_result r =
        run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const csv ls = read_csv(dir + "/l-link-stats-0.csv");
    const auto last = last_rows(ls);
    ASSERT_EQ(last.size(), 2u * (16u + 2u * 8u));  // every link, both directions
    // Two rows per link per interval, in link order, a_to_b first.
    ASSERT_EQ(ls.rows.size() % last.size(), 0u);
    EXPECT_EQ(ls.str(0, "link_name"), "host0-leaf0");
    EXPECT_EQ(ls.str(0, "direction"), "a_to_b");
    EXPECT_EQ(ls.str(1, "direction"), "b_to_a");
    EXPECT_EQ(ls.str(0, "from"), "host0");
    EXPECT_EQ(ls.str(1, "from"), "leaf0");

    const size_t up = last.at("host0-leaf0/a_to_b");
    EXPECT_EQ(ls.num(up, "frames"), 256);
    EXPECT_EQ(ls.num(up, "bytes"), 256 * 4202);
    EXPECT_EQ(ls.num(last.at("host0-leaf0/b_to_a"), "frames"), 0);  // raw hosts answer nothing
    // Over the spines: every frame crosses one leaf0-spine link, and those the FCS check drops
    // there never reach host8.
    double spine_frames = 0, corrupted = 0;
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/l-manifest.json"));
    for (int s = 0; s < 8; ++s) {
        const std::string n = "leaf0-spine" + std::to_string(s);
        const size_t i = last.at(n + "/a_to_b");
        spine_frames += ls.num(i, "frames");
        corrupted += ls.num(i, "corrupted");
        EXPECT_EQ(ls.num(i, "corrupted"), m["fcs_errors"][n]["a_to_b"].get<double>()) << n;
        EXPECT_EQ(ls.num(i, "bytes"), ls.num(i, "frames") * 4202) << n;
    }
    EXPECT_EQ(spine_frames, 256);
    EXPECT_GT(corrupted, 0);  // p = 1 - (1 - 1e-6)^33616 = 3.3 %: 8.5 of 256 expected
    EXPECT_EQ(ls.num(last.at("host8-leaf1/b_to_a"), "frames"), 256 - corrupted);
    EXPECT_EQ(ls.num(last.at("host8-leaf1/b_to_a"), "corrupted"), 0);

    // The interval columns add up to the totals, and frames match nd-stats' sending port.
    double sum = 0;
    for (size_t i = 0; i < ls.rows.size(); ++i)
        if (ls.str(i, "link_name") == "host0-leaf0" && ls.str(i, "direction") == "a_to_b")
            sum += ls.num(i, "interval_bytes");
    EXPECT_EQ(sum, 256 * 4202);
    const csv nd = read_csv(dir + "/l-nd-stats-0.csv");
    double nd_tx = -1;
    for (size_t i = 0; i < nd.rows.size(); ++i)
        if (nd.str(i, "component_name") == "host0") nd_tx = nd.num(i, "total_packets_tx");
    EXPECT_EQ(nd_tx, ls.num(up, "frames"));
}

TEST(link_stats, is_off_by_default)
{
    const std::string dir = scratch_dir("link-stats-off");
    const std::string y =
        "Simulation: {Name: l, StopTime: 1ms}\nNic: {Type: raw}\n"
        "Flows:\n  - {Src: 0, Dst: 8, Bytes: 64KiB}\n";
    const command_result r =
        run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(csv_files(dir).count("l-link-stats-0.csv"), 0u);
    EXPECT_EQ(csv_files(dir).count("l-nd-stats-0.csv"), 1u);
}
