// Flowlet switching (Switch.LoadBalancingMethod: flowlet) through UET NICs and the fabric, read
// from the records of the `uetsim` command: the 8 cross-leaf flows of examples/uet-spraying.yaml
// with PacketSprayingType None (one entropy value per flow), so that only the switches move
// them. With a gap in each flow its slot is selected again and the flows spread over leaf0's
// eight uplinks; without one, each flow stays where its first packet went.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

constexpr double mib = 1024.0 * 1024.0;

// Flow i: host i -> host 8+i. `gaps`: a 16 KiB message at i x 3 us (one at a time, so each
// flow's slot is filled while the uplinks are idle and ties are drawn: flows collide as under
// ECMP), then, 300 us later (idle for more than Gap), 1 MiB from every flow at once. Without
// gaps: one 1 MiB message per flow, starting i x 3 us.
std::string eight_flows(bool gaps, const std::string& lb = "flowlet")
{
    std::string y =
        "Simulation: {Name: fl}\n"
        "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8}\n"
        "Nic: {Type: uet}\n"
        "UetNic: {PacketSprayingType: None}\n"
        "Switch: {LoadBalancingMethod: " +
        lb + "}\nFlows:\n";
    for (int i = 0; i < 8; ++i) {
        const std::string pair =
            "Src: " + std::to_string(i) + ", Dst: " + std::to_string(8 + i) + ", ";
        if (gaps) {
            y += "  - {" + pair + "Bytes: 16KiB, Start: " + std::to_string(3 * i) + "us}\n";
            y += "  - {" + pair + "Bytes: 1MiB, Start: 300us}\n";
        } else {
            y += "  - {" + pair + "Bytes: 1MiB, Start: " + std::to_string(3 * i) + "us}\n";
        }
    }
    return y;
}

struct run_result
{
    command_result cmd;
    nlohmann::json manifest;
};

run_result run(const std::string& file, const std::string& out, int seed,
               std::vector<std::string> extra = {})
{
    std::vector<std::string> args = {"run",
                                     file,
                                     "--quiet",
                                     "--out",
                                     out,
                                     "--set",
                                     "Simulation.RandomSeed=" + std::to_string(seed)};
    args.insert(args.end(), extra.begin(), extra.end());
    run_result r;
    r.cmd = run_uetsim(args);
    EXPECT_EQ(r.cmd.exit_code, 0) << r.cmd.err;
    EXPECT_NE(r.cmd.out.find("scoreboard            ok"), std::string::npos) << r.cmd.out;
    // Every message completed: "flows completed       N/N".
    const size_t at = r.cmd.out.find("flows completed");
    EXPECT_NE(at, std::string::npos) << r.cmd.out;
    if (at != std::string::npos) {
        const std::string line = r.cmd.out.substr(at, r.cmd.out.find('\n', at) - at);
        const std::string n = line.substr(line.find_last_of(' ') + 1);
        EXPECT_EQ(n.substr(0, n.find('/')), n.substr(n.find('/') + 1)) << line;
    }
    r.manifest = nlohmann::json::parse(read_text(out + "/fl-manifest.json"));
    return r;
}

// The last row of each of leaf0's uplink members (the set of 8), by ifid.
struct member
{
    double bytes = 0, slots = 0, assignments = 0, moves_in = 0, moves_out = 0;
};
std::map<std::string, member> leaf0_uplinks(const std::string& out)
{
    csv lb = read_csv(out + "/fl-scala-switch-load-balancing-stats-0.csv");
    std::map<std::string, member> last;
    for (size_t i = 0; i < lb.rows.size(); ++i)
        if (lb.str(i, "component_name") == "leaf0" && lb.num(i, "group_size") == 8)
            last[lb.str(i, "ifid")] = {lb.num(i, "bytes"), lb.num(i, "flow_table_slots"),
                                       lb.num(i, "assignments"), lb.num(i, "movements_in"),
                                       lb.num(i, "movements_out")};
    EXPECT_EQ(last.size(), 8u);
    return last;
}

// Movements over every member of every switch, in and out, in the whole run.
double all_movements(const std::string& out)
{
    csv lb = read_csv(out + "/fl-scala-switch-load-balancing-stats-0.csv");
    std::map<std::string, double> last;
    for (size_t i = 0; i < lb.rows.size(); ++i)
        last[lb.str(i, "component_name") + "/" + lb.str(i, "ecmp_group_id") + "/" +
             lb.str(i, "ifid")] = lb.num(i, "movements_in") + lb.num(i, "movements_out");
    double sum = 0;
    for (auto& [k, v] : last) sum += v;
    return sum;
}

double slowest_1mib_fct(const std::string& out)
{
    csv perf = read_csv(out + "/fl-flow-perf-0.csv");
    double m = 0;
    for (size_t i = 0; i < perf.rows.size(); ++i) m = std::max(m, perf.num(i, "fct_usec"));
    return m;
}

}  // namespace

TEST(flowlet, eight_flows_with_gaps_move_between_members_and_balance)
{
    const std::string dir = scratch_dir("flgap");
    const std::string file = write_file(dir + "/s.yaml", eight_flows(true));
    const std::string solo = write_file(dir + "/solo.yaml",
                                        "Simulation: {Name: fl}\n"
                                        "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, "
                                        "Spines: 8}\nNic: {Type: uet}\n"
                                        "Flows:\n  - {Src: 0, Dst: 8, Bytes: 1MiB}\n");
    run(solo, dir + "/solo", 1);
    const double solo_fct = slowest_1mib_fct(dir + "/solo");
    for (int seed = 1; seed <= 3; ++seed) {
        run(file, dir + "/run", seed);
        const auto m = leaf0_uplinks(dir + "/run");
        double in = 0, out = 0, lo = 1e18, hi = 0;
        for (auto& [ifid, v] : m) {
            EXPECT_EQ(v.slots, 512) << ifid;
            in += v.moves_in, out += v.moves_out;
            lo = std::min(lo, v.bytes), hi = std::max(hi, v.bytes);
        }
        // The 16 KiB flowlets collided on a few uplinks; at the gap the flows whose member was
        // taken moved: every uplink then carries one 1 MiB message.
        EXPECT_GT(in, 0) << seed;
        EXPECT_EQ(in, out) << seed;
        EXPECT_GT(lo, 1.0 * mib) << seed;
        EXPECT_LT(hi, 1.1 * mib) << seed;  // 1 MiB and a share of the 16 KiB ones
        EXPECT_LT(slowest_1mib_fct(dir + "/run"), 1.01 * solo_fct) << seed;

        // The same traffic with a Gap longer than the idle time: no move, the collisions of
        // the first flowlets stay, and so does the slowdown.
        run(file, dir + "/long_gap", seed, {"--set", "Switch.Gap=1ms"});
        double hi_long = 0;
        for (auto& [ifid, v] : leaf0_uplinks(dir + "/long_gap")) {
            EXPECT_EQ(v.moves_in + v.moves_out, 0) << ifid;
            hi_long = std::max(hi_long, v.bytes);
        }
        EXPECT_GT(hi_long, 2.0 * mib) << seed;
        EXPECT_GT(slowest_1mib_fct(dir + "/long_gap"), 1.5 * solo_fct) << seed;

        // And under none (hash modulo), the flowlet columns stay 0.
        run(file, dir + "/none", seed, {"--set", "Switch.LoadBalancingMethod=none"});
        for (auto& [ifid, v] : leaf0_uplinks(dir + "/none"))
            EXPECT_EQ(v.slots + v.assignments + v.moves_in + v.moves_out, 0) << ifid;
    }
}

TEST(flowlet, eight_flows_without_gaps_stay_on_their_first_member)
{
    const std::string dir = scratch_dir("flnogap");
    const std::string file = write_file(dir + "/s.yaml", eight_flows(false));
    for (int seed = 1; seed <= 3; ++seed) {
        run(file, dir + "/run", seed);
        EXPECT_EQ(all_movements(dir + "/run"), 0) << seed;
        double assigned = 0, lo = 1e18, hi = 0;
        for (auto& [ifid, v] : leaf0_uplinks(dir + "/run")) {
            assigned += v.assignments;
            lo = std::min(lo, v.bytes), hi = std::max(hi, v.bytes);
        }
        EXPECT_GE(assigned, 8) << seed;  // each flow's slot once (other packets have their own)
        // Each flow was assigned while the earlier ones were sending: one uplink each.
        EXPECT_GT(lo, 1.0 * mib) << seed;
        EXPECT_LT(hi, 1.1 * mib) << seed;
    }
}

TEST(flowlet, reps_with_flowlet_warns_on_stderr_and_in_the_manifest)
{
    const std::string dir = scratch_dir("flreps");
    const std::string file = write_file(dir + "/s.yaml", eight_flows(false));
    run_result r = run(file, dir + "/run", 1,
                       {"--set", "UetNic.PacketSprayingType=Recycled Entropy Packet Spraying"});
    const std::string w =
        "warning: UetNic.PacketSprayingType is Recycled Entropy Packet Spraying (host0, host1 "
        "and 14 more) and Switch.LoadBalancingMethod is flowlet (leaf0, leaf1 and 8 more)";
    EXPECT_NE(r.cmd.err.find(w), std::string::npos) << r.cmd.err;
    ASSERT_TRUE(r.manifest.contains("warnings"));
    ASSERT_EQ(r.manifest["warnings"].size(), 1u);
    EXPECT_NE(r.manifest["warnings"][0].get<std::string>().find("flowlet"), std::string::npos);
    // Flowlet on the leaves only, REPS on one host: still the warning, naming them.
    r = run(file, dir + "/run", 1,
            {"--set", "Switch.LoadBalancingMethod=none", "--set",
             "Switch[leaf*].LoadBalancingMethod=flowlet", "--set",
             "UetNic[host3].PacketSprayingType=Recycled Entropy Packet Spraying"});
    EXPECT_NE(r.cmd.err.find("(host3) and Switch.LoadBalancingMethod is flowlet (leaf0, leaf1)"),
              std::string::npos)
        << r.cmd.err;
    // Neither REPS nor flowlet: no warning.
    r = run(file, dir + "/run", 1, {"--set", "Switch.LoadBalancingMethod=none"});
    EXPECT_EQ(r.cmd.err.find("warning"), std::string::npos) << r.cmd.err;
    EXPECT_FALSE(r.manifest.contains("warnings"));
}

TEST(flowlet, bad_flowlet_settings_stop_the_run_naming_the_keys)
{
    const std::string dir = scratch_dir("flbad");
    const std::string file = write_file(dir + "/s.yaml", eight_flows(false));
    auto bad = [&](std::vector<std::string> set, const std::string& expected) {
        std::vector<std::string> args = {"validate", file};
        for (auto& s : set) args.insert(args.end(), {"--set", s});
        const command_result r = run_uetsim(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("uetsim: error: "), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    };
    bad({"Switch.EcmpHashMethod=dpr"},
        "Switch.LoadBalancingMethod is flowlet but Switch.EcmpHashMethod is dpr");
    bad({"Switch.EcmpHashMethod=dprWithFallback"},
        "Switch.LoadBalancingMethod is flowlet but Switch.EcmpHashMethod is dprWithFallback");
    bad({"Switch.LoadBalancingMethod=none", "Switch[spine*].LoadBalancingMethod=flowlet",
         "Switch.EcmpHashMethod=dpr"},
        "Switch.EcmpHashMethod is dpr");
    // Gap's range is checked whatever the method (the page: whenever the component is given).
    bad({"Switch.LoadBalancingMethod=none", "Switch.Gap=3s"},
        "Switch.Gap: 3s is out of range 0s..2s");
    bad({"Switch.Gap=-1us"}, "Switch.Gap");
}
