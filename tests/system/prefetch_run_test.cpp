// The UET NIC's prefetch buffer in whole runs: an 8:1 incast on one switch with 1 us of PCIe
// latency and UetNic.PrefetchBufferEnable true completes every message with a clean scoreboard;
// uet-monitor's NIC_prefetched_bytes shows payloads fetched ahead, never more than the
// 262,144 B PrefetchBufferSize; net-buff-stats shows the senders' egress data pool reserved
// within its 230,400 B. The configuration rules: PrefetchBufferSize below 4202 is refused
// whatever PrefetchBufferEnable is, and with the buffer on it must hold RdmaDataMSS + 106 B.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

const char* const base =
    "Simulation: {Name: pf, StopTime: 20ms}\n"
    "Topology: {Kind: single-switch, Hosts: 9, LinkRate: 400Gbps}\n"
    "Nic: {Type: uet}\n"
    "Pcie: {Latency: 1us}\n"
    "Records: {Enabled: [flow-perf, net-buff-stats], UetMonitor: true}\n"
    "Flows:\n"
    "  - {Src: 1, Dst: 0, Bytes: 1MiB}\n"
    "  - {Src: 2, Dst: 0, Bytes: 1MiB}\n"
    "  - {Src: 3, Dst: 0, Bytes: 1MiB}\n"
    "  - {Src: 4, Dst: 0, Bytes: 1MiB}\n"
    "  - {Src: 5, Dst: 0, Bytes: 1MiB}\n"
    "  - {Src: 6, Dst: 0, Bytes: 1MiB}\n"
    "  - {Src: 7, Dst: 0, Bytes: 1MiB}\n"
    "  - {Src: 8, Dst: 0, Bytes: 1MiB}\n";

command_result run_with(const std::string& dir, const std::vector<std::string>& sets)
{
    std::vector<std::string> args = {"run", write_file(dir + "/s.yaml", base), "--quiet", "--out",
                                     dir};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    return run_uetsim(args);
}

bool has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

}  // namespace

TEST(prefetch_buffer_run, an_incast_with_the_buffer_on_fetches_ahead_within_its_size)
{
    const std::string dir = scratch_dir("pf_on");
    const command_result r =
        run_with(dir, {"UetNic.PrefetchBufferEnable=true", "UetNic[host1].EnableBufferStats=true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/pf-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(read_csv(dir + "/pf-flow-perf-0.csv").rows.size(), 8u);

    // The senders' data rows: the prefetch buffer's occupancy as each packet left.
    const csv mon = read_csv(dir + "/pf-uet-monitor-0.csv");
    double nic_max = 0;
    size_t data_rows = 0, ahead = 0;
    for (size_t i = 0; i < mon.rows.size(); ++i) {
        if (mon.str(i, "packet_type") != "RUD_REQUEST" || mon.str(i, "direction") == "Rx") continue;
        ++data_rows;
        const double nic = mon.num(i, "NIC_prefetched_bytes");
        const double pdc = mon.num(i, "PDC_prefetched_bytes");
        EXPECT_LE(nic, 262'144);
        EXPECT_LE(pdc, nic);
        nic_max = std::max(nic_max, nic);
        if (nic > 0) ++ahead;
    }
    EXPECT_GE(data_rows, 8u * 256);   // 1 MiB is 256 packets, retransmissions on top
    EXPECT_GT(ahead, data_rows / 2);  // most packets leave with payloads fetched behind them
    EXPECT_GE(nic_max, 10 * 4'202);   // fetched ahead by many packets
    // All data rows of one sender: the bytes a full buffer holds, 62 x 4,202 = 260,524 B.
    EXPECT_LE(nic_max, 62 * 4'202);

    // host1's egress pools, reserved at commit, within their sizes.
    const csv nb = read_csv(dir + "/pf-net-buff-stats-0.csv");
    ASSERT_FALSE(nb.rows.empty());
    double tx0 = 0;
    for (size_t i = 0; i < nb.rows.size(); ++i) {
        EXPECT_EQ(nb.str(i, "component_name"), "host1");
        if (nb.str(i, "buffer_id") == "TX_TC0_BUFFER")
            tx0 = std::max(tx0, nb.num(i, "max_occupancy_B"));
    }
    EXPECT_GT(tx0, 0);
    EXPECT_LE(tx0, 230'400);
}

TEST(prefetch_buffer_run, the_same_incast_with_the_buffer_off_reads_zero_prefetched_bytes)
{
    const std::string dir = scratch_dir("pf_off");
    const command_result r = run_with(dir, {});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json m = nlohmann::json::parse(read_text(dir + "/pf-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    const csv mon = read_csv(dir + "/pf-uet-monitor-0.csv");
    for (size_t i = 0; i < mon.rows.size(); ++i)
        if (mon.str(i, "packet_type") == "RUD_REQUEST" && mon.str(i, "direction") != "Rx") {
            ASSERT_EQ(mon.num(i, "NIC_prefetched_bytes"), 0) << i;
        }
}

TEST(prefetch_buffer_run, sizes_below_the_rules_stop_the_run_naming_the_keys)
{
    const std::string dir = scratch_dir("pf_rules");
    // Below 4202: refused when written, even with the buffer off.
    const command_result small = run_with(dir, {"UetNic.PrefetchBufferSize=4201"});
    EXPECT_EQ(small.exit_code, 2);
    EXPECT_TRUE(has(small.err, "UetNic.PrefetchBufferSize")) << small.err;
    EXPECT_TRUE(has(small.err, "4201")) << small.err;
    EXPECT_TRUE(has(small.err, "4202")) << small.err;
    // On, with a data packet of 8,298 B on the wire (RdmaDataMSS 8192) and 8,000 B of buffer.
    const command_result on =
        run_with(dir, {"UetNic.PrefetchBufferEnable=true", "UetNic.RdmaDataMSS=8192",
                       "UetNic.PrefetchBufferSize=8000"});
    EXPECT_EQ(on.exit_code, 2);
    EXPECT_TRUE(has(on.err, "UetNic.PrefetchBufferSize")) << on.err;
    EXPECT_TRUE(has(on.err, "8000")) << on.err;
    EXPECT_TRUE(has(on.err, "UetNic.PrefetchBufferEnable")) << on.err;
    EXPECT_TRUE(has(on.err, "8298")) << on.err;
    // The same size with the buffer off is accepted (the packet rule needs the buffer on).
    const command_result off = run_with(
        dir,
        {"UetNic.RdmaDataMSS=8192", "UetNic.PrefetchBufferSize=8000", "Simulation.StopTime=1us"});
    EXPECT_EQ(off.exit_code, 0) << off.err;
}
