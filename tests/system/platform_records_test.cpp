// The platform records of the output files page (docs/records.md): topology-report, tier-hop and
// cpu-mem-stats, read back from real runs of the `uetsim` command.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

// Runs `yaml` (written to `dir`/s.yaml) with the records `enabled`; checks a clean run.
void run_ok(const std::string& dir, const std::string& yaml, const std::string& enabled,
            const std::string& out)
{
    const std::string file = write_file(dir + "/s.yaml", yaml);
    const command_result r = run_uetsim(
        {"run", file, "--quiet", "--out", out, "--set", "Records.Enabled=[" + enabled + "]"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
}

// flow-perf's `packets` of the message from `src` to `dst`.
double packets_of(const csv& perf, int src, int dst)
{
    for (size_t i = 0; i < perf.rows.size(); ++i)
        if (perf.num(i, "src_host") == src && perf.num(i, "dst_host") == dst)
            return perf.num(i, "packets");
    ADD_FAILURE() << "no flow-perf row for " << src << " -> " << dst;
    return 0;
}

// tier-hop's last row, and the sums of its interval columns over every row.
struct tier_hop
{
    double spine = 0, fabric = 0, rack = 0;
    double spine_ivl = 0, fabric_ivl = 0, rack_ivl = 0;
    size_t rows = 0;
};

tier_hop read_tier_hop(const std::string& path)
{
    const csv c = read_csv(path);
    tier_hop t;
    t.rows = c.rows.size();
    for (size_t i = 0; i < c.rows.size(); ++i) {
        t.spine = c.num(i, "spine"), t.fabric = c.num(i, "fabric"), t.rack = c.num(i, "rack");
        t.spine_ivl += c.num(i, "spineInt");
        t.fabric_ivl += c.num(i, "fabricInt");
        t.rack_ivl += c.num(i, "rackInt");
    }
    return t;
}

}  // namespace

// A leaf-spine of 8 hosts, 2 leaves and 4 spines with 2 parallel uplinks per spine: one row per
// link, the upper end first, with the keys' rates and delays.
TEST(platform_records, topology_report_has_one_row_per_link_upper_end_first)
{
    const std::string dir = scratch_dir("topology-report");
    run_ok(dir,
           "Simulation: {Name: t}\n"
           "Topology: {Kind: leaf-spine, Hosts: 8, HostsPerLeaf: 4, Spines: 4, "
           "UplinksPerSpine: 2, LinkRate: 200Gbps}\n"
           "Link: {NicDelay: 150ns, SwitchDelay: 700ns}\n"
           "Flows: [{Src: 0, Dst: 5, Bytes: 64KiB}]\n",
           "topology-report, flow-perf", dir + "/out");
    const csv c = read_csv(dir + "/out/t-topology-report-0.csv");
    ASSERT_EQ(c.rows.size(), 8u + 2u * 4u * 2u);  // host links, then leaf x spine x uplinks
    std::map<std::string, int> host_links;
    std::set<std::string> names;
    for (size_t i = 0; i < c.rows.size(); ++i) {
        EXPECT_EQ(c.num(i, "linkspeed_Gbps"), 200);
        EXPECT_TRUE(names.insert(c.str(i, "link_name")).second) << c.str(i, "link_name");
        EXPECT_LT(c.num(i, "tier"), c.num(i, "peer_tier")) << "row " << i;  // upper end first
        if (c.str(i, "peer_component_type") == "NIC") {
            ++host_links[c.str(i, "peer_component_name")];
            EXPECT_EQ(c.str(i, "component_type"), "Switch");
            EXPECT_EQ(c.num(i, "peer_tier"), 3);
            EXPECT_EQ(c.num(i, "prop_delay_ns"), 150);
            EXPECT_EQ(c.str(i, "peer_net_device"), "uetsim::host_port");
            // Hosts come first in node id order: hostN is node N, on its NIC's port 0.
            EXPECT_EQ(c.num(i, "peer_node_id"),
                      std::stod(c.str(i, "peer_component_name").substr(4)));
            EXPECT_EQ(c.num(i, "peer_dev_id"), 0);
        } else {
            EXPECT_EQ(c.str(i, "component_name").substr(0, 5), "spine");
            EXPECT_EQ(c.str(i, "peer_component_name").substr(0, 4), "leaf");
            EXPECT_EQ(c.num(i, "prop_delay_ns"), 700);
            EXPECT_EQ(c.num(i, "tier"), 0);
            EXPECT_EQ(c.num(i, "peer_tier"), 2);
        }
        EXPECT_EQ(c.str(i, "subtier"), "4294967295");
    }
    EXPECT_EQ(host_links.size(), 8u);
    for (const auto& [host, n] : host_links) EXPECT_EQ(n, 1) << host;
}

// Raw hosts send their packets without acknowledgements, so every frame a switch receives is a
// data packet of the Flows: on a leaf-spine a message between leaves passes two leaves (rack)
// and one spine; one within a leaf passes its leaf only.
TEST(platform_records, tier_hop_counts_each_packet_once_per_switch_of_the_tier)
{
    const std::string dir = scratch_dir("tier-hop");
    run_ok(dir,
           "Simulation: {Name: t, NDStatsReportInterval: 2us}\n"
           "Nic: {Type: raw}\n"
           "Topology: {Kind: leaf-spine, Hosts: 8, HostsPerLeaf: 4, Spines: 2}\n"
           "Flows:\n"
           "  - {Src: 0, Dst: 5, Bytes: 300KiB}\n"
           "  - {Src: 1, Dst: 2, Bytes: 100KiB}\n",
           "tier-hop, flow-perf", dir + "/out");
    const csv perf = read_csv(dir + "/out/t-flow-perf-0.csv");
    const double across = packets_of(perf, 0, 5), within = packets_of(perf, 1, 2);
    ASSERT_GT(across, 70);
    const tier_hop t = read_tier_hop(dir + "/out/t-tier-hop-0.csv");
    EXPECT_EQ(t.rack, 2 * across + within);
    EXPECT_EQ(t.spine, across);
    EXPECT_EQ(t.fabric, 0);
    EXPECT_GT(t.rows, 3u);  // a row every 2 us
    EXPECT_EQ(t.rack_ivl, t.rack);
    EXPECT_EQ(t.spine_ivl, t.spine);
}

// On a fat-tree (K = 4) a message between pods goes up edge, aggregation and core and down
// again: twice through the rack and fabric tiers, once through the spine tier.
TEST(platform_records, tier_hop_on_a_fat_tree_counts_all_three_tiers)
{
    const std::string dir = scratch_dir("tier-hop-ft");
    run_ok(dir,
           "Simulation: {Name: t}\n"
           "Nic: {Type: raw}\n"
           "Topology: {Kind: fat-tree, K: 4}\n"
           "Flows:\n"
           "  - {Src: 0, Dst: 15, Bytes: 200KiB}\n"  // pod 0 to pod 3
           "  - {Src: 0, Dst: 2, Bytes: 100KiB}\n",  // pod 0, the other edge switch
           "tier-hop, flow-perf", dir + "/out");
    const csv perf = read_csv(dir + "/out/t-flow-perf-0.csv");
    const double pods = packets_of(perf, 0, 15), edges = packets_of(perf, 0, 2);
    const tier_hop t = read_tier_hop(dir + "/out/t-tier-hop-0.csv");
    EXPECT_EQ(t.rack, 2 * pods + 2 * edges);
    EXPECT_EQ(t.fabric, 2 * pods + edges);
    EXPECT_EQ(t.spine, pods);
}

// cpu-mem-stats measures the machine: its numbers agree with what the test reads itself, its
// rows follow nd-stats' clock, and turning it on changes no other record.
TEST(platform_records, cpu_mem_stats_measures_this_machine_and_changes_no_other_record)
{
    const std::string dir = scratch_dir("cpu-mem-stats");
    const std::string yaml =
        "Simulation: {Name: t, NDStatsReportInterval: 10us}\n"
        "Topology: {Kind: single-switch, Hosts: 4}\n"
        "Flows: [{Src: 0, Dst: 1, Bytes: 1MiB}, {Src: 2, Dst: 1, Bytes: 1MiB}]\n";
    run_ok(dir, yaml, "nd-stats, flow-perf, cpu-mem-stats", dir + "/with");
    run_ok(dir, yaml, "nd-stats, flow-perf", dir + "/without");
    auto with = csv_files(dir + "/with");
    ASSERT_EQ(with.erase("t-cpu-mem-stats-0.csv"), 1u);
    EXPECT_EQ(with, csv_files(dir + "/without"));

    const csv c = read_csv(dir + "/with/t-cpu-mem-stats-0.csv");
    const csv nd = read_csv(dir + "/with/t-nd-stats-0.csv");
    std::set<std::string> nd_times;
    for (size_t i = 0; i < nd.rows.size(); ++i) nd_times.insert(nd.str(i, "sim_time_sec"));
    ASSERT_EQ(c.rows.size(), nd_times.size());
    ASSERT_GT(c.rows.size(), 3u);

    char host[256] = {};
    ASSERT_EQ(gethostname(host, sizeof host - 1), 0);
    std::ifstream meminfo("/proc/meminfo");
    std::string name;
    double total_kb = 0;
    meminfo >> name >> total_kb;
    ASSERT_EQ(name, "MemTotal:");
    for (size_t i = 0; i < c.rows.size(); ++i) {
        EXPECT_EQ(c.str(i, "job_id"), "t");
        EXPECT_EQ(c.str(i, "host_name"), host);
        EXPECT_TRUE(nd_times.count(c.str(i, "sim_time_sec"))) << c.str(i, "sim_time_sec");
        EXPECT_EQ(c.num(i, "sys_total_mem_M"), total_kb / 1024);
        EXPECT_GT(c.num(i, "core_rss_M"), 1);
        EXPECT_GE(c.num(i, "core_vm_usage_M"), c.num(i, "core_rss_M"));
        EXPECT_NEAR(c.num(i, "core_rss_usage_pct"),
                    c.num(i, "core_rss_M") / c.num(i, "sys_total_mem_M") * 100, 1e-9);
        EXPECT_EQ(c.num(i, "total_time_ticks"),
                  c.num(i, "user_time_ticks") + c.num(i, "kernel_time_ticks"));
        EXPECT_LE(c.num(i, "total_time_ticks"), c.num(i, "elapse_time_ticks") + 1);
        EXPECT_EQ(c.str(i, "pid"), c.str(0, "pid"));
    }
}

// The RDMA application's connections, both ends each, named as rdma-perf names the Initiator.
TEST(platform_records, application_report_lists_both_ends_of_every_connection)
{
    const std::string dir = scratch_dir("application-report");
    const std::string out = dir + "/out";
    const command_result r =
        run_uetsim({"run", source_dir() + "/examples/rdma-incast.yaml", "--quiet", "--out", out,
                    "--set", "RdmaApplication.NumConnections=2", "--set",
                    "Records.Enabled=[application-report, rdma-perf]"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const csv perf = read_csv(out + "/rdma-incast-rdma-perf-0.csv");
    std::set<std::string> initiators;
    for (size_t i = 0; i < perf.rows.size(); ++i)
        initiators.insert(perf.str(i, "application_name"));
    const csv c = read_csv(out + "/rdma-incast-application-report-0.csv");
    ASSERT_EQ(c.rows.size(), 2 * initiators.size());  // every connection completed WQEs
    for (size_t i = 0; i + 1 < c.rows.size(); i += 2) {
        const std::string name = c.str(i, "app_name");
        EXPECT_EQ(c.str(i, "socket_type"), "CLIENT");
        EXPECT_EQ(c.str(i + 1, "socket_type"), "SERVER");
        EXPECT_TRUE(initiators.count(name)) << name;
        EXPECT_EQ(c.str(i + 1, "app_name"), "RdmaResponder" + name.substr(name.find('-')));
        EXPECT_EQ(c.str(i, "peer_node_id"), c.str(i + 1, "node_id"));
        EXPECT_EQ(c.str(i + 1, "peer_node_id"), c.str(i, "node_id"));
        EXPECT_EQ(c.str(i, "app_typeid"), "uetsim::rdma_application");
        // RdmaInitiator-{initiator}-{responder}-{k}: the hosts are the rows' own.
        EXPECT_EQ("host" + c.str(i, "node_id"), c.str(i, "component_name"));
        EXPECT_EQ(name.substr(0, name.rfind('-')),
                  "RdmaInitiator-" + c.str(i, "node_id") + "-" + c.str(i + 1, "node_id"));
    }
}

// A message of the Flows list is marked as its sender's NIC marks data: CSn plus the trimming
// role, ECT(1) on UET, ECT(0) on RoCE unless RoceNic.EnableECN is off.
TEST(platform_records, application_report_shows_how_each_nic_type_marks_the_data)
{
    const std::string dir = scratch_dir("application-report-marking");
    auto marking = [&](const std::string& nic, const std::string& extra) {
        const std::string out = dir + "/" + nic + extra.substr(0, 3);
        run_ok(dir,
               "Simulation: {Name: m}\n"
               "Nic: {Type: " +
                   nic + "}\n" + extra +
                   "Topology: {Kind: single-switch, Hosts: 3}\n"
                   "Flows: [{Src: 2, Dst: 0, Bytes: 8KiB, TrafficClass: 1}]\n",
               "application-report", out);
        const csv c = read_csv(out + "/m-application-report-0.csv");
        EXPECT_EQ(c.rows.size(), 2u);
        EXPECT_EQ(c.str(0, "app_name"), "Flow-0");
        EXPECT_EQ(c.str(0, "component_name"), "host2");
        EXPECT_EQ(c.str(1, "component_name"), "host0");
        EXPECT_EQ(c.str(0, "dscp"), c.str(1, "dscp"));  // the data both ends see
        return std::make_pair(c.num(0, "dscp"), c.num(0, "ect"));
    };
    EXPECT_EQ(marking("uet", ""), std::make_pair(8.0, 1.0));
    EXPECT_EQ(marking("uet", "UetNic: {TrimmingEnabled: true}\n"), std::make_pair(9.0, 1.0));
    EXPECT_EQ(marking("roce", ""), std::make_pair(8.0, 1.0));
    EXPECT_EQ(marking("roce", "RoceNic: {EnableECN: false}\n"), std::make_pair(8.0, 0.0));
    EXPECT_EQ(marking("raw", ""), std::make_pair(9.0, 1.0));
}

// perf holds the RDMA application's WQEs as rdma-perf does and the Flows' messages as flow-perf
// does, in one layout: the same latencies to the last digit.
TEST(platform_records, perf_has_every_wqe_and_every_message_with_their_latencies)
{
    const std::string dir = scratch_dir("perf");
    const command_result r =
        run_uetsim({"run", source_dir() + "/examples/rdma-incast.yaml", "--quiet", "--out",
                    dir + "/app", "--set", "RdmaApplication.NumConnections=1", "--set",
                    "Records.Enabled=[perf, rdma-perf]"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const csv wqes = read_csv(dir + "/app/rdma-incast-rdma-perf-0.csv");
    const csv app = read_csv(dir + "/app/rdma-incast-perf-0.csv");
    ASSERT_GT(wqes.rows.size(), 10u);
    ASSERT_EQ(app.rows.size(), wqes.rows.size());
    for (size_t i = 0; i < app.rows.size(); ++i) {
        EXPECT_EQ(app.str(i, "metric_name"), "RDMA-WRITE");
        EXPECT_EQ(app.str(i, "perf_metric_usec"), wqes.str(i, "perf_metric_usec"));
        EXPECT_EQ(app.str(i, "sim_time_sec"), wqes.str(i, "sim_time_sec"));
        EXPECT_EQ(app.str(i, "application_name"), wqes.str(i, "application_name"));
        EXPECT_EQ(app.str(i, "transaction_number"), wqes.str(i, "wqe_id"));
        EXPECT_EQ(app.str(i, "transfer_size_b"), wqes.str(i, "transfer_size"));
        EXPECT_EQ(app.str(i, "node_id"), wqes.str(i, "node_id"));
    }

    run_ok(dir,
           "Simulation: {Name: f}\n"
           "Topology: {Kind: single-switch, Hosts: 3}\n"
           "Flows: [{Src: 0, Dst: 2, Bytes: 1MiB}, {Src: 1, Dst: 2, Bytes: 64KiB, Start: 5us}]\n",
           "perf, flow-perf", dir + "/flows");
    const csv flows = read_csv(dir + "/flows/f-flow-perf-0.csv");
    const csv perf = read_csv(dir + "/flows/f-perf-0.csv");
    ASSERT_EQ(flows.rows.size(), 2u);
    ASSERT_EQ(perf.rows.size(), 2u);
    for (size_t i = 0; i < perf.rows.size(); ++i) {
        EXPECT_EQ(perf.str(i, "metric_name"), "Flow");
        EXPECT_EQ(perf.str(i, "perf_metric_usec"), flows.str(i, "fct_usec"));
        EXPECT_EQ(perf.str(i, "transaction_number"), flows.str(i, "flow_id"));
        EXPECT_EQ(perf.str(i, "application_name"), "Flow-" + flows.str(i, "flow_id"));
        EXPECT_EQ(perf.str(i, "node_id"), flows.str(i, "src_host"));
        EXPECT_EQ(perf.str(i, "start_time_sec"), flows.str(i, "start_time_sec"));
        EXPECT_EQ(perf.str(i, "transfer_size_b"), flows.str(i, "bytes"));
        EXPECT_EQ(perf.str(i, "metric_path"), "NAN");
    }
}
