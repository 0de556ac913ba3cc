// Credit-based flow control in whole runs (docs/link-layer.md): a lossless 15:1 UET incast on a
// leaf-spine with one spine (2 leaves x 8 hosts, 400 Gbps) with Link.Cbfc on every link drops
// nothing and sends no PFC frame, and no port's ingress buffer holds more than its link's
// advertised credit; the same run without load shows that CBFC's only differences on the wire
// are its update frames; bad CBFC input exits 2 naming the key and the link; inspect shows each
// CBFC link's advertised and line-rate buffer; credit lost with a link flap comes back with a
// credit sync.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

std::string scenario(const std::string& flows, const std::string& extra)
{
    return "Simulation: {Name: cb, StopTime: 20ms, NDStatsReportInterval: 100us}\n"
           "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 1, "
           "LinkRate: 400Gbps}\n"
           "Nic: {Type: uet}\n"
           "Records:\n"
           "  Enabled: [nd-stats, flow-perf, ecn-pfc-stats, link-stats]\n"
           "Switch: {ReportPerPortBufferStats: true, BufferStatsReportInterval: 100us}\n" +
           extra + "Flows:\n" + flows;
}

std::string incast_15_to_1()
{
    std::string f;
    for (int s = 1; s <= 15; ++s)
        f += "  - {Src: " + std::to_string(s) + ", Dst: 0, Bytes: 2MiB}\n";
    return f;
}

nlohmann::json inspect_file(const std::string& path)
{
    const command_result r = run_uetsim({"inspect", "--json", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

// The last row of each link direction in link-stats: (link_name/direction) -> row index.
std::map<std::string, size_t> last_rows(const csv& c)
{
    std::map<std::string, size_t> m;
    for (size_t i = 0; i < c.rows.size(); ++i)
        m[c.str(i, "link_name") + "/" + c.str(i, "direction")] = i;
    return m;
}

// The ';'-separated per-VC numbers of a link-stats cell.
std::vector<double> per_vc(const std::string& cell)
{
    std::vector<double> v;
    size_t at = 0;
    while (at < cell.size()) {
        const size_t end = std::min(cell.find(';', at), cell.size());
        v.push_back(std::stod(cell.substr(at, end - at)));
        at = end + 1;
    }
    return v;
}

}  // namespace

TEST(cbfc, a_15_to_1_incast_on_cbfc_links_drops_nothing_sends_no_pfc_and_stays_within_credit)
{
    const std::string dir = scratch_dir("cbfc_incast");
    const std::string path =
        write_file(dir + "/s.yaml", scenario(incast_15_to_1(), "Link: {Cbfc: true}\n"));
    const nlohmann::json in = inspect_file(path);
    std::map<std::string, uint64_t> credit_bytes;  // per link: advertised per VC
    for (const auto& l : in["links"]) {
        ASSERT_TRUE(l.contains("cbfc")) << l["name"];
        credit_bytes[l["name"]] = l["cbfc"]["vc_buffer_bytes"].get<uint64_t>();
    }
    // 400 Gbps = 50 B/ns; 1 us interval; 4,202 B frames (84.04 ns); 64 B updates and credits; a
    // switch end holds a frame 500 ns + 84.04 ns:
    // host links (100 ns): 50 x (200 + 1,000 + 584.04) + 8,404 + 64 = 97,670 -> 97,728 B;
    // leaf-spine links (500 ns): 50 x (1,000 + 1,000 + 584.04) + 8,468 = 137,670 -> 137,728 B.
    EXPECT_EQ(credit_bytes["host0-leaf0"], 97'728u);
    EXPECT_EQ(credit_bytes["leaf0-spine0"], 137'728u);

    const auto r = run_uetsim({"run", path, "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/cb-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(m["packets_dropped"].get<uint64_t>(), 0u);
    EXPECT_EQ(read_csv(dir + "/cb-flow-perf-0.csv").rows.size(), 15u);

    // No PFC frame anywhere: every class on the links rides a VC.
    const csv e = read_csv(dir + "/cb-ecn-pfc-stats-0.csv");
    for (size_t i = 0; i < e.rows.size(); ++i) {
        EXPECT_EQ(e.num(i, "pfcxoff_tx"), 0) << e.str(i, "component_name");
        EXPECT_EQ(e.num(i, "pfcxon_tx"), 0) << e.str(i, "component_name");
    }
    const csv nd = read_csv(dir + "/cb-nd-stats-0.csv");
    for (size_t i = 0; i < nd.rows.size(); ++i) {
        EXPECT_EQ(nd.num(i, "tx_drops"), 0) << nd.str(i, "component_name");
        EXPECT_EQ(nd.num(i, "rx_drops"), 0) << nd.str(i, "component_name");
    }

    // Every switch port's ingress usage per pool (pool 0: VC 0, pool 1: VC 1) stays within
    // what its link advertises; leaf0's uplink, fed by eight senders, fills to near it.
    const csv b = read_csv(dir + "/cb-scala-switch-buff-stats-0.csv");
    double leaf0_uplink_peak = 0;
    size_t checked = 0;
    for (size_t i = 0; i < b.rows.size(); ++i) {
        if (b.str(i, "buff_id") != "ingressUsage") continue;
        const std::string sw = b.str(i, "component_name");
        const int ifid = int(b.num(i, "ifid"));
        // Ports 0..7 of a leaf face hosts, port 8 the spine; spine0's port i faces leaf i.
        const std::string link =
            sw == "spine0" ? "leaf" + std::to_string(ifid) + "-spine0"
            : ifid < 8     ? "host" + std::to_string(ifid + (sw == "leaf1" ? 8 : 0)) + "-" + sw
                           : sw + "-spine0";
        ASSERT_TRUE(credit_bytes.count(link)) << link;
        EXPECT_LE(b.num(i, "ivl_max_bytes"), double(credit_bytes[link])) << sw << " " << ifid;
        if (sw == "leaf0" && ifid == 8)
            leaf0_uplink_peak = std::max(leaf0_uplink_peak, b.num(i, "ivl_max_bytes"));
        ++checked;
    }
    EXPECT_GT(checked, 0u);
    EXPECT_GT(leaf0_uplink_peak, 0.5 * double(credit_bytes["leaf0-spine0"]));

    // link-stats: credit held spine0 back towards leaf0 (the incast's bottleneck is leaf0's
    // port to host0), and no sender ever had more outstanding than the advertised credit.
    const csv ls = read_csv(dir + "/cb-link-stats-0.csv");
    const auto last = last_rows(ls);
    EXPECT_GT(per_vc(ls.str(last.at("leaf0-spine0/b_to_a"), "cbfc_stall_usec")).at(0), 0);
    for (size_t i = 0; i < ls.rows.size(); ++i) {
        const std::string link = ls.str(i, "link_name");
        const uint64_t credits = credit_bytes[link] / 64;
        for (double out : per_vc(ls.str(i, "cbfc_credits_outstanding_max")))
            EXPECT_LE(out, double(credits)) << link;
        EXPECT_EQ(per_vc(ls.str(i, "cbfc_stall_usec")).size(), 2u) << link;
    }
}

// With CBFC on and nothing to hold back (one 2 MiB flow host0 -> host8, BER 0), the data and the
// transport's frames are the same as without CBFC: on every link direction the frames and bytes
// differ by exactly the credit updates the sending end put on it (64 B each).
TEST(cbfc, without_congestion_the_only_difference_is_the_update_frames)
{
    const std::string flow = "  - {Src: 0, Dst: 8, Bytes: 2MiB}\n";
    const std::string off_dir = scratch_dir("cbfc_off");
    const std::string on_dir = scratch_dir("cbfc_on");
    const auto off = run_uetsim(
        {"run", write_file(off_dir + "/s.yaml", scenario(flow, "")), "--quiet", "--out", off_dir});
    ASSERT_EQ(off.exit_code, 0) << off.err;
    const auto on =
        run_uetsim({"run", write_file(on_dir + "/s.yaml", scenario(flow, "Link: {Cbfc: true}\n")),
                    "--quiet", "--out", on_dir});
    ASSERT_EQ(on.exit_code, 0) << on.err;
    const csv a = read_csv(off_dir + "/cb-link-stats-0.csv");
    const csv b = read_csv(on_dir + "/cb-link-stats-0.csv");
    const auto la = last_rows(a), lb = last_rows(b);
    ASSERT_EQ(la.size(), lb.size());
    uint64_t updates = 0;
    for (const auto& [key, i] : la) {
        const size_t j = lb.at(key);
        const double n = b.num(j, "cbfc_update_frames");
        EXPECT_EQ(a.num(i, "cbfc_update_frames"), 0) << key;
        EXPECT_EQ(b.num(j, "frames") - a.num(i, "frames"), n) << key;
        EXPECT_EQ(b.num(j, "bytes") - a.num(i, "bytes"), 64 * n) << key;
        EXPECT_EQ(per_vc(b.str(j, "cbfc_stall_usec")), (std::vector<double>{0, 0})) << key;
        updates += uint64_t(n);
    }
    // The data crosses host0-leaf0, leaf0-spine0, leaf1-spine0 and host8-leaf1: each receiver
    // returns its credit.
    EXPECT_GT(b.num(lb.at("host0-leaf0/b_to_a"), "cbfc_update_frames"), 0);
    EXPECT_GT(b.num(lb.at("host8-leaf1/a_to_b"), "cbfc_update_frames"), 0);
    EXPECT_GT(updates, 0u);
    const auto fa = read_csv(off_dir + "/cb-flow-perf-0.csv");
    const auto fb = read_csv(on_dir + "/cb-flow-perf-0.csv");
    ASSERT_EQ(fa.rows.size(), 1u);
    ASSERT_EQ(fb.rows.size(), 1u);
}

TEST(cbfc, bad_input_exits_2_naming_the_key_and_the_link)
{
    const std::string dir = scratch_dir("cbfc_bad");
    auto run = [&](const std::string& extra, const std::string& nic = "uet") {
        const std::string y =
            "Simulation: {Name: cb, StopTime: 1ms}\n"
            "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 1}\n"
            "Nic: {Type: " +
            nic + "}\n" + extra + "Flows:\n  - {Src: 0, Dst: 8, Bytes: 1MiB}\n";
        return run_uetsim(
            {"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir + "/out"});
    };
    const auto twice = run("Link[host3-leaf0]: {Cbfc: true, CbfcVcMap: \"0:0, 1:1, 0:2\"}\n");
    EXPECT_EQ(twice.exit_code, 2);
    EXPECT_NE(twice.err.find("Link.CbfcVcMap"), std::string::npos) << twice.err;
    EXPECT_NE(twice.err.find("host3-leaf0"), std::string::npos) << twice.err;
    EXPECT_NE(twice.err.find("class 0 is mapped twice"), std::string::npos) << twice.err;

    const auto unit0 = run("Link: {Cbfc: true, CbfcCreditUnitBytes: 0}\n");
    EXPECT_EQ(unit0.exit_code, 2);
    EXPECT_NE(unit0.err.find("CbfcCreditUnitBytes"), std::string::npos) << unit0.err;

    const auto small = run("Link[leaf1-spine0]: {Cbfc: true, CbfcVcBufferBytes: 4000}\n");
    EXPECT_EQ(small.exit_code, 2);
    EXPECT_NE(small.err.find("Link.CbfcVcBufferBytes 4000 B on link leaf1-spine0"),
              std::string::npos)
        << small.err;
    EXPECT_NE(small.err.find("4224 B"), std::string::npos) << small.err;  // 66 credits of 64 B

    const auto lossy = run("Link[leaf0-spine0]: {Cbfc: true, CbfcVcMap: \"2:0\"}\n");
    EXPECT_EQ(lossy.exit_code, 2);
    EXPECT_NE(lossy.err.find("leaf0-spine0"), std::string::npos) << lossy.err;
    EXPECT_NE(lossy.err.find("Switch.EnablePFC"), std::string::npos) << lossy.err;

    const auto raw =
        run("Switch: {EnablePFC: [0, 0, 0, 0, 0, 0, 0, 0]}\n"
            "Link[host0-leaf0]: {Cbfc: true, CbfcVcMap: \"0:0\"}\n",
            "raw");
    EXPECT_EQ(raw.exit_code, 2);
    EXPECT_NE(raw.err.find("raw host"), std::string::npos) << raw.err;
}

// The RoCE NIC is a CBFC end too: its receive pools' PFC (on by default for TC0 and TC1) gives
// way to credit on a CBFC link, and a 15:1 incast still completes without a drop or a PFC frame.
TEST(cbfc, roce_nics_are_cbfc_ends_too)
{
    const std::string dir = scratch_dir("cbfc_roce");
    std::string sc = scenario(incast_15_to_1(), "Link: {Cbfc: true}\n");
    sc.replace(sc.find("Nic: {Type: uet}"), 16, "Nic: {Type: roce}");
    const auto r = run_uetsim({"run", write_file(dir + "/s.yaml", sc), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/cb-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(m["packets_dropped"].get<uint64_t>(), 0u);
    const csv e = read_csv(dir + "/cb-ecn-pfc-stats-0.csv");
    for (size_t i = 0; i < e.rows.size(); ++i)
        EXPECT_EQ(e.num(i, "pfcxoff_tx"), 0) << e.str(i, "component_name");
    const csv ls = read_csv(dir + "/cb-link-stats-0.csv");
    const auto last = last_rows(ls);
    // The NIC's port returned credit to leaf0 for what it received.
    EXPECT_GT(ls.num(last.at("host0-leaf0/a_to_b"), "cbfc_update_frames"), 0);
    EXPECT_GT(per_vc(ls.str(last.at("leaf0-spine0/b_to_a"), "cbfc_stall_usec")).at(0), 0);
}

namespace {

// The CBFC frames of a uetsim pcap (ethertype 0x88B5): how many are credit syncs (the VC mask's
// top bit) and how many updates.
struct cbfc_frames
{
    int syncs = 0;
    int updates = 0;
};

cbfc_frames read_cbfc_frames(const std::string& pcap)
{
    const std::string b = read_text(pcap);
    auto u16 = [&](size_t at) { return unsigned(uint8_t(b[at])) << 8 | uint8_t(b[at + 1]); };
    auto u32le = [&](size_t at) {
        uint32_t v = 0;
        for (int i = 3; i >= 0; --i) v = v << 8 | uint8_t(b[at + size_t(i)]);
        return v;
    };
    cbfc_frames f;
    for (size_t at = 24; at + 16 <= b.size();) {  // the global header, then records
        const size_t data = at + 16;
        at = data + u32le(at + 8);
        if (at > b.size() || u16(data + 12) != 0x88B5) continue;
        (u16(data + 14) & 0x8000u ? f.syncs : f.updates) += 1;
    }
    return f;
}

// Host 1 sends 2 MiB to host 0 over CBFC links; its link to leaf0 is down from 20 to 120 us, so
// frames that spent credit are lost there (and updates coming back).
std::string flap_scenario(const std::string& extra)
{
    return "Simulation: {Name: cb, StopTime: 20ms, StallTimeout: 5ms}\n"
           "Topology: {Kind: leaf-spine, Hosts: 16, HostsPerLeaf: 8, Spines: 1, "
           "LinkRate: 400Gbps}\n"
           "Nic: {Type: uet}\n"
           "Link: {Cbfc: true" +
           extra +
           "}\n"
           "Capture: {Links: [host1-leaf0]}\n"
           "Faults:\n"
           "  - {At: 20us, Link: host1-leaf0, Action: down}\n"
           "  - {At: 120us, Link: host1-leaf0, Action: up}\n"
           "Flows:\n"
           "  - {Src: 1, Dst: 0, Bytes: 2MiB}\n";
}

}  // namespace

// The credit sync end to end (docs/link-layer.md, "Lost frames and lost updates"): after the
// flap, host 1's VC stalls on credit spent on lost frames; its credit sync (one, in the capture
// with the mask's top bit) brings it back and the message completes. With the sync off the run
// stalls for good.
TEST(cbfc, credit_lost_with_a_link_flap_comes_back_with_a_credit_sync)
{
    const std::string dir = scratch_dir("cbfc_flap");
    const std::string path = write_file(dir + "/s.yaml", flap_scenario(""));
    const nlohmann::json in = inspect_file(path);
    for (const auto& l : in["links"])
        EXPECT_DOUBLE_EQ(l["cbfc"]["sync_interval_s"].get<double>(), 100e-6) << l["name"];
    const auto r = run_uetsim({"run", path, "--quiet", "--out", dir + "/on"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/on/cb-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    const cbfc_frames f = read_cbfc_frames(dir + "/on/cb-host1-leaf0.pcap");
    EXPECT_EQ(f.syncs, 1);
    EXPECT_GT(f.updates, 0);

    const std::string off = write_file(dir + "/off.yaml", flap_scenario(", CbfcSyncInterval: 0s"));
    const auto r0 = run_uetsim({"run", off, "--quiet", "--out", dir + "/off"});
    EXPECT_NE(r0.exit_code, 0);
    EXPECT_NE(r0.err.find("stalled"), std::string::npos) << r0.err;
    EXPECT_EQ(read_cbfc_frames(dir + "/off/cb-host1-leaf0.pcap").syncs, 0);
}
