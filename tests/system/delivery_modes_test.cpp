// The delivery modes end to end (docs/delivery-modes.md):
// - ROD through 2% loss on the receiver's link, beside a RUD message to the same receiver: every
//   message completes, each byte once (the scoreboard); the sender's capture shows every data
//   frame of host0 as ROD_REQ (PDS type 3) on one UDP source port per message (one path), and
//   ROD_OOO NACKs (code 0x0D) coming back;
// - RUDI through the same loss: the scoreboard clean, host0's data frames RUDI_REQ (type 4,
//   4,194 B on the wire when full) and host1's RUDI_RESPs (type 5, 66 B) coming back;
// - UUD through loss: the run ends cleanly with the scoreboard clean (no byte written twice),
//   the lost packets counted in the manifest's unreliable_losses; nothing comes back on the wire;
// - bad input exits 2 naming the key: an unknown mode, ROD with spraying forced on, ROD on a
//   RoCE NIC, RUDI or UUD with RCCC, UUD with CompletionAt target, UUD for the application or the
//   Chakra workload, RUDI with RecvPostedAt.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

TEST(delivery_modes, rod_through_loss_delivers_every_byte_once_on_one_path_per_message)
{
    ASSERT_NE(shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string dir = scratch_dir("rod_loss");
    const std::string y =
        "Simulation: {Name: rod, StopTime: 50ms, RandomSeed: 5}\n"
        "Topology: {Kind: single-switch, Hosts: 3, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "UetNic: {InitialRetransmitTimeout: 20us}\n"
        "Records: {Enabled: [flow-perf, uet-transport-stats], UetMonitor: true}\n"
        "Capture: {Links: [host0-switch0]}\n"
        "Faults:\n"
        "  - {At: 0s, Link: host1-switch0, Action: loss, Loss: 0.02}\n"
        "Flows:\n"
        "  - {Src: 0, Dst: 1, Bytes: 1MiB, Mode: ROD}\n"
        "  - {Src: 0, Dst: 1, Bytes: 300000, Mode: ROD}\n"
        "  - {Src: 0, Dst: 1, Bytes: 200000, Mode: ROD, Start: 10us}\n"
        "  - {Src: 2, Dst: 1, Bytes: 1MiB}\n";
    const auto r = run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/rod-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_GT(m["packets_dropped"].get<uint64_t>(), 0u) << "the fault lost frames";
    EXPECT_EQ(read_csv(dir + "/rod-flow-perf-0.csv").rows.size(), 4u);

    // host0's link: source, PDS type and flags, the UDP source port of each UET frame (the raw
    // UDP payload: other dissectors claim some source ports).
    const std::string out = shell_output(
        "tshark -r " + dir +
        "/rod-host0-switch0.pcap -Y udp.dstport==4793 -T fields "
        "-E separator=, -e ip.src -e udp.srcport -e frame.len -e udp.payload 2>/dev/null");
    std::istringstream lines(out);
    std::set<std::string> data_ports;
    int data = 0, rtx = 0, rod_nacks = 0;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream f(line);
        std::string src, port, len, bytes;
        std::getline(f, src, ',');
        std::getline(f, port, ',');
        std::getline(f, len, ',');
        std::getline(f, bytes, ',');
        if (src == "10.0.0.1" && std::stoi(len) > 100) {  // host0's data frames
            ++data;
            EXPECT_EQ(bytes.substr(0, 2), "03") << line;
            if (std::stoul(bytes.substr(2, 2), nullptr, 16) & 0x40) ++rtx;
            data_ports.insert(port);
        }
        if (src == "10.0.0.2" && bytes.substr(0, 2) == "0c" && bytes.substr(2, 2) == "0d")
            ++rod_nacks;
    }
    // 1 MiB + 300,000 B + 200,000 B at 4,096 B a frame: 256 + 74 + 49 first copies.
    EXPECT_GE(data, 256 + 74 + 49);
    EXPECT_GT(rtx, 0);
    EXPECT_GT(rod_nacks, 0);
    EXPECT_EQ(data_ports.size(), 3u) << "one entropy value per ROD message";

    // uet-monitor names each NACK by its code: the ROD_OOO NACKs host0 received are UET_ROD_OOO.
    const csv mon = read_csv(dir + "/rod-uet-monitor-0.csv");
    int rod_ooo_rx = 0;
    for (size_t i = 0; i < mon.rows.size(); ++i) {
        if (mon.str(i, "packet_type") != "NACK") continue;
        EXPECT_NE(mon.str(i, "nack_code"), "") << "row " << i;
        if (mon.str(i, "nack_code") == "UET_ROD_OOO" && mon.str(i, "direction") == "Rx" &&
            mon.str(i, "component_name").find("host0") != std::string::npos)
            ++rod_ooo_rx;
    }
    EXPECT_EQ(rod_ooo_rx, rod_nacks) << "every ROD_OOO NACK host0's link carried, by name";
}

TEST(delivery_modes, bad_modes_exit_2_naming_the_key)
{
    const std::string dir = scratch_dir("modes_bad");
    const std::string flows = "Flows:\n  - {Src: 0, Dst: 1, Bytes: 4096, Mode: ";
    const std::map<std::string, std::string> cases = {
        {"Nic: {Type: uet}\nUetNic: {RcccEnabled: true}\n" + flows + "UUD}\n", "Flows[0].Mode"},
        {"Nic: {Type: uet}\nUetNic: {RcccEnabled: true}\n" + flows + "RUDI}\n", "Flows[0].Mode"},
        {"Nic: {Type: uet}\n" + flows + "UUD, CompletionAt: target}\n", "Flows[0].Mode"},
        {"Nic: {Type: uet}\n" + flows + "RUDI, RecvPostedAt: 1us}\n", "Flows[0].Mode"},
        {"Nic: {Type: uet}\nRdmaApplication: {InitiatorRatio: 0.5, ResponderRatio: 0.5, Mode: "
         "UUD}\n",
         "RdmaApplication.Mode"},
        {"Nic: {Type: uet}\nChakra: {Mode: UUD}\nCollectives:\n  - {Type: AllReduce, Bytes: 1MiB, "
         "Ranks: all}\n",
         "Chakra.Mode"},
        {"Nic: {Type: uet}\n" + flows + "FAST}\n", "Flows[0].Mode"},
        {"Nic: {Type: uet}\nUetNic: {PacketSprayingType: Recycled Entropy Packet Spraying}\n" +
             flows + "ROD}\n",
         "UetNic.PacketSprayingType"},
        {"Nic: {Type: roce}\n" + flows + "ROD}\n", "Flows[0].Mode"},
    };
    for (const auto& [body, key] : cases) {
        const std::string y = "Simulation: {Name: mb}\n" + body;
        const auto r =
            run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir + "/out"});
        EXPECT_EQ(r.exit_code, 2) << body << r.err;
        EXPECT_NE(r.err.find(key), std::string::npos) << body << r.err;
    }
    // ROD with the spraying policy None or the default given, or not given: accepted.
    for (const std::string& nic :
         {std::string("Nic: {Type: uet}\nUetNic: {PacketSprayingType: None}\n"),
          std::string("Nic: {Type: uet}\nUetNic: {PacketSprayingType: Default Packet Spraying}\n"),
          std::string("Nic: {Type: uet}\n")}) {
        const std::string y = "Simulation: {Name: mb, StopTime: 1ms}\n" + nic + flows + "ROD}\n";
        const auto r =
            run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir + "/ok"});
        EXPECT_EQ(r.exit_code, 0) << nic << r.err;
    }
}

namespace {

// Host0's data frames on its link in `pcap`: how many, and how many of them have PDS type `type`.
// udp.payload, not data.data: Wireshark's other dissectors claim some sprayed source ports.
std::pair<int, int> host0_data_frames(const std::string& pcap, const std::string& type)
{
    const std::string out =
        shell_output("tshark -r " + pcap +
                     " -Y 'udp.dstport==4793 && ip.src==10.0.0.1 && frame.len > 100' -T fields "
                     "-e udp.payload 2>/dev/null");
    std::istringstream lines(out);
    int all = 0, typed = 0;
    for (std::string line; std::getline(lines, line);) {
        ++all;
        typed += line.substr(0, 2) == type;
    }
    return {all, typed};
}

}  // namespace

// RdmaApplication.Mode and Chakra.Mode: the application's WQEs and a collective's transfers go
// as ROD_REQ (type 3) with the scoreboard clean; at RUD (the default) as RUD_REQ (2).
TEST(delivery_modes, the_application_and_the_collectives_send_in_their_mode)
{
    ASSERT_NE(shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string dir = scratch_dir("modes_app");
    const std::string fabric =
        "Topology: {Kind: single-switch, Hosts: 4, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "Capture: {Links: [host0-switch0]}\n";
    for (const std::string mode : {"ROD", "RUD", "RUDI"}) {
        const std::string type = mode == "ROD" ? "03" : mode == "RUDI" ? "04" : "02";
        const std::string app = dir + "/app" + mode;
        auto r = run_uetsim(
            {"run",
             write_file(app + ".yaml",
                        "Simulation: {Name: ap, RunTime: 100us}\n" + fabric +
                            "RdmaApplication: {InitiatorRatio: 0.5, ResponderRatio: 0.5, "
                            "NumConnections: 1, MaxPendingWQEs: 2, Mode: " +
                            mode + "}\n"),
             "--quiet", "--out", app});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_TRUE(nlohmann::json::parse(read_text(app + "/ap-manifest.json"))["scoreboard"]["ok"]
                        .get<bool>());
        auto [all, typed] = host0_data_frames(app + "/ap-host0-switch0.pcap", type);
        EXPECT_GT(all, 0) << mode;
        EXPECT_EQ(typed, all) << mode;

        const std::string coll = dir + "/coll" + mode;
        r = run_uetsim({"run",
                        write_file(coll + ".yaml",
                                   "Simulation: {Name: co}\n" + fabric + "Chakra: {Mode: " + mode +
                                       "}\nCollectives:\n  - {Type: AllReduce, Bytes: 1MiB, "
                                       "Ranks: all}\n"),
                        "--quiet", "--out", coll});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_TRUE(nlohmann::json::parse(read_text(coll + "/co-manifest.json"))["scoreboard"]["ok"]
                        .get<bool>());
        std::tie(all, typed) = host0_data_frames(coll + "/co-host0-switch0.pcap", type);
        EXPECT_GT(all, 0) << mode;
        EXPECT_EQ(typed, all) << mode;
    }
}

namespace {

// host0's link in `pcap`: (source address, PDS type, frame length) of each UET frame. A capture's
// frame length is the frame on the wire less its 4-byte FCS.
std::vector<std::tuple<std::string, std::string, int>> uet_frames(const std::string& pcap)
{
    const std::string out = shell_output("tshark -r " + pcap +
                                         " -Y udp.dstport==4793 -T fields -E separator=, "
                                         "-e ip.src -e frame.len -e udp.payload 2>/dev/null");
    std::vector<std::tuple<std::string, std::string, int>> v;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream f(line);
        std::string src, len, bytes;
        std::getline(f, src, ',');
        std::getline(f, len, ',');
        std::getline(f, bytes, ',');
        v.emplace_back(src, bytes.substr(0, 2), std::stoi(len));
    }
    return v;
}

}  // namespace

// RUDI through 2% loss on the receiver's link beside a RUD message: every message completes with
// every byte once; host0 sends RUDI_REQs (type 4, 4,194 B when full), host1 answers each with a
// RUDI_RESP (type 5, 66 B).
TEST(delivery_modes, rudi_through_loss_delivers_every_byte_once)
{
    ASSERT_NE(shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string dir = scratch_dir("rudi_loss");
    const std::string y =
        "Simulation: {Name: rudi, StopTime: 50ms, RandomSeed: 5}\n"
        "Topology: {Kind: single-switch, Hosts: 3, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "UetNic: {InitialRetransmitTimeout: 20us}\n"
        "Records: {Enabled: [flow-perf]}\n"
        "Capture: {Links: [host0-switch0]}\n"
        "Faults:\n"
        "  - {At: 0s, Link: host1-switch0, Action: loss, Loss: 0.02}\n"
        "Flows:\n"
        "  - {Src: 0, Dst: 1, Bytes: 1MiB, Mode: RUDI}\n"
        "  - {Src: 0, Dst: 1, Bytes: 300000, Mode: RUDI, Start: 10us}\n"
        "  - {Src: 2, Dst: 1, Bytes: 1MiB}\n";
    const auto r = run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/rudi-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_GT(m["packets_dropped"].get<uint64_t>(), 0u) << "the fault lost frames";
    EXPECT_FALSE(m.contains("unreliable_losses"));
    EXPECT_EQ(read_csv(dir + "/rudi-flow-perf-0.csv").rows.size(), 3u);

    int requests = 0, full = 0, resps = 0, others = 0;
    for (const auto& [src, type, len] : uet_frames(dir + "/rudi-host0-switch0.pcap")) {
        if (src == "10.0.0.1" && type == "04") {
            ++requests;
            full += len == 4194 - 4;
        } else if (src == "10.0.0.2" && type == "05") {
            ++resps;
            EXPECT_EQ(len, 66 - 4);
        } else if (src == "10.0.0.1" || type != "0c") {
            ++others;  // anything but a trim NACK (the loss does not trim)
        }
    }
    // 1 MiB + 300,000 B at 4,096 B a frame: 256 + 74 first copies, 256 + 73 of them full.
    EXPECT_GE(requests, 256 + 74);
    EXPECT_GE(full, 256 + 73);
    EXPECT_GE(resps, 256 + 74 - 20) << "one per request that arrived (2% lost)";
    EXPECT_LE(resps, requests);
    EXPECT_EQ(others, 0);
}

// UUD through 2% loss: the run ends cleanly, the scoreboard clean (nothing written twice), the
// messages that lost packets and the packets lost in the manifest's unreliable_losses; host1 sends
// nothing back (no acknowledgement). A run without loss has no unreliable_losses.
TEST(delivery_modes, uud_through_loss_counts_and_reports_the_loss)
{
    ASSERT_NE(shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string dir = scratch_dir("uud_loss");
    const std::string flows =
        "Flows:\n"
        "  - {Src: 0, Dst: 1, Bytes: 1MiB, Mode: UUD}\n"
        "  - {Src: 0, Dst: 1, Bytes: 300000, Mode: UUD, Start: 10us}\n"
        "  - {Src: 2, Dst: 1, Bytes: 1MiB}\n";
    const std::string fabric =
        "Topology: {Kind: single-switch, Hosts: 3, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "UetNic: {InitialRetransmitTimeout: 20us}\n"
        "Records: {Enabled: [flow-perf]}\n"
        "Capture: {Links: [host0-switch0]}\n";
    const auto r =
        run_uetsim({"run",
                    write_file(dir + "/s.yaml",
                               "Simulation: {Name: uud, StopTime: 5ms, RandomSeed: 5}\n" + fabric +
                                   "Faults:\n  - {At: 0s, Link: host1-switch0, "
                                   "Action: loss, Loss: 0.02}\n" +
                                   flows),
                    "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/uud-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    ASSERT_TRUE(m.contains("unreliable_losses")) << m.dump();
    const auto& l = m["unreliable_losses"];
    const uint64_t dropped = m["packets_dropped"].get<uint64_t>();
    EXPECT_GT(dropped, 0u);
    EXPECT_GE(l["messages"].get<uint32_t>(), 1u);
    EXPECT_LE(l["messages"].get<uint32_t>(), 2u);
    // Every UUD packet lost is one the fault dropped; the RUD message's drops are sent again.
    EXPECT_GT(l["packets"].get<uint64_t>(), 0u);
    EXPECT_LE(l["packets"].get<uint64_t>(), dropped);
    EXPECT_NE(l["report"].get<std::string>().find("UUD"), std::string::npos);
    EXPECT_NE(r.out.find("unreliable losses"), std::string::npos) << r.out;
    // Each UUD message completes at send: three flow-perf rows.
    EXPECT_EQ(read_csv(dir + "/uud-flow-perf-0.csv").rows.size(), 3u);

    int requests = 0, back = 0;
    for (const auto& [src, type, len] : uet_frames(dir + "/uud-host0-switch0.pcap")) {
        if (src == "10.0.0.1") {
            EXPECT_EQ(type, "06");
            requests += type == "06";
            if (len > 100) {
                EXPECT_LE(len, 4190 - 4);
            }
        } else {
            ++back;
        }
    }
    EXPECT_EQ(requests, 256 + 74) << "each packet once: no retransmission";
    EXPECT_EQ(back, 0) << "no acknowledgement";

    const std::string clean = dir + "/clean";
    const auto c = run_uetsim(
        {"run",
         write_file(dir + "/c.yaml", "Simulation: {Name: uud, StopTime: 5ms}\n" + fabric + flows),
         "--quiet", "--out", clean});
    ASSERT_EQ(c.exit_code, 0) << c.err;
    const auto cm = nlohmann::json::parse(read_text(clean + "/uud-manifest.json"));
    EXPECT_TRUE(cm["scoreboard"]["ok"].get<bool>()) << cm["scoreboard"]["report"];
    EXPECT_FALSE(cm.contains("unreliable_losses"));
}
