// A switch port sends the PFC frames of the NIC at the other end of its link (X17): 84 B on the
// wire to a RoCE NIC (the RoCE NIC transport page's size, the NIC's own: 34 B of header fields,
// 46 B of data, FCS), 64 B to a UET NIC (46 B of data plus Ethernet's 18 B). The pcap leaves the
// FCS out: 80 B and 60 B. The switch's pause frames are read back with tshark and counted against
// the switch port's ecn-pfc-stats (pfcxoff_tx + pfcxon_tx), so every frame it sent is checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

// The sizes (frame.len, without the FCS) of the PFC frames on a captured link that the switch
// sent, that is, whose source MAC is not the host's (02:00 and the host's IPv4 address).
std::vector<int> switch_pfc_lengths(const std::string& pcap, const std::string& host_mac)
{
    const std::string out = shell_output("tshark -r " + pcap +
                                         " -Y 'eth.type == 0x8808' -T fields -E separator=, "
                                         "-e eth.src -e frame.len 2>/dev/null");
    std::vector<int> lengths;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
        const size_t comma = line.find(',');
        if (line.substr(0, comma) != host_mac) lengths.push_back(std::stoi(line.substr(comma + 1)));
    }
    return lengths;
}

// Pause and resume frames switch0's port `ifid` sent for class 0, in all (cumulative columns: the
// largest value is the total).
double frames_sent(const csv& e, int ifid)
{
    double xoff = 0, xon = 0;
    for (size_t i = 0; i < e.rows.size(); ++i)
        if (e.str(i, "component_name") == "switch0" && e.num(i, "ifid") == ifid &&
            e.num(i, "priority") == 0) {
            xoff = std::max(xoff, e.num(i, "pfcxoff_tx"));
            xon = std::max(xon, e.num(i, "pfcxon_tx"));
        }
    return xoff + xon;
}

// What switch0 sent host1 in examples/roce-incast.yaml run with `sets` (8 senders into host0;
// switch0 pauses their NICs; host1 is on switch0's port 1): the sizes of its PFC frames in the
// capture and the frames ecn-pfc-stats counts.
struct pauses_to_host1
{
    std::vector<int> lengths;
    double counted = -1;
};

void run_incast(const std::string& tag, const std::vector<std::string>& sets, pauses_to_host1& out)
{
    ASSERT_NE(shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string dir = scratch_dir(tag);
    std::vector<std::string> args = {"run",
                                     source_dir() + "/examples/roce-incast.yaml",
                                     "--quiet",
                                     "--out",
                                     dir,
                                     "--set",
                                     "Capture.Links=[host1-switch0]"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    const command_result r = run_uetsim(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/roce-incast-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    out.lengths = switch_pfc_lengths(dir + "/roce-incast-host1-switch0.pcap", "02:00:0a:00:00:02");
    out.counted = frames_sent(read_csv(dir + "/roce-incast-ecn-pfc-stats-0.csv"), 1);
}

}  // namespace

TEST(switch_pfc_frame_size, a_switch_pauses_a_roce_nic_with_84_byte_frames)
{
    pauses_to_host1 p;
    run_incast("roce-pfc-size", {}, p);
    ASSERT_FALSE(p.lengths.empty()) << "switch0 paused host1";
    EXPECT_EQ(double(p.lengths.size()), p.counted);
    for (size_t i = 0; i < p.lengths.size(); ++i) EXPECT_EQ(p.lengths[i], 84 - 4) << i;
}

TEST(switch_pfc_frame_size, a_switch_pauses_a_uet_nic_with_64_byte_frames)
{
    // The same incast on UET NICs, whose NSCC keeps the switch's ingress below the default
    // 700 KB Xoff: the switch pauses above 50 KB instead (resumes at 20 KB).
    pauses_to_host1 p;
    run_incast("uet-pfc-size",
               {"Nic.Type=uet", "Switch.StaticPoolXoffThreshold=50KB",
                "Switch.StaticPoolXonThreshold=20KB"},
               p);
    ASSERT_FALSE(p.lengths.empty()) << "switch0 paused host1";
    EXPECT_EQ(double(p.lengths.size()), p.counted);
    for (size_t i = 0; i < p.lengths.size(); ++i) EXPECT_EQ(p.lengths[i], 64 - 4) << i;
}
