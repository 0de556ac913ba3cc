// RoCE and UET NICs on one leaf-spine (Nic[glob].Type), examples/mixed-fabric.yaml: RoCE hosts
// 0-3 and 8-11 in TC1, lossless in pool 1; UET hosts 4-7 and 12-15 in TC0, lossy in pool 0. An
// incast on either class leaves the other class's flow alone: no pause reaches it (PFC only on
// TC1) and a RoCE flow beside a UET incast finishes as fast as alone. With both classes lossless
// in one pool (a pool's Xoff pauses every lossless class of the pool, RED marks from the pool's
// occupancy) the RoCE incast pauses the UET flow and the UET incast gets the RoCE flow marked. And
// the checks a mixed fabric needs: a Flows message between a RoCE and a UET host, the RDMA
// application, raw ports beside NICs are refused before the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/support/run_uetsim.h"
#include "tests/support/vcd_reader.h"

using namespace uetsim::test;

namespace {

std::string example()
{
    return source_dir() + "/examples/mixed-fabric.yaml";
}

const std::vector<std::string> shared_pool = {
    "--set", "Switch.EnablePFC=[1, 1, 0, 0, 0, 0, 0, 0]", "--set",
    "Switch.TrafficClassPoolMapping=[0, 0, 0, 0, 0, 0, 0, 0]"};

// A UET incast to host 4 (hosts 5-7 and 12-15, TC0) and a RoCE flow 8 -> 1 (TC1) beside it.
const std::string uet_incast =
    "Flows=[{Src: 5, Dst: 4, Bytes: 2MiB}, {Src: 6, Dst: 4, Bytes: 2MiB}, "
    "{Src: 7, Dst: 4, Bytes: 2MiB}, {Src: 12, Dst: 4, Bytes: 2MiB}, "
    "{Src: 13, Dst: 4, Bytes: 2MiB}, {Src: 14, Dst: 4, Bytes: 2MiB}, "
    "{Src: 15, Dst: 4, Bytes: 2MiB}, {Src: 8, Dst: 1, Bytes: 2MiB, TrafficClass: 1}]";

struct run_result
{
    nlohmann::json manifest;
    csv flows, pfc;
    std::string dir;
};

run_result run(const std::string& tag, std::vector<std::string> extra = {})
{
    run_result r;
    r.dir = scratch_dir(tag);
    std::vector<std::string> args = {"run", example(), "--quiet", "--out", r.dir};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto c = run_uetsim(args);
    EXPECT_EQ(c.exit_code, 0) << c.err;
    r.manifest = nlohmann::json::parse(read_text(r.dir + "/mixed-fabric-manifest.json"));
    r.flows = read_csv(r.dir + "/mixed-fabric-flow-perf-0.csv");
    r.pfc = read_csv(r.dir + "/mixed-fabric-ecn-pfc-stats-0.csv");
    return r;
}

double fct_us(const csv& f, int src, int dst)
{
    for (size_t i = 0; i < f.rows.size(); ++i)
        if (f.num(i, "src_host") == src && f.num(i, "dst_host") == dst) return f.num(i, "fct_usec");
    ADD_FAILURE() << "no flow " << src << " -> " << dst;
    return 0;
}

// Pause frames sent or received for `tc` by `component` (every port), and the classes that
// saw any.
double pauses(const csv& e, const std::string& component, int tc)
{
    double v = 0;
    for (size_t i = 0; i < e.rows.size(); ++i)
        if (e.str(i, "component_name") == component && e.num(i, "priority") == tc)
            v = std::max(v, e.num(i, "pfcxoff_tx") + e.num(i, "pfcxoff_rx"));
    return v;
}

// Pause frames leaf1's uplink (port 8, to spine0) received for `tc`: both victims leave leaf1
// there.
double uplink_pauses(const csv& e, int tc)
{
    double v = 0;
    for (size_t i = 0; i < e.rows.size(); ++i)
        if (e.str(i, "component_name") == "leaf1" && e.num(i, "ifid") == 8 &&
            e.num(i, "priority") == tc)
            v = std::max(v, e.num(i, "pfcxoff_rx"));
    return v;
}

// Packets of `tc` leaf1's uplink marked CE.
double uplink_marks(const csv& e, int tc)
{
    double v = 0;
    for (size_t i = 0; i < e.rows.size(); ++i)
        if (e.str(i, "component_name") == "leaf1" && e.num(i, "ifid") == 8 &&
            e.num(i, "priority") == tc)
            v = std::max(v, e.num(i, "pkts_ecn_marked"));
    return v;
}

std::set<int> paused_classes(const csv& e)
{
    std::set<int> out;
    for (size_t i = 0; i < e.rows.size(); ++i)
        if (e.num(i, "pfcxoff_tx") + e.num(i, "pfcxoff_rx") + e.num(i, "pfc_time_paused_usec") > 0)
            out.insert(int(e.num(i, "priority")));
    return out;
}

std::set<std::string> components(const csv& c)
{
    std::set<std::string> out;
    for (size_t i = 0; i < c.rows.size(); ++i) out.insert(c.str(i, "component_name"));
    return out;
}

void expect_clean(const run_result& r, size_t flows)
{
    EXPECT_TRUE(r.manifest["scoreboard"]["ok"].get<bool>()) << r.manifest["scoreboard"]["report"];
    EXPECT_EQ(r.flows.rows.size(), flows);
}

}  // namespace

TEST(mixed_fabric, roce_and_uet_hosts_share_a_leaf_spine_with_pfc_only_on_the_roce_class)
{
    const run_result r = run("mixed_iso");
    expect_clean(r, 8);
    EXPECT_EQ(r.manifest["packets_dropped"].get<uint64_t>(), 0u);
    // The RoCE incast pauses: leaf1's uplink and the senders' NICs receive TC1 pauses.
    EXPECT_GT(pauses(r.pfc, "leaf1", 1), 0);
    EXPECT_GT(pauses(r.pfc, "host8", 1), 0);
    EXPECT_EQ(paused_classes(r.pfc), std::set<int>{1});
    // The UET flow 12 -> 5 crosses the same spine links and is never paused.
    EXPECT_EQ(pauses(r.pfc, "host12", 0) + pauses(r.pfc, "host12", 1), 0);

    // Each transport's record has a row per NIC of its type and none other.
    const std::set<std::string> roce = {"host0", "host1", "host2",  "host3",
                                        "host8", "host9", "host10", "host11"};
    const std::set<std::string> uet = {"host4",  "host5",  "host6",  "host7",
                                       "host12", "host13", "host14", "host15"};
    EXPECT_EQ(components(read_csv(r.dir + "/mixed-fabric-roce-transport-stats-0.csv")), roce);
    EXPECT_EQ(components(read_csv(r.dir + "/mixed-fabric-uet-transport-stats-0.csv")), uet);
}

TEST(mixed_fabric, a_shared_lossless_pool_lets_the_roce_incast_pause_the_uet_flow)
{
    const run_result iso = run("mixed_iso2");
    const run_result shared = run("mixed_shared", shared_pool);
    expect_clean(shared, 8);
    EXPECT_EQ(shared.manifest["packets_dropped"].get<uint64_t>(), 0u);
    EXPECT_EQ(paused_classes(shared.pfc), (std::set<int>{0, 1}));
    // The UET flow's packets wait at leaf1's uplink, paused in TC0 too.
    EXPECT_EQ(uplink_pauses(iso.pfc, 0), 0);
    EXPECT_GT(uplink_pauses(shared.pfc, 0), 0);
    EXPECT_GT(fct_us(shared.flows, 12, 5), 2 * fct_us(iso.flows, 12, 5));
}

TEST(mixed_fabric, a_roce_flow_beside_a_uet_incast_finishes_as_alone_when_the_classes_are_apart)
{
    const run_result alone = run("mixed_alone", {"--set",
                                                 "Flows=[{Src: 8, Dst: 1, Bytes: 2MiB, "
                                                 "TrafficClass: 1}]"});
    const run_result iso = run("mixed_uet_iso", {"--set", uet_incast});
    const run_result shared =
        run("mixed_uet_shared",
            {"--set", uet_incast, shared_pool[0], shared_pool[1], shared_pool[2], shared_pool[3]});
    expect_clean(iso, 8);
    expect_clean(shared, 8);
    const double solo = fct_us(alone.flows, 8, 1);
    // 512 packets of 4,096 + 58 B at 400 Gbps: 42.5 us on the wire, plus the path's latency.
    EXPECT_GT(solo, 512 * 4154 * 8 / 400e9 * 1e6);
    EXPECT_LT(fct_us(iso.flows, 8, 1), solo * 1.01);
    EXPECT_EQ(pauses(iso.pfc, "host8", 1), 0);
    EXPECT_TRUE(paused_classes(iso.pfc).count(0) == 0);  // the lossy UET class never pauses
    // NSCC keeps the UET incast below Xoff, so nothing pauses in either setting; in one pool the
    // UET packets fill the band RED marks from, so leaf1's uplink marks the RoCE flow's packets
    // (TC1) too and DCQCN slows it down.
    EXPECT_TRUE(paused_classes(shared.pfc).empty());
    EXPECT_EQ(uplink_marks(iso.pfc, 1), 0);
    EXPECT_GT(uplink_marks(shared.pfc, 1), 0);
    EXPECT_GT(fct_us(shared.flows, 8, 1), 1.5 * solo);
}

// Each sender's messages are cut at its own NIC type's MSS; a UET-only record has rows for the
// UET NICs only.
TEST(mixed_fabric, flows_are_cut_at_each_senders_mss)
{
    const run_result r = run("mixed_mss", {"--set", "RoceNic.MSS=1024", "--set",
                                           "Records.Enabled=[flow-perf, ecn-pfc-stats, "
                                           "nic-pipeline-stats]"});
    expect_clean(r, 8);
    // The UET NIC's own pipeline record: the UET hosts only.
    EXPECT_EQ(components(read_csv(r.dir + "/mixed-fabric-nic-pipeline-stats-0.csv")),
              (std::set<std::string>{"host4", "host5", "host6", "host7", "host12", "host13",
                                     "host14", "host15"}));
    for (size_t i = 0; i < r.flows.rows.size(); ++i)
        EXPECT_EQ(r.flows.num(i, "packets"), r.flows.num(i, "src_host") == 12 ? 512 : 2048)
            << r.flows.str(i, "src_host");
    const auto j = nlohmann::json::parse(
        run_uetsim({"inspect", example(), "--json", "--set", "RoceNic.MSS=1024"}).out);
    EXPECT_EQ(j["nic_types"]["host0"], "roce");
    EXPECT_EQ(j["nic_types"]["host4"], "uet");
    EXPECT_EQ(j["nic_types"]["host11"], "roce");
    EXPECT_EQ(j["nic_types"]["host12"], "uet");
    EXPECT_EQ(j["flows"]["packets"].get<uint64_t>(), 7u * 2048 + 512);
}

// Each host's NIC is traced by its own type's probe: queue pairs on a RoCE NIC, PDC groups on a
// UET NIC.
TEST(mixed_fabric, each_nic_is_traced_by_its_own_types_probe)
{
    const std::string dir = scratch_dir("mixed_trace");
    const auto c =
        run_uetsim({"run", example(), "--quiet", "--out", dir, "--set", "Trace.Enabled=true",
                    "--set", "Trace.Components=[host0, host4]", "--set", "Trace.File=m.vcd"});
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const vcd v = parse_vcd(read_text(dir + "/m.vcd"));
    auto has = [&](const std::string& prefix) {
        return std::any_of(v.names.begin(), v.names.end(),
                           [&](const std::string& n) { return n.rfind(prefix, 0) == 0; });
    };
    EXPECT_TRUE(has("host0.qp0."));
    EXPECT_TRUE(has("host4.g0."));
    EXPECT_FALSE(has("host0.g0."));
    EXPECT_FALSE(has("host4.qp0."));
}

TEST(mixed_fabric, what_a_mixed_fabric_cannot_do_is_refused_before_the_run)
{
    const auto cross = run_uetsim({"validate", example(), "--set",
                                   "Flows=[{Src: 1, Dst: 0, Bytes: 1MB}, {Src: 4, Dst: 0, "
                                   "Bytes: 1MB}]"});
    EXPECT_EQ(cross.exit_code, 2);
    EXPECT_NE(cross.err.find("Flows[1]: Src 4 (host4, Nic.Type uet) and Dst 0 (host0, Nic.Type "
                             "roce)"),
              std::string::npos)
        << cross.err;
    EXPECT_NE(cross.err.find("allowed: a Dst with Nic.Type uet (host4..host7, host12..host15)"),
              std::string::npos)
        << cross.err;

    const auto app = run_uetsim(
        {"validate", example(), "--set", "Flows=[]", "--set", "RdmaApplication.Enabled=true"});
    EXPECT_EQ(app.exit_code, 2);
    EXPECT_NE(app.err.find("RdmaApplication.Enabled is true but the hosts have more than one "
                           "Nic.Type (roce: host0..host3, host8..host11; uet: host4..host7, "
                           "host12..host15)"),
              std::string::npos)
        << app.err;

    const auto raw = run_uetsim({"validate", example(), "--set", "Nic[host0].Type=raw"});
    EXPECT_EQ(raw.exit_code, 2);
    EXPECT_NE(raw.err.find("raw ports share the fabric with NICs"), std::string::npos) << raw.err;

    const auto bad = run_uetsim({"validate", example(), "--set", "Nic[host0].Type=ib"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("Nic[host0].Type"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("uet"), std::string::npos) << bad.err;
}
