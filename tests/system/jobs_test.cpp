// Two jobs on one switch (docs/jobs-and-profiles.md): job 1 on hosts 0-3, job 2 on hosts 4-7,
// each NIC's UetNic.JobTable holding its own job only (per device), as a job launcher installs
// them. Every message of each job reaches its own hosts: the scoreboard is clean, no request is
// dropped for its job, and on the wire each request carries its job in the SES header (bytes
// 28-31 after the PDS header: {index_gen:8, job_id:24}), RUDI_REQs and UUD_REQs too. A message of
// job 2 sent to a host that serves job 1 only is dropped at that NIC, counted in the manifest's
// unknown_job_drops (one per copy: the first and each retransmission) and never completes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

const std::string k_jobs =
    "Simulation: {Name: jobs, StopTime: 5ms}\n"
    "Topology: {Kind: single-switch, Hosts: 8, LinkRate: 400Gbps}\n"
    "Nic: {Type: uet}\n"
    "Records: {Enabled: [flow-perf, uet-transport-stats]}\n"
    "Capture: {Links: [host0-switch0, host4-switch0]}\n"
    "UetNic[host[0-3]]: {JobTable: [1]}\n"
    "UetNic[host[4-7]]: {JobTable: [2]}\n"
    "Flows:\n"
    "  - {Src: 0, Dst: 1, Bytes: 256KiB, JobId: 1}\n"
    "  - {Src: 2, Dst: 3, Bytes: 256KiB, JobId: 1}\n"
    "  - {Src: 3, Dst: 0, Bytes: 64KiB, JobId: 1, Start: 5us}\n"
    "  - {Src: 0, Dst: 2, Bytes: 64KiB, JobId: 1, Mode: RUDI}\n"
    "  - {Src: 4, Dst: 5, Bytes: 256KiB, JobId: 2}\n"
    "  - {Src: 6, Dst: 7, Bytes: 256KiB, JobId: 2}\n"
    "  - {Src: 7, Dst: 4, Bytes: 64KiB, JobId: 2, Start: 5us}\n"
    "  - {Src: 4, Dst: 6, Bytes: 64KiB, JobId: 2, Mode: UUD}\n";

// "type:JobID" of the data frames `src_ip` sends on a captured link: the PDS type (the first
// byte of the UDP payload) and SES bytes 28-31 after the type's PDS header (RUD 16 B, RUDI_REQ
// 8 B, UUD_REQ 4 B).
std::set<std::string> jobs_sent(const std::string& pcap, const std::string& src_ip)
{
    const std::string out = shell_output("tshark -r " + pcap +
                                         " -Y udp.dstport==4793 -T fields -E separator=, -e "
                                         "ip.src -e frame.len -e udp.payload 2>/dev/null");
    std::istringstream lines(out);
    std::set<std::string> jobs;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream f(line);
        std::string src, len, bytes;
        std::getline(f, src, ',');
        std::getline(f, len, ',');
        std::getline(f, bytes, ',');
        if (src != src_ip || std::stoi(len) <= 100) continue;
        const std::string type = bytes.substr(0, 2);
        const size_t pds = type == "04" ? 8 : type == "06" ? 4 : 16;
        jobs.insert(type + ":" + bytes.substr(2 * (pds + 28), 8));
    }
    return jobs;
}

}  // namespace

TEST(jobs, two_jobs_on_one_fabric_each_served_by_its_own_hosts)
{
    ASSERT_NE(shell_output("command -v tshark"), "") << "tshark decodes the capture";
    const std::string dir = scratch_dir("jobs");
    const auto r =
        run_uetsim({"run", write_file(dir + "/s.yaml", k_jobs), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/jobs-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_EQ(m["messages"]["completed"].get<int>(), 8);
    EXPECT_FALSE(m.contains("unknown_job_drops"));
    EXPECT_EQ(m["scenario"]["Flows"][4]["JobId"].get<int>(), 2);
    EXPECT_EQ(jobs_sent(dir + "/jobs-host0-switch0.pcap", "10.0.0.1"),
              (std::set<std::string>{"02:00000001", "04:00000001"}));  // RUD, RUDI
    EXPECT_EQ(jobs_sent(dir + "/jobs-host4-switch0.pcap", "10.0.0.5"),
              (std::set<std::string>{"02:00000002", "06:00000002"}));  // RUD, UUD
}

TEST(jobs, a_message_to_a_host_that_does_not_serve_its_job_is_dropped_and_counted)
{
    const std::string dir = scratch_dir("jobs-unknown");
    const auto r = run_uetsim({"run", write_file(dir + "/s.yaml", k_jobs), "--quiet", "--out", dir,
                               "--set", "Simulation.StopTime=2ms", "--set",
                               "Flows=[{Src: 4, Dst: 1, Bytes: 4KiB, JobId: 2}, "
                               "{Src: 0, Dst: 1, Bytes: 4KiB, JobId: 1}]",
                               "--set", "Records.Enabled=[uet-transport-stats]"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/jobs-manifest.json"));
    EXPECT_FALSE(m["scoreboard"]["ok"].get<bool>());  // the job-2 message cannot complete
    EXPECT_EQ(m["messages"]["completed"].get<int>(), 1);
    ASSERT_TRUE(m.contains("unknown_job_drops"));
    const auto drops = m["unknown_job_drops"];
    EXPECT_EQ(drops.size(), 1u);
    // Host 4's retransmissions of its one packet, as its last uet-transport-stats row counts.
    const csv t = read_csv(dir + "/jobs-uet-transport-stats-0.csv");
    double rtx = -1;
    for (size_t i = 0; i < t.rows.size(); ++i)
        if (t.str(i, "component_name") == "host4") rtx = t.num(i, "num_rtx");
    EXPECT_GE(rtx, 2);
    EXPECT_EQ(drops["host1"].get<double>(), 1 + rtx);
}
