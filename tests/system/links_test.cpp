// Per-link settings (docs/topologies.md#per-link-settings): Link[glob].Rate, .Delay and
// .BitErrorRate change exactly the links they name, in inspect, in nd-stats, in a host's
// throughput and in the fabric's round trip; bad values exit 2 naming the key and the value; a
// bit error rate drops frames at the receiver's FCS check as often as 1 - (1 - BER)^(wire bits)
// says, and UET recovers them end to end with a clean scoreboard.
//
// Numbers used below, at the defaults (leaf-spine, 16 hosts, 8 per leaf, 8 spines, 400 Gbps,
// NicDelay 100 ns, SwitchDelay 500 ns, MSS 4096): a full data frame is 4096 + 106 = 4202 B on the
// wire, 33,616 bits.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

nlohmann::json inspect(const std::vector<std::string>& sets)
{
    std::vector<std::string> args{"inspect", "--json"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

nlohmann::json manifest_of(const std::string& dir, const std::string& name)
{
    return nlohmann::json::parse(read_text(dir + "/" + name + "-manifest.json"));
}

// A raw-host Flows run (Nic.Type raw: the hosts send MSS packets back to back at their link
// rate, nothing retransmits) of one message host0 -> host8, across the spines.
command_result run_raw(const std::string& dir, uint64_t bytes, const std::string& extra)
{
    const std::string y =
        "Simulation: {Name: l, StopTime: 10ms}\nNic: {Type: raw}\n"
        "Records: {Enabled: [nd-stats, flow-perf]}\n" +
        extra + "Flows:\n  - {Src: 0, Dst: 8, Bytes: " + std::to_string(bytes) + "}\n";
    return run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
}

}  // namespace

TEST(links, an_override_changes_exactly_that_link_in_inspect)
{
    const nlohmann::json base = inspect({});
    const nlohmann::json j =
        inspect({"Link[leaf0-spine1].Rate=200Gbps", "Link[host3-leaf0].Delay=1us",
                 "Link[leaf1-spine7].BitErrorRate=1e-9"});
    ASSERT_EQ(j["links"].size(), base["links"].size());
    ASSERT_EQ(base["links"].size(), 16u + 2u * 8u);  // host links, then leaf-spine links
    int changed = 0;
    for (size_t i = 0; i < j["links"].size(); ++i) {
        const auto& l = j["links"][i];
        const std::string name = l["name"];
        EXPECT_EQ(name, base["links"][i]["name"]);
        const bool host = name.rfind("host", 0) == 0;
        double rate = 400e9, delay = host ? 100e-9 : 500e-9, ber = 0;
        if (name == "leaf0-spine1") rate = 200e9;
        if (name == "host3-leaf0") delay = 1e-6;
        if (name == "leaf1-spine7") ber = 1e-9;
        EXPECT_DOUBLE_EQ(l["rate_bps"].get<double>(), rate) << name;
        EXPECT_DOUBLE_EQ(l["delay_s"].get<double>(), delay) << name;
        EXPECT_DOUBLE_EQ(l["bit_error_rate"].get<double>(), ber) << name;
        changed += l != base["links"][i];
    }
    EXPECT_EQ(changed, 3);
    // The section's own keys: auto until a value is given, which then holds for every link.
    EXPECT_EQ(j["scenario"]["Link"]["Rate"], "auto");
    const nlohmann::json all = inspect({"Link.Delay=2us", "Topology.LinkRate=100Gbps"});
    for (const auto& l : all["links"]) {
        EXPECT_DOUBLE_EQ(l["delay_s"].get<double>(), 2e-6) << l["name"];
        EXPECT_DOUBLE_EQ(l["rate_bps"].get<double>(), 100e9) << l["name"];
    }
}

TEST(links, a_longer_host_link_adds_its_extra_delay_twice_to_the_fabric_round_trip)
{
    // host15-leaf1 at 1.1 us instead of 100 ns: 1 us more each way on every path that host
    // ends, and the fabric's round trip is the slowest pair's, one of those.
    const nlohmann::json base = inspect({});
    const nlohmann::json j = inspect({"Link[host15-leaf1].Delay=1.1us"});
    const double extra = j["fabric"]["unloaded_rtt_s"].get<double>() -
                         base["fabric"]["unloaded_rtt_s"].get<double>();
    EXPECT_NEAR(extra, 2e-6, 1e-12);
    const double prop = j["fabric"]["parts_s"]["propagation"].get<double>() -
                        base["fabric"]["parts_s"]["propagation"].get<double>();
    EXPECT_NEAR(prop, 2e-6, 1e-12);
    const auto& path = j["fabric"]["longest_path"];
    EXPECT_TRUE(path.front() == "host15" || path.back() == "host15") << path;
    // UetNic.InitialBaseRTT: auto follows the fabric's round trip.
    const nlohmann::json a =
        inspect({"Link[host15-leaf1].Delay=1.1us", "UetNic.InitialBaseRTT=auto"});
    EXPECT_DOUBLE_EQ(a["scenario"]["UetNic"]["InitialBaseRTT"].get<double>(),
                     j["fabric"]["unloaded_rtt_s"].get<double>());
}

TEST(links, nd_stats_shows_the_overridden_rate_on_both_ends_of_that_link_only)
{
    const std::string dir = scratch_dir("links-nd");
    const command_result r = run_raw(dir, 1 << 20, "Link[leaf0-spine1]: {Rate: 100Gbps}\n");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const csv nd = read_csv(dir + "/l-nd-stats-0.csv");
    int slow_rows = 0;
    for (size_t i = 0; i < nd.rows.size(); ++i) {
        const bool slow = nd.str(i, "link_name") == "leaf0-spine1";
        EXPECT_DOUBLE_EQ(nd.num(i, "link_rate_Gbps"), slow ? 100 : 400) << nd.str(i, "link_name");
        slow_rows += slow;
    }
    // One row per end (leaf0's port and spine1's) in every interval.
    EXPECT_GT(slow_rows, 0);
    EXPECT_EQ(slow_rows % 2, 0);
}

TEST(links, a_host_link_at_half_the_rate_halves_that_hosts_throughput)
{
    // 16 MiB from host0: 4096 packets of 4202 B, 137.7 Mbit, 344.2 us at 400 Gbps and 688.4 us
    // at 200 Gbps, plus the same few microseconds of path; throughput ratio 0.5 within 1 %.
    const uint64_t bytes = 16u << 20;
    double fct[2];
    for (int slow = 0; slow < 2; ++slow) {
        const std::string dir = scratch_dir(slow ? "links-slow" : "links-fast");
        const command_result r =
            run_raw(dir, bytes, slow ? "Link[host0-leaf0]: {Rate: 200Gbps}\n" : "");
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
        const csv perf = read_csv(dir + "/l-flow-perf-0.csv");
        ASSERT_EQ(perf.rows.size(), 1u);
        fct[slow] = perf.num(0, "fct_usec");
    }
    const double wire_us = 4096.0 * 4202 * 8 / 400e9 * 1e6;  // 344.2 us
    EXPECT_NEAR(fct[0], wire_us, 0.02 * wire_us);
    EXPECT_NEAR(fct[0] / fct[1], 0.5, 0.005);
}

TEST(links, bad_values_exit_2_naming_the_key_and_the_value)
{
    struct bad
    {
        std::string set, names[3];
    };
    const bad cases[] = {
        {"Link[leaf0-spine*].BitErrorRate=2e-3",
         {"Link[leaf0-spine*].BitErrorRate", "2e-3", "0..0.001"}},
        {"Link[leaf9-spine*].Rate=200Gbps",
         {"Link[leaf9-spine*].Rate", "matches no link", "leaf0-spine0..leaf1-spine7"}},
        {"Link[host0-leaf0].Rate=500Mbps", {"Link[host0-leaf0].Rate", "500Mbps", "1Gbps"}},
        {"Link.Delay=2ms", {"Link.Delay", "2ms", "or the word auto"}},
    };
    for (const bad& b : cases) {
        const command_result r = run_uetsim({"inspect", "--set", b.set});
        EXPECT_EQ(r.exit_code, 2) << b.set;
        for (const auto& n : b.names) EXPECT_NE(r.err.find(n), std::string::npos) << r.err;
    }
}

TEST(links, a_bit_error_rate_drops_frames_at_the_receivers_fcs_check_at_the_formula_rate)
{
    // BER 1e-5 on host0's link: a 4202 B frame is lost with p = 1 - (1 - 1e-5)^33,616 =
    // 0.28550 (worked: 33,616 x ln(1 - 1e-5) = -0.336162, 1 - e^-0.336162 = 0.285550). 1000
    // frames: mean 285.55, sd sqrt(1000 p (1 - p)) = 14.28; 5 sd either side.
    const std::string dir = scratch_dir("links-ber");
    const command_result r =
        run_raw(dir, 1000u * 4096, "Link[host0-leaf0]: {BitErrorRate: 1e-5}\n");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = manifest_of(dir, "l");
    ASSERT_TRUE(m.contains("fcs_errors")) << m.dump();
    ASSERT_EQ(m["fcs_errors"].size(), 1u);  // only the link with a bit error rate
    const uint64_t lost = m["fcs_errors"]["host0-leaf0"]["a_to_b"];
    EXPECT_EQ(m["fcs_errors"]["host0-leaf0"]["b_to_a"], 0u);  // raw hosts send nothing back
    const double p = -std::expm1(33616 * std::log1p(-1e-5));
    EXPECT_NEAR(p, 0.28555, 1e-4);
    EXPECT_NEAR(double(lost), 1000 * p, 5 * std::sqrt(1000 * p * (1 - p)));
    EXPECT_EQ(m["packets_dropped"], lost);
    // Raw hosts have no transport: the message stays incomplete, and the scoreboard says so.
    EXPECT_FALSE(m["scoreboard"]["ok"].get<bool>());
    EXPECT_EQ(m["scoreboard"]["report"],
              "message 0 (0 -> 8): " + std::to_string((1000 - lost) * 4096) +
                  " of 4096000 bytes arrived\n");
    EXPECT_EQ(m["messages"]["completed"], 0u);
    // The frames that arrived are the ones that were not dropped (the leaf's port on the link).
    const csv nd = read_csv(dir + "/l-nd-stats-0.csv");
    double rx = -1;
    for (size_t i = 0; i < nd.rows.size(); ++i)
        if (nd.str(i, "component_name") == "leaf0" && nd.str(i, "link_name") == "host0-leaf0")
            rx = nd.num(i, "total_packets_rx");
    EXPECT_EQ(rx, double(1000 - lost));
    // The same seed draws the same errors.
    const std::string again = scratch_dir("links-ber-again");
    ASSERT_EQ(run_raw(again, 1000u * 4096, "Link[host0-leaf0]: {BitErrorRate: 1e-5}\n").exit_code,
              0);
    EXPECT_EQ(manifest_of(again, "l")["fcs_errors"], m["fcs_errors"]);
}

TEST(links, uet_recovers_bit_errors_on_a_spine_link_with_a_clean_scoreboard)
{
    // BER 1e-6 on leaf0-spine0 (data one way, ACKs the other): p = 3.3 % of its data frames.
    // Eight 2 MiB messages host0..7 -> host8..15 spray over all eight spines, so some packets
    // cross that link and some are lost; UET retransmits them and every byte arrives once.
    const std::string dir = scratch_dir("links-uet");
    std::string y =
        "Simulation: {Name: u, StopTime: 50ms}\n"
        "Records: {Enabled: [uet-transport-stats, flow-perf]}\n"
        "Link[leaf0-spine0]: {BitErrorRate: 1e-6}\nFlows:\n";
    for (int h = 0; h < 8; ++h)
        y += "  - {Src: " + std::to_string(h) + ", Dst: " + std::to_string(h + 8) +
             ", Bytes: 2MiB}\n";
    const command_result r =
        run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = manifest_of(dir, "u");
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(m["messages"]["completed"], 8u);
    const uint64_t lost = m["fcs_errors"]["leaf0-spine0"]["a_to_b"].get<uint64_t>() +
                          m["fcs_errors"]["leaf0-spine0"]["b_to_a"].get<uint64_t>();
    EXPECT_GT(lost, 0u);
    EXPECT_EQ(m["packets_dropped"], lost);  // nothing else drops at this load
    const csv tr = read_csv(dir + "/u-uet-transport-stats-0.csv");
    double rtx = 0;
    for (int h = 0; h < 8; ++h) {
        double last = 0;
        for (size_t i = 0; i < tr.rows.size(); ++i)
            if (tr.str(i, "component_name") == "host" + std::to_string(h))
                last = tr.num(i, "num_rtx");
        rtx += last;
    }
    // Frames lost from leaf0 towards spine0 are data (the ACKs come the other way): each one is
    // sent again at least once.
    EXPECT_GE(rtx, m["fcs_errors"]["leaf0-spine0"]["a_to_b"].get<double>());
}
