// Chakra mapping files: the page's two examples, then one file per rule that breaks it, with the
// line and the reason the message must give; then the checks against the run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testbench/traffic/chakra/mapping_file.h"

using namespace uetsim::chakra;

namespace {

const char* k_example_placement =
    "# ChakraID,ServerID # DataCenterId, PodId, RackId\n"
    "0,7 #0, 0, 0\n"
    "1,6 #0, 0, 0\n"
    "2,5 #0, 0, 0\n"
    "3,4 #0, 0, 0\n"
    "4,3 #0, 0, 1\n"
    "5,2 #0, 0, 1\n"
    "6,1 #0, 0, 1\n"
    "7,0 #0, 0, 1\n";

const char* k_example_scale_up =
    "# Section I: ChakraLogicalId, serverId, ScaleUpGroupId (optional), ScaleUpSubgroupId "
    "(optional)\n"
    "0, 0, 0, 0\n"
    "1, 1, 0, 0\n"
    "2, 2, 0, 1\n"
    "3, 3, 0, 1\n"
    "4, 4, 1, 0\n"
    "5, 5, 1, 0\n"
    "6, 6\n"
    "7, 7\n"
    "@@@@@@@@\n"
    "@ Section II: ScaleUpGroupId, ScaleUpBandwidthGbps, ScaleUpPerHopSwitchLatencyNs, "
    "ScaleUpNpuCableLatencyNs\n"
    "0, 800.0, 100.0, 100.0\n"
    "1, 800.0, 50.0, 50.0\n";

// The message parse_mapping throws for `text` (empty when it parses).
std::string error_of(const std::string& text)
{
    try {
        parse_mapping(text, "chakra-mapping.txt");
    } catch (const mapping_error& e) {
        return e.what();
    }
    return "";
}

#define EXPECT_REFUSED(text, expected)                                            \
    do {                                                                          \
        const std::string msg = error_of(text);                                   \
        EXPECT_NE(msg.find(expected), std::string::npos)                          \
            << "message: \"" << msg << "\"\nexpected to contain: " << (expected); \
    } while (0)

}  // namespace

TEST(chakra_mapping_file, placement_example)
{
    mapping m = parse_mapping(k_example_placement, "chakra-mapping.txt");
    ASSERT_EQ(m.by_rank.size(), 8u);
    for (uint32_t r = 0; r < 8; ++r) {
        EXPECT_EQ(m.by_rank[r].rank, r);
        EXPECT_EQ(m.by_rank[r].server, 7 - r);
        EXPECT_FALSE(m.by_rank[r].group);
        EXPECT_FALSE(m.by_rank[r].subgroup);
    }
    EXPECT_TRUE(m.groups.empty());
    EXPECT_FALSE(m.has_scale_up());
    EXPECT_EQ(m.group(0), nullptr);
}

TEST(chakra_mapping_file, scale_up_example)
{
    mapping m = parse_mapping(k_example_scale_up, "chakra-mapping.txt");
    ASSERT_EQ(m.by_rank.size(), 8u);
    const int group[8] = {0, 0, 0, 0, 1, 1, -1, -1};
    const int subgroup[8] = {0, 0, 1, 1, 0, 0, -1, -1};
    for (uint32_t r = 0; r < 8; ++r) {
        EXPECT_EQ(m.by_rank[r].server, r);
        if (group[r] < 0) {
            EXPECT_FALSE(m.by_rank[r].group) << r;
            EXPECT_FALSE(m.by_rank[r].subgroup) << r;
        } else {
            EXPECT_EQ(m.by_rank[r].group, uint32_t(group[r])) << r;
            EXPECT_EQ(m.by_rank[r].subgroup, uint32_t(subgroup[r])) << r;
        }
    }
    EXPECT_TRUE(m.has_scale_up());
    ASSERT_EQ(m.groups.size(), 2u);
    const scale_up_group_params* g0 = m.group(0);
    const scale_up_group_params* g1 = m.group(1);
    ASSERT_TRUE(g0 && g1);
    EXPECT_EQ(g0->bandwidth_gbps, 800.0);
    EXPECT_EQ(g0->per_hop_switch_latency_ns, 100.0);
    EXPECT_EQ(g0->npu_cable_latency_ns, 100.0);
    EXPECT_EQ(g1->bandwidth_gbps, 800.0);
    EXPECT_EQ(g1->per_hop_switch_latency_ns, 50.0);
    EXPECT_EQ(g1->npu_cable_latency_ns, 50.0);
    EXPECT_EQ(m.group(2), nullptr);
}

TEST(chakra_mapping_file, separators_comments_and_blank_lines)
{
    // Runs of spaces and commas, separators at either end, blank and comment-only lines, no LF
    // at the end, a tab inside a comment, and '#' and '@' comments anywhere in Section II.
    mapping m = parse_mapping(
        "\n# top\n  1 ,, 0  \n\n,0, , 1,\n"
        "2 ,5,3 ,9#\tx\n@ II\n   # note\n3, 1e2, 0, 0.001 @ a @ b\n"
        "4 2.5E-3 .5 1.5e+1 # c",
        "f");
    ASSERT_EQ(m.by_rank.size(), 3u);
    EXPECT_EQ(m.by_rank[0].server, 1u);
    EXPECT_EQ(m.by_rank[1].server, 0u);
    EXPECT_EQ(m.by_rank[2].server, 5u);
    EXPECT_EQ(m.by_rank[2].group, 3u);
    EXPECT_EQ(m.by_rank[2].subgroup, 9u);
    ASSERT_EQ(m.groups.size(), 2u);
    EXPECT_EQ(m.groups[0].id, 3u);
    EXPECT_EQ(m.groups[0].bandwidth_gbps, 100.0);
    EXPECT_EQ(m.groups[0].per_hop_switch_latency_ns, 0.0);
    EXPECT_EQ(m.groups[0].npu_cable_latency_ns, 0.001);
    EXPECT_EQ(m.groups[1].id, 4u);  // declared, unused: allowed
    EXPECT_EQ(m.groups[1].bandwidth_gbps, 2.5e-3);
    EXPECT_EQ(m.groups[1].per_hop_switch_latency_ns, 0.5);
    EXPECT_EQ(m.groups[1].npu_cable_latency_ns, 15.0);
}

// --- One file per rule ------------------------------------------------------------------------

TEST(chakra_mapping_file, cr_is_refused)
{
    EXPECT_REFUSED("0,0\r\n1,1\r\n",
                   "chakra-mapping.txt: line 1: a carriage return (CR): the file must use Unix "
                   "(LF) line endings");
    // Even after a comment, where a CRLF file puts it.
    EXPECT_REFUSED("0,0\n1,1 # x\r\n", "line 2: a carriage return (CR)");
}

TEST(chakra_mapping_file, tab_is_not_a_separator)
{
    EXPECT_REFUSED("0,0\n1\t1\n",
                   "chakra-mapping.txt: line 2: a tab: fields are separated by spaces or commas");
    EXPECT_REFUSED("0,0\n@\n0,\t800,0,0\n", "line 3: a tab");
}

TEST(chakra_mapping_file, at_most_127_bytes_before_the_first_comment)
{
    const std::string pad127 = "0," + std::string(124, ' ') + "0";  // 127 bytes: accepted
    EXPECT_EQ(error_of(pad127 + "# comment\n"), "");
    const std::string pad128 = "0," + std::string(125, ' ') + "0";
    EXPECT_REFUSED(pad128 + "\n",
                   "chakra-mapping.txt: line 1: 128 bytes before the first comment: a line may "
                   "carry at most 127");
    // In Section II an '@' ends the fields as '#' does.
    EXPECT_REFUSED("0,0\n@\n0,800," + std::string(120, ' ') + "0,0@x\n", "line 3: 129 bytes");
}

TEST(chakra_mapping_file, at_most_4096_bytes_per_line)
{
    EXPECT_EQ(error_of("0,0 #" + std::string(4091, 'x') + "\n"), "");  // 4,096 bytes
    EXPECT_REFUSED("0,0\n1,1 #" + std::string(4092, 'x') + "\n",
                   "chakra-mapping.txt: line 2: 4097 bytes: a line may carry at most 4,096 bytes");
}

TEST(chakra_mapping_file, section_one_has_2_or_4_fields)
{
    EXPECT_REFUSED("0,0\n1,1,0\n",
                   "chakra-mapping.txt: line 2: 3 fields: a Section I line has exactly 2 or 4");
    EXPECT_REFUSED("0\n", "line 1: 1 fields");
    EXPECT_REFUSED("0,0,0,0,0\n", "line 1: 5 fields");
}

TEST(chakra_mapping_file, fields_are_non_negative_base_10_integers)
{
    EXPECT_REFUSED("0,0\n-1,1\n",
                   "chakra-mapping.txt: line 2: ChakraLogicalId \"-1\" is not a non-negative "
                   "base-10 integer");
    EXPECT_REFUSED("0,0x1\n", "line 1: serverId \"0x1\" is not a non-negative base-10 integer");
    EXPECT_REFUSED("0,+1\n", "line 1: serverId \"+1\" is not");
    EXPECT_REFUSED("0,1.0\n", "line 1: serverId \"1.0\" is not");
    EXPECT_REFUSED("0,0,a,0\n", "line 1: ScaleUpGroupId \"a\" is not");
    EXPECT_REFUSED("0,0,0,1e3\n", "line 1: ScaleUpSubgroupId \"1e3\" is not");
    EXPECT_EQ(error_of("0,007\n"), "");  // leading zeros: still base 10
}

TEST(chakra_mapping_file, fields_fit_32_bits)
{
    EXPECT_REFUSED("0,4294967296\n",
                   "chakra-mapping.txt: line 1: serverId 4294967296 does not fit in 32 bits");
    EXPECT_REFUSED("99999999999999999999999,0\n",
                   "line 1: ChakraLogicalId 99999999999999999999999 "
                   "does not fit in 32 bits");
    EXPECT_REFUSED("0,0,4294967296,0\n", "line 1: ScaleUpGroupId 4294967296 does not fit");
    EXPECT_REFUSED("0,0,0,4294967296\n", "line 1: ScaleUpSubgroupId 4294967296 does not fit");
}

TEST(chakra_mapping_file, server_4294967295_is_refused)
{
    EXPECT_REFUSED("0,0\n1,4294967295\n",
                   "chakra-mapping.txt: line 2: serverId 4294967295 is not accepted");
    EXPECT_EQ(error_of("0,4294967294\n"), "");
    // As a group or subgroup id it is only a 32-bit integer.
    EXPECT_EQ(error_of("0,0,4294967295,4294967295\n@\n4294967295,1,0,0\n"), "");
}

TEST(chakra_mapping_file, each_rank_once)
{
    EXPECT_REFUSED("0,0\n1,1\n0,2\n",
                   "chakra-mapping.txt: line 3: ChakraLogicalId 0 is already placed on line 1");
}

TEST(chakra_mapping_file, ranks_cover_0_to_count_minus_1)
{
    EXPECT_REFUSED("0,0\n1,1\n5,2\n",
                   "chakra-mapping.txt: rank 2 is missing (3 Section I entries: the ids must "
                   "cover 0 through 2)");
    EXPECT_REFUSED("3,0\n1,1\n2,2\n", "chakra-mapping.txt: rank 0 is missing");
    EXPECT_REFUSED("# nothing but comments\n\n", "chakra-mapping.txt: rank 0 is missing");
    EXPECT_REFUSED("", "chakra-mapping.txt: rank 0 is missing");
}

TEST(chakra_mapping_file, one_rank_per_server)
{
    EXPECT_REFUSED("0,4\n1,2\n2,4\n",
                   "chakra-mapping.txt: line 3: serverId 4 is already used by rank 0 on line 1");
}

TEST(chakra_mapping_file, section_two_follows_a_section_one_entry)
{
    EXPECT_REFUSED("# header\n@ Section II\n0,800,0,0\n",
                   "chakra-mapping.txt: line 2: Section II (a line starting with '@') must follow "
                   "at least one Section I entry");
    // In Section I an '@' elsewhere than first on the line is no comment.
    EXPECT_REFUSED("0,0 @x\n", "line 1: 3 fields");
}

TEST(chakra_mapping_file, every_at_line_is_a_comment)
{
    // The marker line's heading and later '@' lines carry no fields.
    EXPECT_EQ(error_of("0,0,1,0\n@ heading, with, fields 1 2 3\n@ 9, 9\n1,1,0,0\n@@\n"), "");
}

TEST(chakra_mapping_file, section_two_has_4_fields)
{
    EXPECT_REFUSED("0,0,0,0\n@\n0,800,100\n",
                   "chakra-mapping.txt: line 3: 3 fields: a Section II line has exactly 4 "
                   "(ScaleUpGroupId, ScaleUpBandwidthGbps, ScaleUpPerHopSwitchLatencyNs, "
                   "ScaleUpNpuCableLatencyNs)");
    // A Section I line after the marker is a Section II line.
    EXPECT_REFUSED("0,0,0,0\n@\n0,800,1,1\n1,1\n", "line 4: 2 fields: a Section II line");
}

TEST(chakra_mapping_file, bandwidth_range)
{
    const std::string head = "0,0,0,0\n@\n";
    EXPECT_REFUSED(head + "0,0,1,1\n",
                   "chakra-mapping.txt: line 3: ScaleUpBandwidthGbps 0 must be at least 1e-9 and "
                   "below 1.8446744073709552e10");
    EXPECT_REFUSED(head + "0,-800,1,1\n", "line 3: ScaleUpBandwidthGbps -800 must be at least");
    EXPECT_REFUSED(head + "0,9.99e-10,1,1\n", "line 3: ScaleUpBandwidthGbps 9.99e-10 must be");
    EXPECT_REFUSED(head + "0,1.8446744073709552e10,1,1\n",
                   "line 3: ScaleUpBandwidthGbps 1.8446744073709552e10 must be");
    EXPECT_REFUSED(head + "0,1e400,1,1\n", "line 3: ScaleUpBandwidthGbps 1e400 must be");
    EXPECT_EQ(error_of(head + "0,1e-9,1,1\n"), "");
    EXPECT_EQ(error_of(head + "0,1.8446744073709e10,1,1\n"), "");
}

TEST(chakra_mapping_file, latency_range)
{
    const std::string head = "0,0,0,0\n@\n";
    EXPECT_REFUSED(head + "0,800,0.0009,1\n",
                   "chakra-mapping.txt: line 3: ScaleUpPerHopSwitchLatencyNs 0.0009 must be 0, or "
                   "at least 1e-3 and below 1.8446744073709552e16");
    EXPECT_REFUSED(head + "0,800,1,-1\n", "line 3: ScaleUpNpuCableLatencyNs -1 must be 0, or");
    EXPECT_REFUSED(head + "0,800,1.8446744073709552e16,1\n",
                   "line 3: ScaleUpPerHopSwitchLatencyNs 1.8446744073709552e16 must be");
    EXPECT_REFUSED(head + "0,800,1,1e-400\n", "line 3: ScaleUpNpuCableLatencyNs 1e-400 must be");
    EXPECT_EQ(error_of(head + "0,800,0,0.0\n"), "");
    EXPECT_EQ(error_of(head + "0,800,1e-3,1.8446744073709e16\n"), "");
}

TEST(chakra_mapping_file, hex_and_non_finite_refused)
{
    const std::string head = "0,0,0,0\n@\n";
    const char* reason =
        " is not a decimal number (hexadecimal and non-finite values are not "
        "accepted)";
    EXPECT_REFUSED(
        head + "0,0x320,1,1\n",
        std::string("chakra-mapping.txt: line 3: ScaleUpBandwidthGbps \"0x320\"") + reason);
    EXPECT_REFUSED(head + "0,inf,1,1\n", std::string("ScaleUpBandwidthGbps \"inf\"") + reason);
    EXPECT_REFUSED(head + "0,800,nan,1\n",
                   std::string("ScaleUpPerHopSwitchLatencyNs \"nan\"") + reason);
    EXPECT_REFUSED(head + "0,800,1,Infinity\n",
                   std::string("ScaleUpNpuCableLatencyNs \"Infinity\"") + reason);
    EXPECT_REFUSED(head + "0,800,1,1e\n", "ScaleUpNpuCableLatencyNs \"1e\" is not a decimal");
    EXPECT_REFUSED(head + "0,800,.,1\n", "ScaleUpPerHopSwitchLatencyNs \".\" is not a decimal");
    EXPECT_REFUSED(head + "0x0,800,1,1\n", "line 3: ScaleUpGroupId \"0x0\" is not a non-negative");
}

TEST(chakra_mapping_file, each_group_declared_once)
{
    EXPECT_REFUSED("0,0,0,0\n@\n0,800,1,1\n# x\n0,400,1,1\n",
                   "chakra-mapping.txt: line 5: ScaleUpGroupId 0 is already declared on line 3");
}

TEST(chakra_mapping_file, every_named_group_is_declared)
{
    EXPECT_REFUSED("0,0,0,0\n1,1,2,0\n2,2\n@\n0,800,1,1\n",
                   "chakra-mapping.txt: line 2: ScaleUpGroupId 2 (rank 1) has no Section II line");
    EXPECT_REFUSED("0,0,0,0\n", "line 1: ScaleUpGroupId 0 (rank 0) has no Section II line");
}

// --- Reading a file, and the checks against the run -------------------------------------------

TEST(chakra_mapping_file, reads_a_file)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("uetsim-mapping-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string path = (dir / "chakra-mapping.txt").string();
    std::ofstream(path, std::ios::binary) << k_example_scale_up;
    mapping m = read_mapping_file(path);
    EXPECT_EQ(m.by_rank.size(), 8u);
    EXPECT_EQ(m.groups.size(), 2u);
    std::ofstream(path, std::ios::binary) << "0,0\n1,1\r\n";
    try {
        read_mapping_file(path);
        ADD_FAILURE() << "a CR was accepted";
    } catch (const mapping_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path + ": line 2: a carriage return", 0), 0u)
            << e.what();
    }
    EXPECT_THROW(read_mapping_file((dir / "absent.txt").string()), mapping_error);
    fs::remove_all(dir);
}

TEST(chakra_mapping_file, check_against_the_run)
{
    mapping m = parse_mapping(k_example_placement, "chakra-mapping.txt");
    EXPECT_NO_THROW(check_mapping(m, 8, 8, "chakra-mapping.txt"));
    EXPECT_NO_THROW(check_mapping(m, 8, 16, "chakra-mapping.txt"));
    try {
        check_mapping(m, 16, 16, "chakra-mapping.txt");
        ADD_FAILURE();
    } catch (const mapping_error& e) {
        EXPECT_STREQ(e.what(),
                     "chakra-mapping.txt: the file places 8 ranks, but the traceset has 16");
    }
    try {
        check_mapping(m, 8, 7, "chakra-mapping.txt");
        ADD_FAILURE();
    } catch (const mapping_error& e) {
        EXPECT_STREQ(e.what(),
                     "chakra-mapping.txt: serverId 7 (rank 0) is not a server of the topology, "
                     "which has 7 (serverId 0 through 6)");
    }
}
