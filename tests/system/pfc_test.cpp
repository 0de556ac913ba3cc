// PFC in whole runs (UET NICs on one switch, 400 Gbps, 100 ns links). Host 3's NIC holds its
// switch port in pause for TC0 from the start (Faults: pause, a PFC storm it refreshes every
// 41.99 us): with Switch.PfcWatchdogTimeout the switch drops what queues for host 3, the message
// to host 3 is reported lost by the scoreboard (and the watchdog's drops with it) while the
// message between the other hosts completes; ecn-pfc-stats shows the frames, the pause-storm
// detector and the drops; the paused class is visible in the waveform and fires the pause
// trigger. A pause ended by a resume lets the message complete.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

const char* const storm =
    "Simulation: {Name: pfc, StopTime: 2ms}\n"
    "Topology: {Kind: single-switch, Hosts: 4, LinkRate: 400Gbps}\n"
    "Flows:\n"
    "  - {Src: 0, Dst: 1, Bytes: 1MiB}\n"
    "  - {Src: 2, Dst: 3, Bytes: 1MiB}\n";

}  // namespace

TEST(pfc, watchdog_drops_a_storm_paused_queue_and_the_scoreboard_names_the_lost_message)
{
    const std::string dir = scratch_dir("pfc_wd");
    write_file(dir + "/s.yaml",
               std::string(storm) +
                   "Switch: {PfcWatchdogTimeout: 200us}\n"
                   "Faults:\n"
                   "  - {At: 0us, Link: host3-switch0, Action: pause, Class: 0}\n");
    const auto r = run_uetsim({"run", dir + "/s.yaml", "--out", dir + "/out"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            FAILED"), std::string::npos) << r.out;
    const std::string all = r.out + r.err;
    EXPECT_NE(all.find("message 1 (2 -> 3): 0 of 1048576 bytes arrived"), std::string::npos) << all;
    EXPECT_EQ(all.find("message 0"), std::string::npos) << all;  // host 0 -> 1 completed
    EXPECT_NE(all.find("PFC watchdog: switch0 port 3 dropped"), std::string::npos) << all;

    const csv e = read_csv(dir + "/out/pfc-ecn-pfc-stats-0.csv");
    ASSERT_EQ(e.header.size(), 26u);
    // Rows at 1 ms and 2 ms: host 3 (sender of the pauses) and switch0 port 3 (paused).
    ASSERT_EQ(e.rows.size(), 4u);
    EXPECT_EQ(e.str(2, "component_name"), "host3");
    EXPECT_EQ(e.num(2, "pfcxoff_tx"), 48);  // at 0 and every 41.9924 us up to 2 ms: 48 frames
    EXPECT_EQ(e.str(3, "component_name"), "switch0");
    EXPECT_EQ(e.num(3, "ifid"), 3);
    EXPECT_EQ(e.num(3, "priority"), 0);
    EXPECT_EQ(e.num(3, "pfcxoff_rx"), 48);
    // Paused from the first frame's arrival (1.28 ns + 100 ns) to the end: the storm detector.
    EXPECT_DOUBLE_EQ(e.num(3, "max_time_paused_usec"), 2000 - 0.10128);
    EXPECT_DOUBLE_EQ(e.num(3, "interval_total_time_xoff_usec"), 1000);
    EXPECT_DOUBLE_EQ(e.num(3, "percent_xon"), 0);
    EXPECT_GT(e.num(3, "pfc_watchdog_drops"), 0);
}

TEST(pfc, a_pause_ended_by_a_resume_delays_the_message_and_loses_nothing)
{
    const std::string dir = scratch_dir("pfc_resume");
    write_file(dir + "/s.yaml", std::string(storm) +
                                    "Faults:\n"
                                    "  - {At: 0us, Link: host3-switch0, Action: pause, Class: 0}\n"
                                    "  - {At: 300us, Link: host3-switch0, Action: resume, Class: "
                                    "0}\n");
    const auto r = run_uetsim({"run", dir + "/s.yaml", "--out", dir + "/out"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const csv f = read_csv(dir + "/out/pfc-flow-perf-0.csv");
    ASSERT_EQ(f.rows.size(), 2u);
    const csv e = read_csv(dir + "/out/pfc-ecn-pfc-stats-0.csv");
    ASSERT_GE(e.rows.size(), 2u);
    EXPECT_EQ(e.str(1, "component_name"), "switch0");
    EXPECT_EQ(e.num(1, "pfcxon_rx"), 1);
    EXPECT_EQ(e.num(0, "pfcxon_tx"), 1);
    // 0.10128 us to 300.10128 us: one continuous 300 us pause.
    EXPECT_DOUBLE_EQ(e.num(1, "max_time_paused_usec"), 300);
    EXPECT_DOUBLE_EQ(e.num(1, "pfc_time_paused_usec"), 300);
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    for (size_t i = 0; i < f.rows.size(); ++i) {
        if (f.str(i, "dst_host") == "3")
            EXPECT_GT(f.num(i, "fct_usec"), 300);  // held until the resume
        else
            EXPECT_LT(f.num(i, "fct_usec"), 30);  // 1 MiB at 400 Gbps, unaffected
    }
}

TEST(pfc, the_paused_class_is_a_waveform_signal_and_fires_the_pause_trigger)
{
    const std::string dir = scratch_dir("pfc_trace");
    write_file(dir + "/s.yaml", std::string(storm) +
                                    "Faults:\n"
                                    "  - {At: 5us, Link: host3-switch0, Action: pause, Class: 0}\n"
                                    "  - {At: 10us, Link: host3-switch0, Action: resume, Class: "
                                    "0}\n");
    const auto r = run_uetsim({"run", dir + "/s.yaml", "--out", dir + "/out", "--quiet", "--set",
                               "Trace.Enabled=true", "--set", "Trace.File=t.vcd", "--set",
                               "Trace.Components=[switch0]", "--set", "Trace.Signals=[tc0_paused]",
                               "--set", "Trace.Trigger={On: pause}", "--set",
                               "Trace.PreTrigger=1us", "--set", "Trace.PostTrigger=20us"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string vcd = read_text(dir + "/out/t.vcd");
    // The window opens 1 us before the pause reaches port 3 (5 us + 101.28 ns) and the
    // signal rises then and falls when the resume arrives (10 us + 101.28 ns).
    const size_t id_at = vcd.find("tc0_paused", vcd.find("port3"));
    ASSERT_NE(id_at, std::string::npos) << vcd.substr(0, 2000);
    const size_t var = vcd.rfind("$var wire 1 ", id_at);
    const std::string id = vcd.substr(var + 12, vcd.find(' ', var + 12) - var - 12);
    EXPECT_NE(vcd.find("#5101280\n1" + id + "\n"), std::string::npos) << vcd.substr(0, 3000);
    EXPECT_NE(vcd.find("#10101280\n0" + id + "\n"), std::string::npos);
}
