// The RDMA application seed's worked example "one WQE on the Scala RoCE NIC", end to end through
// the real `uetsim` command on Nic.Type roce: a WRITE of 250,000 B is 62 packets (61 x 4,096 +
// 144), 1 WRITE FIRST, 60 MIDDLE, 1 LAST, 250,000 + 62 x 58 = 253,596 B on the wire, 5.07 us of
// serialization at 400 Gbps. `inspect` gives those numbers; a run shows exactly those frames on
// the Initiator's link (pcap read back with tshark, and nd-stats), and the first WQE's
// perf_metric_usec is within 25% of serialization + propagation. Also: README's default scenario
// runs end to end on RoCE.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/roce_pcap.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

// The seed's numbers.
constexpr uint64_t wqe_bytes = 250000;
constexpr uint32_t mss = 4096, header_bytes = 58;
constexpr uint32_t packets = 62, last_payload = 144;
constexpr uint64_t wire_bytes = 253596;
// The fabric of the run: two hosts on one switch, the defaults' 400 Gbps and 100 ns host links.
constexpr double link_bps = 400e9, nic_delay_s = 100e-9;

// Two hosts, one connection keeping one WQE outstanding, WQE posting from 3 ms for 20 us (a
// few WQEs), the Initiator's (host0's) link captured.
std::vector<std::string> one_wqe_sets()
{
    return {"Nic.Type=roce",
            "Topology.Kind=single-switch",
            "Topology.Hosts=2",
            "Topology.LinkRate=400Gbps",
            "Link.NicDelay=100ns",
            "RdmaApplication.NumConnections=1",
            "RdmaApplication.MaxPendingWQEs=1",
            "Simulation.WarmUp=0",
            "Simulation.RunTime=0",
            "Simulation.CoolDown=20us",
            "Records.Enabled=[nd-stats, rdma-perf, beacon, roce-transport-stats]",
            "Capture.Links=[host0-switch0]"};
}

command_result run_with(const std::string& out, std::vector<std::string> sets)
{
    std::vector<std::string> args = {"run", "--quiet", "--out", out};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    return run_uetsim(args);
}

nlohmann::json manifest(const std::string& out)
{
    return nlohmann::json::parse(read_text(out + "/uetsim-manifest.json"));
}

// Data frames host0 (the Initiator, 10.0.0.1) sent in [from, to] seconds.
std::vector<roce_frame> data_sent(const std::vector<roce_frame>& frames, double from, double to)
{
    std::vector<roce_frame> d;
    for (const auto& f : frames)
        if (f.src == "10.0.0.1" && f.dst_port == 4791 && f.is_data() && f.time_s >= from &&
            f.time_s <= to)
            d.push_back(f);
    return d;
}

}  // namespace

TEST(roce_wqe_example, inspect_gives_the_seeds_packets_opcodes_bytes_and_time)
{
    const command_result r = run_uetsim({"inspect", "--json", "--set", "Nic.Type=roce"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json w = nlohmann::json::parse(r.out)["wqe"];
    EXPECT_EQ(w["nic"], "roce");
    EXPECT_EQ(w["bytes"].get<uint64_t>(), wqe_bytes);
    EXPECT_EQ(w["packets"].get<uint64_t>(), packets);
    EXPECT_EQ(w["full_packets"].get<uint64_t>(), 61u);
    EXPECT_EQ(w["last_packet_bytes"].get<uint64_t>(), last_payload);
    EXPECT_EQ(w["wire_bytes"].get<uint64_t>(), wire_bytes);
    EXPECT_EQ(w["opcodes"]["first"].get<int>(), 1);
    EXPECT_EQ(w["opcodes"]["middle"].get<int>(), 60);
    EXPECT_EQ(w["opcodes"]["last"].get<int>(), 1);
    EXPECT_EQ(w["opcodes"]["only"].get<int>(), 0);
    EXPECT_NEAR(w["serialization_s"].get<double>(), 5.07192e-6, 1e-11);  // "5.07 us"
    EXPECT_EQ(w["doorbell_pcie_bytes"].get<uint64_t>(), 92u);
}

TEST(roce_wqe_example, one_wqe_is_62_packets_and_253596_bytes_on_the_initiators_link)
{
    const std::string out = scratch_dir("roce-wqe");
    const command_result r = run_with(out, one_wqe_sets());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(manifest(out)["scoreboard"]["ok"].get<bool>()) << r.out;

    // The first WQE of the one connection: from its doorbell to its completion.
    const csv perf = read_csv(out + "/uetsim-rdma-perf-0.csv");
    ASSERT_GE(perf.rows.size(), 2u) << "a few WQEs in 20 us";
    ASSERT_EQ(perf.num(0, "wqe_id"), 1);
    EXPECT_EQ(perf.num(0, "transfer_size"), double(wqe_bytes));
    const double posted = perf.num(0, "start_time_sec"), done = perf.num(0, "sim_time_sec");

    // One message at a time per queue pair: every data frame between the doorbell and the
    // completion is the first WQE's.
    const std::vector<roce_frame> frames = read_roce_frames(out + "/uetsim-host0-switch0.pcap");
    const std::vector<roce_frame> d = data_sent(frames, posted, done);
    ASSERT_EQ(d.size(), packets);
    int first = 0, middle = 0, last = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < d.size(); ++i) {
        bytes += d[i].wire_bytes;
        first += d[i].opcode == uetsim::ib::rc_rdma_write_first;
        middle += d[i].opcode == uetsim::ib::rc_rdma_write_middle;
        last += d[i].opcode == uetsim::ib::rc_rdma_write_last;
        EXPECT_EQ(d[i].wire_bytes, (i + 1 < d.size() ? mss : last_payload) + header_bytes) << i;
        EXPECT_EQ(d[i].dest_qp, d[0].dest_qp) << i;
        if (i > 0) {
            EXPECT_EQ(d[i].psn, (d[i - 1].psn + 1) & 0xFFFFFF) << i;  // no loss, no gap
        }
    }
    EXPECT_EQ(first, 1);
    EXPECT_EQ(middle, 60);
    EXPECT_EQ(last, 1);
    EXPECT_EQ(d.front().opcode, uetsim::ib::rc_rdma_write_first);
    EXPECT_EQ(d.back().opcode, uetsim::ib::rc_rdma_write_last);
    EXPECT_EQ(bytes, wire_bytes);
    // The next WQE starts after the completion, with the next PSN and a WRITE FIRST.
    const std::vector<roce_frame> next = data_sent(frames, done, 1.0);
    ASSERT_FALSE(next.empty());
    EXPECT_EQ(next.front().opcode, uetsim::ib::rc_rdma_write_first);
    EXPECT_EQ(next.front().psn, (d.back().psn + 1) & 0xFFFFFF);

    // The seed's ideal: serialization of the whole WQE at the line rate plus the propagation of
    // the data (two host links) and of the acknowledgement back (the same two).
    const double serialization_us = double(wire_bytes) * 8 / link_bps * 1e6;
    const double propagation_us = 4 * nic_delay_s * 1e6;
    const double ideal_us = serialization_us + propagation_us;
    const double first_us = perf.num(0, "perf_metric_usec");
    EXPECT_NEAR(first_us, (done - posted) * 1e6, 1e-3);
    EXPECT_GE(first_us, ideal_us);
    EXPECT_LE(first_us, 1.25 * ideal_us) << "ideal " << ideal_us << " us";
    RecordProperty("first_wqe_usec", std::to_string(first_us));
    RecordProperty("ideal_usec", std::to_string(ideal_us));

    // nd-stats of the Initiator's port, in a second run stopped 1 ns after that completion
    // (before the next WQE's first frame): every frame it sent is the pcap's, and without the
    // connection-setup frames they are the WQE's 62 packets and 253,596 bytes.
    char stop[64];
    std::snprintf(stop, sizeof stop, "Simulation.StopTime=%.9fs",
                  std::ceil(done * 1e9) / 1e9 + 1e-9);
    const std::string out2 = scratch_dir("roce-wqe-stop");
    std::vector<std::string> sets = one_wqe_sets();
    sets.push_back(stop);
    const command_result r2 = run_with(out2, sets);
    ASSERT_EQ(r2.exit_code, 0) << r2.err;
    const std::vector<roce_frame> f2 = read_roce_frames(out2 + "/uetsim-host0-switch0.pcap");
    uint64_t tx_frames = 0, tx_bytes = 0, setup_frames = 0, setup_bytes = 0, data_frames = 0;
    for (const auto& f : f2) {
        if (f.src != "10.0.0.1") continue;
        ++tx_frames, tx_bytes += f.wire_bytes;
        if (f.is_data()) ++data_frames;
        if (f.dst_port == 18515) ++setup_frames, setup_bytes += f.wire_bytes;
    }
    EXPECT_EQ(data_frames, packets);
    EXPECT_EQ(setup_frames, 2u);  // connection request and acknowledgment
    const csv nd = read_csv(out2 + "/uetsim-nd-stats-0.csv");
    double nd_packets = -1, nd_bytes = -1;
    for (size_t i = 0; i < nd.rows.size(); ++i)
        if (nd.str(i, "component_name") == "host0")
            nd_packets = nd.num(i, "total_packets_tx"),
            nd_bytes = nd.num(i, "total_bytes_tx_GB") * 1e9;  // the last row: at the stop
    EXPECT_EQ(nd_packets, double(tx_frames));
    EXPECT_NEAR(nd_bytes, double(tx_bytes), 0.5);
    EXPECT_EQ(nd_packets - double(setup_frames), double(packets));
    EXPECT_NEAR(nd_bytes - double(setup_bytes), double(wire_bytes), 0.5);
}

TEST(roce_wqe_example, the_default_scenario_runs_end_to_end_on_roce)
{
    // README's default scenario (16 hosts, 8 pairs, 10 WQEs outstanding each) with
    // --set Nic.Type=roce and a 2 ms recording window.
    const std::string out = scratch_dir("roce-default");
    const command_result r =
        run_with(out, {"Nic.Type=roce", "Simulation.RunTime=0.002",
                       "Records.Enabled=[nd-stats, rdma-perf, beacon, roce-transport-stats, "
                       "ecn-pfc-stats]"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const nlohmann::json m = manifest(out);
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    const csv perf = read_csv(out + "/uetsim-rdma-perf-0.csv");
    ASSERT_GT(perf.rows.size(), 100u);
    std::vector<std::string> conns;
    for (size_t i = 0; i < perf.rows.size(); ++i) {
        EXPECT_EQ(perf.num(i, "transfer_size"), double(wqe_bytes));
        conns.push_back(perf.str(i, "application_name"));
    }
    std::sort(conns.begin(), conns.end());
    EXPECT_EQ(std::unique(conns.begin(), conns.end()) - conns.begin(), 8) << "8 pairs";
    // Closed loop: 80 WQEs outstanding at every beacon row after the first posting.
    const csv beacon = read_csv(out + "/uetsim-beacon-0.csv");
    for (size_t i = 0; i < beacon.rows.size(); ++i)
        if (beacon.num(i, "sim_time_sec") >= 0.003) {
            EXPECT_EQ(beacon.num(i, "tx_client") - beacon.num(i, "rx_client"), 80) << i;
        }
    // The transport counters add up: every completed WQE was created, 62 data packets each.
    const csv rts = read_csv(out + "/uetsim-roce-transport-stats-0.csv");
    double created = 0, completed = 0, writes = 0;
    const double end = rts.num(rts.rows.size() - 1, "sim_time_sec");
    for (size_t i = 0; i < rts.rows.size(); ++i)
        if (rts.num(i, "sim_time_sec") == end) {
            created += rts.num(i, "num_wqe_created");
            completed += rts.num(i, "num_wqe_completed");
            writes += rts.num(i, "rdma_write_cnt");
        }
    EXPECT_EQ(completed, double(perf.rows.size()));
    // num_wqe_created counts the WQEs posted to the NIC (their doorbells), the 9 of each
    // connection waiting behind the one in service included: 80 more than completed, less any
    // doorbell still crossing PCIe when the run ends (at most one per connection).
    EXPECT_LE(created, completed + 80);
    EXPECT_GE(created, completed + 80 - 8);
    EXPECT_GE(writes, completed * packets);
}
