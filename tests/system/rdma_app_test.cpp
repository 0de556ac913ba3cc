// The RDMA application end to end (placement, connection setup across the network, doorbells
// and payload over PCIe, UET NICs, the fabric), judged from its records and `inspect --json`.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

// The embedded default scenario (16 hosts, 8 pairs) with a short RunTime, plus overrides.
command_result run_app(const std::string& out, std::vector<std::string> sets)
{
    std::vector<std::string> args = {"run", "--quiet", "--out",
                                     out,   "--set",   "Simulation.RunTime=0.002"};
    for (const auto& s : sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    return run_uetsim(args);
}

nlohmann::json inspect(std::vector<std::string> sets)
{
    std::vector<std::string> args = {"inspect", "--json"};
    for (const auto& s : sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    const command_result r = run_uetsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

const std::vector<std::string> two_hosts = {"Topology.Kind=single-switch", "Topology.Hosts=2"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// Goodput a UET NIC can reach on a 400 Gbps link: payload share of a full data packet.
constexpr double achievable_goodput_bps = 400e9 * 4096.0 / (4096 + 106);

}  // namespace

TEST(rdma_app, every_wqe_takes_at_least_its_ideal_time)
{
    const std::string out = scratch_dir("rdma-ideal");
    const command_result r = run_app(out, two_hosts);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const nlohmann::json j = inspect(two_hosts);
    // Serialization of the whole WQE plus the propagation there and back over the two host
    // links (Link.NicDelay 100 ns each way per link).
    const double ideal_usec = j["wqe"]["serialization_s"].get<double>() * 1e6 + 4 * 0.1;
    EXPECT_NEAR(j["wqe"]["serialization_s"].get<double>(), 256572 * 8 / 400e9, 1e-12);
    const csv perf = read_csv(out + "/uetsim-rdma-perf-0.csv");
    ASSERT_GT(perf.rows.size(), 100u);
    double fastest = 1e9;
    for (size_t i = 0; i < perf.rows.size(); ++i) {
        EXPECT_GE(perf.num(i, "perf_metric_usec"), ideal_usec) << "row " << i;
        fastest = std::min(fastest, perf.num(i, "perf_metric_usec"));
        EXPECT_EQ(perf.str(i, "metric_name"), "RDMA-WRITE");
        EXPECT_EQ(perf.str(i, "rdma_verb"), "RDMA_VERB_POST_WRITE");
        EXPECT_EQ(perf.num(i, "transfer_size"), 250000);
        EXPECT_NEAR(perf.num(i, "perf_metric_usec"),
                    (perf.num(i, "sim_time_sec") - perf.num(i, "start_time_sec")) * 1e6, 1e-3);
    }
    // The first WQE meets an idle fabric: within 25% of the ideal.
    EXPECT_LE(fastest, ideal_usec * 1.25);
}

TEST(rdma_app, first_wqe_is_posted_at_the_end_of_the_client_start_window)
{
    for (const char* type : {"simultaneous", "uniform", "sequential"}) {
        const std::string out = scratch_dir(std::string("rdma-start-") + type);
        const command_result r = run_app(out, {std::string("RdmaApplication.StartType=") + type,
                                               "RdmaApplication.NumConnections=4"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const csv perf = read_csv(out + "/uetsim-rdma-perf-0.csv");
        ASSERT_GT(perf.rows.size(), 0u);
        std::map<std::string, double> first;  // per connection: its first doorbell
        for (size_t i = 0; i < perf.rows.size(); ++i) {
            const std::string c = perf.str(i, "application_name");
            const double t = perf.num(i, "start_time_sec");
            if (!first.count(c) || t < first[c]) first[c] = t;
        }
        EXPECT_EQ(first.size(), 32u) << type;  // 8 pairs x 4 connections, each its own instance
        double earliest = 1;
        for (const auto& [c, t] : first) {
            EXPECT_GE(t, 0.003) << type << " " << c;
            earliest = std::min(earliest, t);
        }
        EXPECT_DOUBLE_EQ(earliest, 0.003) << type;
    }
}

TEST(rdma_app, one_connection_completes_one_wqe_per_wqe_latency)
{
    // Little's law on one connection: completions per second x mean latency = WQEs outstanding.
    for (int pending : {1, 10}) {
        const std::string out = scratch_dir("rdma-little-" + std::to_string(pending));
        const command_result r = run_app(
            out, with(two_hosts, {"RdmaApplication.MaxPendingWQEs=" + std::to_string(pending)}));
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const csv perf = read_csv(out + "/uetsim-rdma-perf-0.csv");
        // Recording window of the default timeline with RunTime 0.002: 0.005 .. 0.007 s.
        std::vector<double> lat;
        for (size_t i = 0; i < perf.rows.size(); ++i) {
            const double t = perf.num(i, "sim_time_sec");
            if (t >= 0.005 && t < 0.007) lat.push_back(perf.num(i, "perf_metric_usec") * 1e-6);
        }
        ASSERT_GT(lat.size(), 50u);
        const double mean = std::accumulate(lat.begin(), lat.end(), 0.0) / double(lat.size());
        const double rate = double(lat.size()) / 0.002;
        EXPECT_NEAR(rate * mean, pending, 0.03 * pending) << "pending " << pending;
    }
}

TEST(rdma_app, more_connections_fill_the_link)
{
    std::map<int, double> goodput;
    for (int n : {1, 4}) {
        const std::string out = scratch_dir("rdma-conn-" + std::to_string(n));
        const command_result r =
            run_app(out, with(two_hosts, {"RdmaApplication.NumConnections=" + std::to_string(n)}));
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
        const csv perf = read_csv(out + "/uetsim-rdma-perf-0.csv");
        uint64_t done = 0;
        for (size_t i = 0; i < perf.rows.size(); ++i) {
            const double t = perf.num(i, "sim_time_sec");
            if (t >= 0.005 && t < 0.007) ++done;
        }
        goodput[n] = double(done) * 250000 * 8 / 0.002;
    }
    EXPECT_GE(goodput[4], 0.9 * achievable_goodput_bps) << goodput[4];
    EXPECT_LE(goodput[4], 1.01 * achievable_goodput_bps) << goodput[4];
    // One WQE on the wire at a time leaves the link idle for the acknowledgment's return.
    EXPECT_LT(goodput[1], 0.9 * goodput[4]) << goodput[1];
}

TEST(rdma_app, keeps_max_pending_wqes_outstanding_and_records_only_completed_ones)
{
    const std::string out = scratch_dir("rdma-outstanding");
    const command_result r = run_app(out, {});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const nlohmann::json j = inspect({});
    ASSERT_EQ(j["placement"]["pairs"].size(), 8u);
    const csv beacon = read_csv(out + "/uetsim-beacon-0.csv");
    ASSERT_GE(beacon.rows.size(), 7u);
    for (size_t i = 0; i < beacon.rows.size(); ++i) {
        const double t = beacon.num(i, "sim_time_sec");
        const double outstanding = beacon.num(i, "tx_client") - beacon.num(i, "rx_client");
        // 8 pairs x 1 connection x MaxPendingWQEs 10 from the first WQE to the stop time.
        EXPECT_EQ(outstanding, t < 0.003 ? 0 : 80) << "t " << t;
    }
    const size_t last = beacon.rows.size() - 1;
    EXPECT_DOUBLE_EQ(beacon.num(last, "sim_time_sec"), 0.008);  // the stop time
    // One rdma-perf row per completed WQE, none for the 80 still outstanding at the stop.
    const csv perf = read_csv(out + "/uetsim-rdma-perf-0.csv");
    EXPECT_EQ(double(perf.rows.size()), beacon.num(last, "rx_client"));
    std::map<std::string, double> per_conn;
    for (size_t i = 0; i < perf.rows.size(); ++i) {
        EXPECT_EQ(perf.num(i, "num_wqe_sent"), perf.num(i, "num_wqe_complete") + 9) << i;
        EXPECT_EQ(perf.num(i, "wqe_id"), perf.num(i, "num_wqe_complete")) << i;
        per_conn[perf.str(i, "application_name")] = perf.num(i, "num_wqe_complete");
    }
    EXPECT_EQ(per_conn.size(), 8u);
}

TEST(rdma_app, connection_setup_and_doorbells_cross_pcie)
{
    const std::string out = scratch_dir("rdma-pcie");
    const command_result r =
        run_app(out, {"Records.Enabled=rdma-perf, beacon, pcie-stats, uet-transport-stats"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = inspect({});
    std::vector<int> role(16, -1);  // 1 Initiator, 0 Responder
    for (const auto& h : j["placement"]["initiators"]) role[h.get<int>()] = 1;
    for (const auto& h : j["placement"]["responders"]) role[h.get<int>()] = 0;
    const csv pcie = read_csv(out + "/uetsim-pcie-stats-0.csv");
    const csv beacon = read_csv(out + "/uetsim-beacon-0.csv");
    const double posted = beacon.num(beacon.rows.size() - 1, "tx_client");
    // The last row set: one row per side per host.
    const double end = pcie.num(pcie.rows.size() - 1, "sim_time_sec");
    double doorbells = 0;
    int rows = 0;
    for (size_t i = 0; i < pcie.rows.size(); ++i) {
        if (pcie.num(i, "sim_time_sec") != end) continue;
        ++rows;
        const int host = std::stoi(pcie.str(i, "component_name").substr(4));
        const bool host_side = pcie.str(i, "side") == "host";
        if (host_side) {
            doorbells += pcie.num(i, "doorbells");
            // Request and acknowledgment from an Initiator; the response from a Responder.
            EXPECT_EQ(pcie.num(i, "connection_sends"), role[host] == 1 ? 2 : 1) << host;
        } else {
            // What the NIC wrote into host memory: the other side's two messages, or one.
            EXPECT_EQ(pcie.num(i, "connection_writes"), role[host] == 1 ? 1 : 2) << host;
            if (role[host] == 0) {
                EXPECT_GT(pcie.num(i, "data_writes"), 0) << host;
            } else {
                EXPECT_EQ(pcie.num(i, "data_writes"), 0) << host;
            }
        }
    }
    EXPECT_EQ(rows, 32);
    EXPECT_EQ(doorbells, posted);
    // wqes_created counts the work requests posted to the NIC (their doorbells), not only the
    // one in service per connection: all but the doorbells still crossing PCIe at the end.
    const csv uts = read_csv(out + "/uetsim-uet-transport-stats-0.csv");
    const double uend = uts.num(uts.rows.size() - 1, "sim_time_sec");
    double created = 0, completed = 0;
    for (size_t i = 0; i < uts.rows.size(); ++i)
        if (uts.num(i, "sim_time_sec") == uend) {
            created += uts.num(i, "wqes_created");
            completed += uts.num(i, "wqes_completed");
        }
    EXPECT_LE(created, posted);
    EXPECT_GE(created, posted - 8);  // at most one doorbell in flight per connection
    EXPECT_GE(created, completed + 72);
}

TEST(rdma_app, same_seed_same_rdma_perf_and_another_seed_another_pairing)
{
    const std::vector<std::string> sets = {"RdmaApplication.StartType=uniform",
                                           "RdmaApplication.NumConnections=2"};
    const std::string a = scratch_dir("rdma-seed-a"), b = scratch_dir("rdma-seed-b");
    ASSERT_EQ(run_app(a, sets).exit_code, 0);
    ASSERT_EQ(run_app(b, sets).exit_code, 0);
    const std::string perf_a = read_text(a + "/uetsim-rdma-perf-0.csv");
    EXPECT_GT(perf_a.size(), 1000u);
    EXPECT_EQ(perf_a, read_text(b + "/uetsim-rdma-perf-0.csv"));
    EXPECT_EQ(read_text(a + "/uetsim-beacon-0.csv"), read_text(b + "/uetsim-beacon-0.csv"));
    EXPECT_NE(inspect({"Simulation.RandomSeed=1"})["placement"]["pairs"],
              inspect({"Simulation.RandomSeed=2"})["placement"]["pairs"]);
}

TEST(rdma_app, fifteen_initiators_share_one_responder)
{
    // Ratios 0.9 / 0.1 on 16 hosts: 15 Initiators, 1 Responder, 15 pairs into one NIC.
    const std::string out = scratch_dir("rdma-incast");
    const command_result r =
        run_app(out, {"RdmaApplication.InitiatorRatio=0.9", "RdmaApplication.ResponderRatio=0.1"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const csv perf = read_csv(out + "/uetsim-rdma-perf-0.csv");
    std::map<std::string, int> per_conn;
    double done = 0;
    for (size_t i = 0; i < perf.rows.size(); ++i) {
        ++per_conn[perf.str(i, "application_name")];
        const double t = perf.num(i, "sim_time_sec");
        if (t >= 0.005 && t < 0.007) ++done;
    }
    EXPECT_EQ(per_conn.size(), 15u);
    // The Responder's link is the bottleneck and stays full.
    EXPECT_GE(done * 250000 * 8 / 0.002, 0.9 * achievable_goodput_bps);
}

TEST(rdma_app, setup_messages_and_data_class_on_the_wire)
{
    // The Initiator's link, decoded by tshark: the three setup messages (request and
    // acknowledgment out, response in) as 78-byte UDP frames to port 18515, then data packets
    // in class RdmaDataPacketTC = 3 (DSCP 8 x 3 plus the UET role bits). Class 3's data reserves
    // in class 3's own egress pool, so the NIC's PoolAllocationVector gives it one.
    const std::string out = scratch_dir("rdma-wire");
    const nlohmann::json j = inspect(two_hosts);
    ASSERT_EQ(j["placement"]["initiators"][0], 0);
    const command_result r = run_app(
        out, with(two_hosts, {"RdmaApplication.RdmaDataPacketTC=3",
                              "UetNic.EgressPoolAllocationVector=[0.6, 0.1, 0.1, 0.2, 0, 0, "
                              "0, 0]",
                              "Capture.Links=[host0-switch0]", "Simulation.RunTime=0"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string fields =
        shell_output("tshark -r " + out +
                     "/uetsim-host0-switch0.pcap -T fields -e ip.src -e "
                     "udp.dstport -e ip.dsfield.dscp -e frame.len 2>/dev/null");
    std::istringstream in(fields);
    std::string src;
    unsigned port = 0, dscp = 0, len = 0;
    int setup_out = 0, setup_in = 0, data = 0;
    while (in >> src >> port >> dscp >> len) {
        if (port == 18515) {
            EXPECT_EQ(len, 78u - 4);  // pcap frames leave out the FCS
            (src == "10.0.0.1" ? setup_out : setup_in)++;
        } else if (port == 4793 && src == "10.0.0.1" && len > 1000) {
            ++data;
            EXPECT_EQ(dscp / 8, 3u) << dscp;
        }
    }
    EXPECT_EQ(setup_out, 2);  // request, acknowledgment
    EXPECT_EQ(setup_in, 1);   // response
    EXPECT_GT(data, 100);
}

TEST(rdma_app, a_connection_keeps_one_pdc_across_its_wqes)
{
    // One queue pair, one PDC: from uet-monitor, the Initiator's data packets of 2 connections
    // use 2 PDCs, each carrying many WQEs with PSNs running on from one WQE to the next.
    const std::string out = scratch_dir("rdma-pdc");
    const command_result r =
        run_app(out, with(two_hosts, {"RdmaApplication.NumConnections=2", "Simulation.RunTime=0",
                                      "Records.UetMonitor=true"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const csv mon = read_csv(out + "/uetsim-uet-monitor-0.csv");
    struct pdc_seen
    {
        std::set<std::string> wqes;
        uint32_t last_psn = 0;
        int packets = 0;
    };
    std::map<std::string, pdc_seen> pdcs;
    for (size_t i = 0; i < mon.rows.size(); ++i) {
        if (mon.str(i, "component_name") != "host0" || mon.str(i, "direction") != "Tx" ||
            mon.str(i, "packet_type") != "RUD_REQUEST")
            continue;
        pdc_seen& p = pdcs[mon.str(i, "local_PDC_ID")];
        const uint32_t psn = uint32_t(std::stoul(mon.str(i, "PSN")));
        // Without loss nothing is retransmitted: each packet takes the PDC's next PSN.
        if (p.packets++ > 0) {
            EXPECT_EQ(psn, uint32_t(p.last_psn + 1)) << "row " << i;
        }
        p.last_psn = psn;
        p.wqes.insert(mon.str(i, "job_ID"));
    }
    ASSERT_EQ(pdcs.size(), 2u);
    for (const auto& [id, p] : pdcs) {
        EXPECT_GE(p.wqes.size(), 10u) << id;
        // 62 packets per WQE; the last WQE may be cut short by the stop time.
        EXPECT_GT(p.packets, int(p.wqes.size() - 1) * 62) << id;
        EXPECT_LE(p.packets, int(p.wqes.size()) * 62) << id;
    }
}
