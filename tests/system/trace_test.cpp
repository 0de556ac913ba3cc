// Waveforms of a real run (Trace.*): the FST opens in gtkwave's own tools (fst2vcd, vcd2fst), a
// trigger on the first trim starts the dump PreTrigger before it, every change lies in the
// window, a queue's bytes stay under its limit, and the file scales with the window.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hw/switch/flow_hash.h"
#include "tests/support/run_uetsim.h"
#include "tests/support/vcd_reader.h"

using namespace uetsim::test;

namespace {

// An RDMA incast (15 initiators to one responder) on a leaf-spine with trimming at PlaneBDP 200 KB.
const char* const incast =
    "Simulation: {Name: tr, RunTime: 200us}\n"
    "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8, LinkRate: 400Gbps}\n"
    "Nic: {Type: uet}\n"
    "UetNic: {PacketSprayingType: Recycled Entropy Packet Spraying}\n"
    "Switch: {UETPolicyEnabled: true, TrimmingEnabled: true, PlaneBDP: 200KB,\n"
    "         EnablePFC: [0, 0, 0, 0, 0, 0, 0, 0]}\n"
    "RdmaApplication: {InitiatorRatio: 0.9, ResponderRatio: 0.1, NumConnections: 2, "
    "MaxPendingWQEs: 10, StartType: uniform}\n";
constexpr uint64_t queue_limit = 200000;

bool have(const char* tool)
{
    return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

uint64_t file_size(const std::string& path)
{
    struct stat st
    {
    };
    return stat(path.c_str(), &st) == 0 ? uint64_t(st.st_size) : 0;
}

void run_ok(const std::string& scenario, const std::string& out, std::vector<std::string> sets)
{
    std::vector<std::string> args = {"run", scenario, "--quiet", "--out", out};
    for (auto& s : sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    const command_result r = run_uetsim(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
}

TEST(trace, trigger_on_first_trim_starts_pre_trigger_before_it)
{
    if (!have("fst2vcd")) FAIL() << "gtkwave's fst2vcd is not installed (scripts/setup.sh)";
    const std::string dir = scratch_dir("trace-trigger");
    const std::string sc = write_file(dir + "/incast.yaml", incast);
    run_ok(sc, dir + "/out",
           {"Trace.Enabled=true", "Trace.Components=[host0, leaf*]",
            "Trace.Trigger={On: trim, Component: leaf*}", "Trace.PreTrigger=10us",
            "Trace.PostTrigger=20us"});
    // The FST that the run wrote opens in gtkwave's converter.
    const std::string text = shell_output("fst2vcd " + dir + "/out/tr.fst 2>/dev/null");
    const vcd v = parse_vcd(text);
    ASSERT_FALSE(v.changes.empty());

    // The first trim on a leaf fires the trigger.
    uint64_t fired = UINT64_MAX;
    for (const auto& c : v.changes)
        if (c.name.find(".trims") != std::string::npos && c.value == 1 && c.t < fired) fired = c.t;
    ASSERT_NE(fired, UINT64_MAX) << "no trim in the trace";
    const uint64_t first = v.changes.front().t;
    EXPECT_EQ(first, fired - 10'000'000) << "the dump starts PreTrigger before the trim";
    for (const auto& c : v.changes) {
        EXPECT_GE(c.t, first);
        EXPECT_LE(c.t, fired + 20'000'000) << c.name;
    }
    // Every leaf port's bytes stay within the egress limit (1.5x for trimmable
    // retransmissions, the switch pages' allowance).
    int queues = 0;
    for (const auto& n : v.names) {
        if (n.rfind("leaf", 0) != 0 || n.find(".queue_bytes") == std::string::npos) continue;
        ++queues;
        for (const auto& c : v.of(n)) EXPECT_LE(c.value, queue_limit * 3 / 2) << n;
    }
    EXPECT_EQ(queues, 32);  // two leaves, each with 8 host ports and 8 spine ports
    // The host's window signals are there, named {component}.{signal}.
    EXPECT_FALSE(v.of("host0.g0.cwnd_bytes").empty());
    // The layout names the trace and itself relative to its folder, so the folder can move.
    const std::string gtkw = read_text(dir + "/out/tr.gtkw");
    EXPECT_NE(gtkw.find("[dumpfile] \"tr.fst\"\n[savefile] \"tr.gtkw\"\n"), std::string::npos)
        << gtkw;
    EXPECT_NE(gtkw.find("host0.g0.cwnd_bytes"), std::string::npos);
}

TEST(trace, trigger_on_the_monitors_rtt_trigger_shares_its_instant)
{
    if (!have("fst2vcd")) FAIL() << "gtkwave's fst2vcd is not installed (scripts/setup.sh)";
    const std::string dir = scratch_dir("trace-monitor");
    const std::string sc = write_file(dir + "/incast.yaml", incast);
    run_ok(sc, dir + "/out",
           {"Records.TriggerLoggingOnRttEnable=true", "Records.TriggerLoggingOnRttThreshold=10us",
            "Trace.Enabled=true", "Trace.Components=[host*]", "Trace.Trigger={On: monitor}",
            "Trace.PreTrigger=5us", "Trace.PostTrigger=10us"});
    // The monitor's first row is the ACK whose RTT fired its trigger.
    const csv mon = read_csv(dir + "/out/tr-uet-monitor-0.csv");
    ASSERT_FALSE(mon.rows.empty());
    ASSERT_GE(mon.num(0, "RTT_ns"), 10000.0);
    const uint64_t at_ps = uint64_t(std::llround(mon.num(0, "sim_time_ns") * 1000));
    const std::string nic = mon.str(0, "component_name");

    const vcd v = parse_vcd(shell_output("fst2vcd " + dir + "/out/tr.fst 2>/dev/null"));
    const auto fired = v.of(nic + ".monitor_triggers");
    ASSERT_FALSE(fired.empty()) << nic;
    EXPECT_EQ(fired.back().t, at_ps) << "the trace's trigger is the monitor's row";
    EXPECT_EQ(fired.back().value, 1u);
    EXPECT_EQ(v.changes.front().t, at_ps - 5'000'000) << "the dump starts PreTrigger before it";
    for (const auto& c : v.changes) EXPECT_LE(c.t, at_ps + 10'000'000) << c.name;
}

TEST(trace, window_holds_every_change_and_scales_with_its_length)
{
    if (!have("vcd2fst")) FAIL() << "gtkwave's vcd2fst is not installed (scripts/setup.sh)";
    const std::string dir = scratch_dir("trace-window");
    const std::string sc = write_file(dir + "/incast.yaml", incast);
    std::map<int, uint64_t> bytes;
    for (int us : {100, 200}) {
        const std::string out = dir + "/w" + std::to_string(us);
        run_ok(sc, out,
               {"Trace.Enabled=true", "Trace.Components=[host*, leaf*]", "Trace.File=tr.vcd",
                "Simulation.RunTime=400us", "Trace.Start=3200us",
                "Trace.Stop=" + std::to_string(3200 + us) + "us"});
        const std::string text = read_text(out + "/tr.vcd");
        const vcd v = parse_vcd(text);
        ASSERT_FALSE(v.changes.empty());
        for (const auto& c : v.changes) {
            EXPECT_GE(c.t, 3'200'000'000u) << c.name;
            EXPECT_LE(c.t, (3200 + uint64_t(us)) * 1'000'000) << c.name;
        }
        bytes[us] = text.size() - text.find("$enddefinitions");
        // gtkwave's converter accepts the VCD writer's file.
        EXPECT_EQ(
            std::system(("vcd2fst " + out + "/tr.vcd " + out + "/tr.fst >/dev/null 2>&1").c_str()),
            0);
        EXPECT_GT(file_size(out + "/tr.fst"), 0u);
    }
    const double ratio = double(bytes[200]) / double(bytes[100]);
    EXPECT_GT(ratio, 1.6) << bytes[100] << " " << bytes[200];
    EXPECT_LT(ratio, 2.4) << bytes[100] << " " << bytes[200];
}

}  // namespace

namespace {

// gtkwave opens the layout a run writes, under Xvfb, and grabs the window to a PNG (the
// docs/waveforms/reps-freezing.png shipped is made the same way from
// docs/waveforms/reps-freezing.yaml).
TEST(trace, gtkwave_opens_the_runs_layout_and_grabs_a_png)
{
    if (!have("gtkwave") || !have("xvfb-run"))
        FAIL() << "gtkwave or xvfb is not installed (scripts/setup.sh)";
    const std::string dir = scratch_dir("trace-shot");
    const std::string sc = write_file(
        dir + "/s.yaml",
        "Simulation: {Name: fz}\n"
        "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 8}\n"
        "UetNic: {PacketSprayingType: Recycled Entropy Packet Spraying}\n"
        "Faults:\n"
        "  - {At: 20us, Link: leaf0-spine0, Action: degrade, Rate: 25Gbps}\n"
        "  - {At: 20us, Link: leaf1-spine0, Action: degrade, Rate: 25Gbps}\n"
        "Trace: {Enabled: true, Components: [host0], Signals: ['g0.*'], GroupSlots: 1,\n"
        "        Trigger: {On: freeze, Component: host0}, PreTrigger: 20us, PostTrigger: 60us}\n"
        "Flows:\n"
        "  - {Src: 0, Dst: 8, Bytes: 8MiB}\n"
        "  - {Src: 1, Dst: 9, Bytes: 8MiB}\n");
    run_ok(sc, dir + "/out", {});
    // REPS froze on the degraded spine: the freezing flag rises inside the trace.
    const vcd v = parse_vcd(shell_output("fst2vcd " + dir + "/out/fz.fst 2>/dev/null"));
    bool froze = false;
    for (const auto& c : v.of("host0.g0.reps_freezing")) froze = froze || c.value == 1;
    EXPECT_TRUE(froze);
    const std::string png = dir + "/fz.png";
    // gtkwave says what it shows: the window's first and last time and the dump's end.
    write_file(dir + "/grab.tcl",
               "set f [open " + dir +
                   "/shown.txt w]\n"
                   "puts $f \"[gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime] "
                   "[gtkwave::getMaxTime]\"\nclose $f\n"
                   "gtkwave::/File/Grab_To_File " +
                   png + "\ngtkwave::/File/Quit\n");
    // The output folder moved, gtkwave started from another folder: the layout still finds the
    // trace beside it.
    std::filesystem::rename(dir + "/out", dir + "/moved");
    const std::string cmd =
        "cd / && timeout 60 xvfb-run -a -s '-screen 0 1600x1000x24' gtkwave "
        "--script=" +
        dir + "/grab.tcl " + dir + "/moved/fz.gtkw >" + dir + "/gtkwave.log 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << read_text(dir + "/gtkwave.log");
    // It opens on the dumped window (the trigger's 20 us before to 60 us after), all of it.
    std::istringstream shown(read_text(dir + "/shown.txt"));
    uint64_t from = 0, to = 0, dump_end = 0;
    shown >> from >> to >> dump_end;
    const std::string layout = read_text(dir + "/moved/fz.gtkw");
    const size_t ts = layout.find("[timestart] ");
    ASSERT_NE(ts, std::string::npos) << layout;
    EXPECT_EQ(from, std::stoull(layout.substr(ts + 12)));
    EXPECT_GE(to, dump_end);
    EXPECT_LT(double(to - from), 1.1 * double(dump_end - from));
    EXPECT_GT(dump_end - from, 70'000'000u);  // about 80 us dumped
    const std::string head = read_text(png).substr(0, 8);
    EXPECT_EQ(head, std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_GT(file_size(png), 10000u);  // a drawn window, not an empty image
}

}  // namespace

namespace {

// A NIC's counters in the trace equal uet-transport-stats' at each row's time: the NACKs and
// timeouts every host has received, read from the same run.
TEST(trace, nic_counters_equal_uet_transport_stats_at_each_row)
{
    const std::string dir = scratch_dir("trace-records");
    const std::string sc = write_file(dir + "/incast.yaml", incast);
    run_ok(sc, dir + "/out",
           {"Trace.Enabled=true", "Trace.Components=[host*]",
            "Trace.Signals=[nacks_received, rto_count, pcie*]", "Trace.File=tr.vcd"});
    const vcd v = parse_vcd(read_text(dir + "/out/tr.vcd"));
    const csv st = read_csv(dir + "/out/tr-uet-transport-stats-0.csv");
    ASSERT_GT(st.rows.size(), 0u);
    // The value a signal holds at time t (ps): its last change at or before t.
    auto at = [&](const std::string& name, uint64_t t) {
        uint64_t val = 0;
        for (const auto& c : v.of(name))
            if (c.t <= t) val = c.value;
        return val;
    };
    uint64_t nacks_seen = 0;
    for (size_t r = 0; r < st.rows.size(); ++r) {
        const uint64_t t = uint64_t(std::llround(st.num(r, "sim_time_sec") * 1e12));
        const std::string host = st.str(r, "component_name");
        EXPECT_EQ(at(host + ".nacks_received", t), uint64_t(st.num(r, "nack_pkts_rcvd")))
            << host << " at " << t;
        EXPECT_EQ(at(host + ".rto_count", t), uint64_t(st.num(r, "num_rto"))) << host;
        nacks_seen += uint64_t(st.num(r, "nack_pkts_rcvd"));
    }
    EXPECT_GT(nacks_seen, 0u) << "the incast trims: some NACKs must be counted";
    // An initiator's PCIe lanes carry payload fetches (NIC to host: read requests; host to NIC:
    // completions): busy rises and falls in both directions.
    for (const char* dir : {"host1.pcie_nic_to_host_busy", "host1.pcie_host_to_nic_busy"}) {
        int rises = 0, falls = 0;
        for (const auto& c : v.of(dir)) (c.value ? rises : falls) += c.t > 0 ? 1 : 0;
        EXPECT_GT(rises, 0) << dir;
        EXPECT_GT(falls, 0) << dir;
    }
}

// The flow-hash RTL block (Switch.RtlFlowHashLockstep) traces its pins into the run's own FST,
// under its switch ({switch}.rtl.{pin}), in the same window as the model's signals: at the end
// of every time step the hash pin equals the C++ model's hash of the input pins beside it.
TEST(trace, rtl_flow_hash_pins_share_the_trace_and_match_the_model)
{
    if (!have("fst2vcd")) FAIL() << "gtkwave's fst2vcd is not installed (scripts/setup.sh)";
    const std::string dir = scratch_dir("trace-rtl");
    const std::string sc = write_file(dir + "/rtl.yaml",
                                      "Simulation: {Name: tr, StopTime: 1ms}\n"
                                      "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8}\n"
                                      "Switch: {RtlFlowHashLockstep: true}\n"
                                      "Flows:\n"
                                      "  - {Src: 0, Dst: 8, Bytes: 256KiB}\n"
                                      "  - {Src: 1, Dst: 9, Bytes: 256KiB}\n"
                                      "  - {Src: 10, Dst: 2, Bytes: 256KiB}\n");
    run_ok(sc, dir + "/out",
           {"Trace.Enabled=true", "Trace.Components=[leaf0, host0]", "Trace.Start=2us",
            "Trace.Stop=6us"});
    const vcd v = parse_vcd(shell_output("fst2vcd " + dir + "/out/tr.fst 2>/dev/null"));
    const char* const pins[] = {"method",   "protocol", "src_ip", "dst_ip",
                                "src_port", "dst_port", "salt",   "hash"};
    for (const char* p : pins)
        EXPECT_NE(std::find(v.names.begin(), v.names.end(), std::string("leaf0.rtl.") + p),
                  v.names.end())
            << p;
    // The pins at the end of each time step that changed one.
    std::map<uint64_t, std::map<std::string, uint64_t>> steps;
    std::map<std::string, uint64_t> now;
    bool model_signals = false;
    for (const auto& c : v.changes) {
        EXPECT_GE(c.t, 2000000u) << c.name;
        EXPECT_LE(c.t, 6000000u) << c.name;
        if (c.name.rfind("leaf0.rtl.", 0) != 0) {
            model_signals = true;
            continue;
        }
        now[c.name.substr(10)] = c.value;
        steps[c.t] = now;
    }
    EXPECT_TRUE(model_signals) << "host0's and leaf0's own signals share the file";
    ASSERT_GT(steps.size(), 10u) << "leaf0 hashes many packets in 4 us";
    const uint32_t host_ips = 0x0A000000;
    for (const auto& [t, p] : steps) {
        if (t == 2000000u) continue;  // the window opens with the pins of an earlier key
        uetsim::flow_key k;
        k.protocol = uint8_t(p.at("protocol"));
        k.src_ip = uint32_t(p.at("src_ip"));
        k.dst_ip = uint32_t(p.at("dst_ip"));
        k.src_port = uint16_t(p.at("src_port"));
        k.dst_port = uint16_t(p.at("dst_port"));
        EXPECT_EQ(k.protocol, 17u) << t;
        EXPECT_EQ(k.dst_port, 4793u) << t;  // UET over UDP
        EXPECT_EQ(k.dst_ip & 0xFFFFFF00u, host_ips) << t;
        const auto m = uetsim::ecmp_hash_method(p.at("method"));
        EXPECT_EQ(p.at("hash"), uetsim::flow_hash16(m, k, uint32_t(p.at("salt")))) << "at " << t;
    }
    // The layout groups the pins under leaf0.
    const std::string gtkw = read_text(dir + "/out/tr.gtkw");
    const size_t group = gtkw.find("\n@200\n-leaf0\n");
    ASSERT_NE(group, std::string::npos);
    const size_t hash = gtkw.find("leaf0.rtl.hash[15:0]");
    ASSERT_NE(hash, std::string::npos);
    EXPECT_GT(hash, group);
    const size_t next_group = gtkw.find("\n@200\n-", group + 1);  // the next comment row
    EXPECT_TRUE(next_group == std::string::npos || hash < next_group);
}

// The NIC blocks (Rtl.EntropyLoadBalancer, Rtl.SackTracker in both mode) trace their pins into
// the same FST under their NIC ({host}.rtl.entropy_lb.{pin}, {host}.rtl.sack_tracker.{pin}),
// beside the NIC's own signals: every entropy value the model's group signal shows in the window
// is one the RTL answered to a `next` request there, and the receiver's tracker answers data and
// ACK requests.
TEST(trace, rtl_nic_block_pins_share_the_trace_with_the_nic_state)
{
    if (!have("fst2vcd")) FAIL() << "gtkwave's fst2vcd is not installed (scripts/setup.sh)";
    const std::string dir = scratch_dir("trace-rtl-nic");
    const std::string sc = write_file(dir + "/rtl.yaml",
                                      "Simulation: {Name: tr, StopTime: 1ms}\n"
                                      "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8}\n"
                                      "UetNic: {PacketSprayingType: Recycled Entropy Packet "
                                      "Spraying}\n"
                                      "Rtl: {EntropyLoadBalancer: both, SackTracker: both}\n"
                                      "Flows:\n"
                                      "  - {Src: 0, Dst: 8, Bytes: 256KiB}\n");
    run_ok(sc, dir + "/out",
           {"Trace.Enabled=true", "Trace.Components=[host0, host8]", "Trace.Start=2us",
            "Trace.Stop=6us"});
    const vcd v = parse_vcd(shell_output("fst2vcd " + dir + "/out/tr.fst 2>/dev/null"));
    for (const char* p :
         {"host0.rtl.entropy_lb.req_op", "host0.rtl.entropy_lb.rsp_value",
          "host8.rtl.sack_tracker.req_psn", "host8.rtl.sack_tracker.rsp_cack", "host0.g0.entropy"})
        EXPECT_NE(std::find(v.names.begin(), v.names.end(), std::string(p)), v.names.end()) << p;
    // The pins at the end of each time step, per block.
    std::map<std::string, uint64_t> now;
    std::set<uint64_t> rtl_next_values, model_values;
    std::map<uint64_t, std::map<std::string, uint64_t>> steps;
    size_t tracker_changes = 0;
    for (const auto& c : v.changes) {
        now[c.name] = c.value;
        steps[c.t] = now;
        if (c.name.rfind("host8.rtl.sack_tracker.", 0) == 0) ++tracker_changes;
        if (c.name == "host0.g0.entropy" && c.t > 2000000u) model_values.insert(c.value);
    }
    for (const auto& [t, p] : steps) {
        auto op = p.find("host0.rtl.entropy_lb.rsp_op");
        auto value = p.find("host0.rtl.entropy_lb.rsp_value");
        if (op != p.end() && value != p.end() && op->second == 1)
            rtl_next_values.insert(value->second);
    }
    EXPECT_GT(tracker_changes, 10u) << "host8's tracker answers many data packets in 4 us";
    ASSERT_GT(model_values.size(), 3u) << "REPS explores several values in 4 us";
    for (uint64_t e : model_values)
        EXPECT_TRUE(rtl_next_values.count(e)) << "entropy " << e << " not answered by the RTL";
}

}  // namespace

namespace {

// The RoCE NIC's probes on the RoCE incast example (8 senders of 2 MiB into host0, ECN marking
// at the switch): host1's queue pair sends its 512 packets with PSNs counting up and bytes
// outstanding, the rate loop cuts its rate on CNPs, and the NIC counters in the trace end where
// roce-transport-stats' last rows do. The generic PFC probe is there too.
TEST(trace, roce_nic_probes_follow_the_queue_pair_and_match_roce_transport_stats)
{
    if (!have("fst2vcd")) FAIL() << "gtkwave's fst2vcd is not installed (scripts/setup.sh)";
    const std::string dir = scratch_dir("trace-roce");
    run_ok(source_dir() + "/examples/roce-incast.yaml", dir + "/out",
           {"Trace.Enabled=true", "Trace.Components=[host0, host1]", "Trace.GroupSlots=1"});
    const vcd v = parse_vcd(shell_output("fst2vcd " + dir + "/out/roce-incast.fst 2>/dev/null"));
    uint64_t first_psn = 0, last_psn = 0, max_outstanding = 0, min_rate = UINT64_MAX;
    for (const auto& c : v.of("host1.qp0.psn_next"))
        if (c.value) (first_psn ? last_psn : first_psn) = c.value;
    ASSERT_GT(first_psn, 0u);
    EXPECT_EQ(last_psn - first_psn + 1, 512u);  // the first value seen is after one packet
    for (const auto& c : v.of("host1.qp0.outstanding_bytes"))
        max_outstanding = std::max(max_outstanding, c.value);
    EXPECT_GE(max_outstanding, 4096u);
    EXPECT_LE(max_outstanding, 2u << 20);
    for (const auto& c : v.of("host1.qp0.rate_mbps"))
        if (c.value) min_rate = std::min(min_rate, c.value);
    EXPECT_LT(min_rate, 400'000u);  // cut below the 400 Gbps line rate by CNPs
    EXPECT_FALSE(v.of("host1.qp0.alpha_ppm").empty());
    EXPECT_FALSE(v.of("host1.tc0_paused").empty());
    // The counters' last values are the record's last rows'.
    const csv rs = read_csv(dir + "/out/roce-incast-roce-transport-stats-0.csv");
    double sent0 = -1, recvd1 = -1;
    for (size_t r = 0; r < rs.rows.size(); ++r) {
        if (rs.str(r, "component_name") == "host0") sent0 = rs.num(r, "num_cnp_sent");
        if (rs.str(r, "component_name") == "host1") recvd1 = rs.num(r, "num_cnp_recvd");
    }
    ASSERT_GT(sent0, 0);
    EXPECT_EQ(v.of("host0.cnps_sent").back().value, uint64_t(sent0));
    EXPECT_EQ(v.of("host1.cnps_received").back().value, uint64_t(recvd1));
}

}  // namespace
