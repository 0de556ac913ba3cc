// Spraying through real UET NICs and the fabric, read from the records of the `uetsim` command:
// the multipath page's 1 MiB example, the 8-flow collision scenario for the three types, a
// degraded spine, and dpr collapsing every type onto one path.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "hw/switch/flow_hash.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

const char* const none = "None";
const char* const dps = "Default Packet Spraying";
const char* const reps = "Recycled Entropy Packet Spraying";

std::string eight_flows(uint64_t bytes, int flows = 8, const std::string& extra = "")
{
    std::string y =
        "Simulation: {Name: sp}\n"
        "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8}\n" +
        extra + "Flows:\n";
    for (int i = 0; i < flows; ++i)
        y += "  - {Src: " + std::to_string(i) + ", Dst: " + std::to_string(8 + i) +
             ", Bytes: " + std::to_string(bytes) + "}\n";
    return y;
}

command_result run(const std::string& file, const std::string& out, const std::string& type,
                   int seed, std::vector<std::string> extra = {})
{
    std::vector<std::string> args = {"run",
                                     file,
                                     "--quiet",
                                     "--out",
                                     out,
                                     "--set",
                                     "UetNic.PacketSprayingType=" + type,
                                     "--set",
                                     "Simulation.RandomSeed=" + std::to_string(seed)};
    args.insert(args.end(), extra.begin(), extra.end());
    command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    return r;
}

double slowest_fct(const std::string& out)
{
    csv perf = read_csv(out + "/sp-flow-perf-0.csv");
    double m = 0;
    for (size_t i = 0; i < perf.rows.size(); ++i) m = std::max(m, perf.num(i, "fct_usec"));
    return m;
}

// Bytes leaf0 put on each uplink member by the end of the run (last row per member).
std::map<std::string, double> leaf0_uplink_bytes(const std::string& out)
{
    csv lb = read_csv(out + "/sp-scala-switch-load-balancing-stats-0.csv");
    std::map<std::string, double> last;
    for (size_t i = 0; i < lb.rows.size(); ++i)
        if (lb.str(i, "component_name") == "leaf0" && lb.num(i, "group_size") == 8)
            last[lb.str(i, "ifid")] = lb.num(i, "bytes");
    return last;
}

}  // namespace

TEST(spraying, one_mib_alone_uses_each_port_256_to_383_twice)
{
    const std::string dir = scratch_dir("sp1");
    const std::string file =
        write_file(dir + "/s.yaml", eight_flows(1u << 20, 1, "Records: {UetMonitor: true}\n"));
    run(file, dir, dps, 1);
    csv mon = read_csv(dir + "/sp-uet-monitor-0.csv");
    std::map<int, int> uses;
    for (size_t i = 0; i < mon.rows.size(); ++i)
        if (mon.str(i, "component_name") == "host0" && mon.str(i, "packet_type") == "RUD_REQUEST")
            ++uses[std::stoi(mon.str(i, "entropy_value"))];
    ASSERT_EQ(uses.size(), 128u);
    EXPECT_EQ(uses.begin()->first, 256);
    EXPECT_EQ(uses.rbegin()->first, 383);
    for (auto& [port, n] : uses) EXPECT_EQ(n, 2) << port;
}

TEST(spraying, eight_flows_none_collides_and_both_spraying_types_balance)
{
    const std::string dir = scratch_dir("sp8");
    const std::string solo_file = write_file(dir + "/solo.yaml", eight_flows(2u << 20, 1));
    const std::string file = write_file(dir + "/s.yaml", eight_flows(2u << 20));
    std::map<std::string, double> solo;
    for (const char* t : {none, dps, reps}) {
        run(solo_file, dir + "/solo", t, 1);
        solo[t] = slowest_fct(dir + "/solo");
    }
    // None: one path per flow, so ECMP collisions decide the slowest flow (about 2.6x on average).
    constexpr int seeds = 60;
    double none_slowdown = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
        run(file, dir + "/run", none, seed);
        none_slowdown += slowest_fct(dir + "/run") / solo[none];
    }
    none_slowdown /= seeds;
    EXPECT_GT(none_slowdown, 2.2);
    EXPECT_LT(none_slowdown, 3.0);
    // Spraying: every flow within 15% of its solo time.
    for (const char* t : {dps, reps})
        for (int seed = 1; seed <= 5; ++seed) {
            run(file, dir + "/run", t, seed);
            EXPECT_LT(slowest_fct(dir + "/run"), 1.15 * solo[t]) << t << " seed " << seed;
        }
}

TEST(spraying, reps_steers_around_a_degraded_spine)
{
    // 20 us into the run, both links of spine0 drop to a quarter of their rate.
    const std::string dir = scratch_dir("spdeg");
    const std::string faults =
        "Faults:\n"
        "  - {At: 20us, Link: leaf0-spine0, Action: degrade, Rate: 100Gbps}\n"
        "  - {At: 20us, Link: leaf1-spine0, Action: degrade, Rate: 100Gbps}\n";
    const std::string file = write_file(dir + "/s.yaml", eight_flows(8u << 20, 8, faults));
    double fct_dps = 0, fct_reps = 0, share_dps = 0, share_reps = 0;
    constexpr int seeds = 3;
    for (int seed = 1; seed <= seeds; ++seed) {
        for (const char* t : {dps, reps}) {
            run(file, dir + "/run", t, seed);
            auto bytes = leaf0_uplink_bytes(dir + "/run");
            double total = 0;
            for (auto& [ifid, b] : bytes) total += b;
            const double spine0 = bytes["8"] / total;  // leaf0's port 8 goes to spine0
            (t == dps ? fct_dps : fct_reps) += slowest_fct(dir + "/run");
            (t == dps ? share_dps : share_reps) += spine0;
        }
    }
    EXPECT_LT(fct_reps, 0.9 * fct_dps);
    // Default Packet Spraying keeps sending 1/8 of the bytes into the slow spine; REPS less.
    EXPECT_NEAR(share_dps / seeds, 0.125, 0.02);
    EXPECT_LT(share_reps / seeds, 0.09);
}

TEST(spraying, uet_monitor_shows_reps_entropy_values_leaving_the_degraded_spine)
{
    // Which spine a data packet takes at leaf0 follows from its header and leaf0's salt (the
    // switch pages' crc32WithSalt): read each packet's entropy value from uet-monitor and count
    // those that leaf0 sends to spine0 after its links have slowed down.
    const std::string dir = scratch_dir("spmon");
    const std::string faults =
        "Faults:\n"
        "  - {At: 20us, Link: leaf0-spine0, Action: degrade, Rate: 100Gbps}\n"
        "  - {At: 20us, Link: leaf1-spine0, Action: degrade, Rate: 100Gbps}\n"
        "Records: {UetMonitor: true}\n";
    const std::string file = write_file(dir + "/s.yaml", eight_flows(4u << 20, 8, faults));
    constexpr uint32_t leaf0_node_id = 16;  // hosts take node ids 0..15
    std::map<std::string, double> share;
    for (const char* t : {dps, reps}) {
        run(file, dir + "/run", t, 1);
        csv mon = read_csv(dir + "/run/sp-uet-monitor-0.csv");
        const uint32_t salt = uetsim::switch_salt(leaf0_node_id, 1);
        int late = 0, to_spine0 = 0;
        for (size_t i = 0; i < mon.rows.size(); ++i) {
            if (mon.str(i, "packet_type") != "RUD_REQUEST" || mon.str(i, "direction") == "Rx")
                continue;
            if (mon.num(i, "sim_time_ns") < 60e3) continue;  // after REPS has had time to react
            const std::string& name = mon.str(i, "component_name");  // host0..host7
            const uint32_t h = uint32_t(std::stoi(name.substr(4)));
            uetsim::flow_key k{17, 0x0A000000u + h + 1, 0x0A000000u + h + 9,
                               uint16_t(std::stoi(mon.str(i, "entropy_value"))), 4793};
            ++late;
            to_spine0 +=
                uetsim::select_member(uetsim::ecmp_hash_method::crc32_with_salt, k, salt, 8) == 0;
        }
        ASSERT_GT(late, 1000) << t;
        share[t] = double(to_spine0) / late;
    }
    EXPECT_NEAR(share[dps], 0.125, 0.02);  // the round robin keeps 1/8 of its ports on spine0
    EXPECT_LT(share[reps], 0.06);          // REPS stops reusing the values that lead there
}

TEST(spraying, dpr_collapses_every_type_onto_one_path_per_destination)
{
    const std::string dir = scratch_dir("spdpr");
    const std::string file = write_file(dir + "/s.yaml", eight_flows(1u << 20, 1));
    for (const char* t : {none, dps, reps}) {
        run(file, dir + "/run", t, 1, {"--set", "Switch.EcmpHashMethod=dpr"});
        // Members carrying data (the one base-RTT probe has an entropy value of its own).
        auto data_members = [&] {
            int used = 0;
            for (auto& [ifid, b] : leaf0_uplink_bytes(dir + "/run")) used += b > 10 * 4202;
            return used;
        };
        int used = data_members();
        EXPECT_EQ(used, 1) << t;  // every packet to host8 on one uplink, whatever its entropy
        run(file, dir + "/run", t, 1);
        used = data_members();
        EXPECT_EQ(used, t == none ? 1 : 8) << t;  // crc32WithSalt: spraying uses every spine
    }
}

TEST(spraying, inspect_shows_the_reps_worked_example)
{
    command_result r = run_uetsim(
        {"inspect", "--json", "--set", std::string("UetNic.PacketSprayingType=") + reps});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    const auto& s = j.at("spraying");
    EXPECT_EQ(s.at("type"), reps);
    const auto& rp = s.at("reps");
    EXPECT_EQ(rp.at("cache_entries"), 8);
    EXPECT_EQ(rp.at("explore_range"), nlohmann::json::array({0, 65535}));
    EXPECT_DOUBLE_EQ(rp.at("freezing_timeout_s").get<double>(), 100e-6);
    EXPECT_DOUBLE_EQ(rp.at("failure_detection_deadline_s").get<double>(), 18e-6);
    EXPECT_EQ(rp.at("bdp_bytes"), 300000);
    EXPECT_EQ(rp.at("nominal_packet_bytes"), 4184);
    EXPECT_EQ(rp.at("exploration_window_packets"), 71);
    EXPECT_EQ(rp.at("exploring_packets"),
              nlohmann::json::array({7, 15, 23, 31, 39, 47, 55, 63, 71}));
    command_result d = run_uetsim({"inspect", "--json"});
    auto dj = nlohmann::json::parse(d.out).at("spraying");
    EXPECT_EQ(dj.at("ports").size(), 128u);
    EXPECT_EQ(dj.at("ports").front(), 256);
    EXPECT_EQ(dj.at("ports").back(), 383);
}
