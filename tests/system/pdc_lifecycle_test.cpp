// The PDC close handshake end to end (docs/pdc-lifecycle.md):
// - a 3:1 incast of six Flows messages through 10% loss on the receiver's link, with
//   UetNic.PdcIdleCloseTimeout on and two SACK contexts per NIC: every message completes, each
//   byte once (the scoreboard); every PDC to the receiver ends with PDC_TERMINATED at both ends
//   after its CLOSE_CMD (a last small message at 5 ms keeps the run going until the closes are
//   done: a Flows run ends when its messages are acknowledged), and the receiver NACKs
//   NO_PDC_AVAIL while its two ends are taken;
// - an out-of-range timeout exits 2 naming the key.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

TEST(pdc_lifecycle, close_through_loss_keeps_the_scoreboard_clean)
{
    const std::string dir = scratch_dir("pdc_close_loss");
    const std::string y =
        "Simulation: {Name: pc, StopTime: 50ms, RandomSeed: 3}\n"
        "Topology: {Kind: single-switch, Hosts: 4, LinkRate: 400Gbps}\n"
        "Nic: {Type: uet}\n"
        "UetNic: {InitialRetransmitTimeout: 20us, PdcIdleCloseTimeout: 5us, SackContexts: 2, "
        "EnableEventLogging: true}\n"
        "Records: {Enabled: [flow-perf, uet-transport-stats]}\n"
        "Faults:\n"
        "  - {At: 0s, Link: host1-switch0, Action: loss, Loss: 0.1}\n"
        "Flows:\n"
        "  - {Src: 0, Dst: 1, Bytes: 200000}\n"
        "  - {Src: 2, Dst: 1, Bytes: 200000}\n"
        "  - {Src: 3, Dst: 1, Bytes: 200000}\n"
        "  - {Src: 0, Dst: 1, Bytes: 100000, Start: 30us}\n"
        "  - {Src: 2, Dst: 1, Bytes: 100000, Start: 30us}\n"
        "  - {Src: 3, Dst: 1, Bytes: 100000, Start: 60us}\n"
        "  - {Src: 0, Dst: 2, Bytes: 4096, Start: 5ms}\n";
    const auto r = run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto m = nlohmann::json::parse(read_text(dir + "/pc-manifest.json"));
    EXPECT_TRUE(m["scoreboard"]["ok"].get<bool>()) << m["scoreboard"]["report"];
    EXPECT_GT(m["packets_dropped"].get<uint64_t>(), 0u) << "the fault lost frames";
    EXPECT_EQ(read_csv(dir + "/pc-flow-perf-0.csv").rows.size(), 7u);

    const csv ev = read_csv(dir + "/pc-uet-events-0.csv");
    // The rows of PDCs to and at the receiver, host1 (10.0.0.2): host -> ev_type -> rows.
    std::map<std::string, std::map<std::string, int>> by_host;
    for (size_t i = 0; i < ev.rows.size(); ++i)
        if (ev.str(i, "remote_PDC_ID").rfind("10.0.0.2:", 0) == 0 ||
            ev.str(i, "component_name") == "host1")
            ++by_host[ev.str(i, "component_name")][ev.str(i, "ev_type")];
    // Each of the six messages to host1 had a PDC of its own, closed by the handshake: the
    // senders write one PDC_TERMINATED per PDC they created, after at least one CLOSE_CMD each.
    int created = 0, terminated = 0, commands = 0;
    for (const char* h : {"host0", "host2", "host3"}) {
        created += by_host[h]["PDC_CREATED"];
        terminated += by_host[h]["PDC_TERMINATED"];
        commands += by_host[h]["CLOSE_CMD_SENT"];
    }
    EXPECT_EQ(created, 6);
    EXPECT_EQ(terminated, 6);
    EXPECT_GE(commands, 6);
    // The receiver: at most two ends at once, so the third sender's first packets were NACKed;
    // each end it opened was freed by a command.
    EXPECT_GT(by_host["host1"]["NACK_NO_PDC_AVAIL_SENT"], 0);
    EXPECT_EQ(by_host["host1"]["PDC_CREATED"], 6);
    EXPECT_EQ(by_host["host1"]["PDC_TERMINATED"], 6);
    EXPECT_GE(by_host["host1"]["CLOSE_CMD_RCVD"], by_host["host1"]["PDC_TERMINATED"]);
}

TEST(pdc_lifecycle, an_out_of_range_timeout_exits_2_naming_the_key)
{
    const std::string dir = scratch_dir("pdc_close_bad");
    for (const char* value : {"2s", "-1us", "soon"}) {
        const std::string y = std::string("Simulation: {Name: pb}\nNic: {Type: uet}\n") +
                              "UetNic: {PdcIdleCloseTimeout: " + value +
                              "}\nFlows:\n  - {Src: 0, Dst: 1, Bytes: 4096}\n";
        const auto r =
            run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir + "/out"});
        EXPECT_EQ(r.exit_code, 2) << value << r.err;
        EXPECT_NE(r.err.find("UetNic.PdcIdleCloseTimeout"), std::string::npos) << value << r.err;
    }
}
