// uet-monitor's filters and triggers and uet-events through the real command, on three Flows
// messages across a single switch (host0 -> host1, host2 -> host3, host0 -> host3): each
// filtered or triggered run's rows are exactly the rows of the unfiltered run that the records
// page's rules select (a connection from its first matching row on, at both of its ends), and
// uet-events gives one lifecycle per message, in order, matching flow-perf.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

const char* const scenario_text =
    "Simulation: {Name: mon}\n"
    "Topology: {Kind: single-switch, Hosts: 4}\n"
    "Flows:\n"
    "  - {Src: 0, Dst: 1, Bytes: 200000}\n"
    "  - {Src: 2, Dst: 3, Bytes: 200000}\n"
    "  - {Src: 0, Dst: 3, Bytes: 100000}\n";

struct mon_row
{
    std::string time, host, uid, direction, remote_ip, rtt;
    bool operator==(const mon_row& o) const
    {
        return time == o.time && host == o.host && uid == o.uid && direction == o.direction;
    }
    // The connection by its two hosts, the sender first (one message per pair here).
    std::string connection(const std::string& type) const
    {
        const bool sent = direction != "Rx";
        const bool from_sender = type == "RUD_REQUEST" || type == "CTRL";
        const std::string peer = "host" + std::to_string(std::stoi(remote_ip.substr(7)) - 1);
        return from_sender == sent ? host + ">" + peer : peer + ">" + host;
    }
    std::string conn;
};

std::vector<mon_row> monitor_rows(const std::string& dir)
{
    const csv c = read_csv(dir + "/mon-uet-monitor-0.csv");
    std::vector<mon_row> rows;
    for (size_t i = 0; i < c.rows.size(); ++i) {
        mon_row r{c.str(i, "sim_time_ns"),
                  c.str(i, "component_name"),
                  c.str(i, "packet_UID"),
                  c.str(i, "direction"),
                  "",
                  c.str(i, "RTT_ns"),
                  ""};
        const std::string& remote = c.str(i, "remote_PDC_ID");
        r.remote_ip = remote.substr(0, remote.find(':'));
        r.conn = r.connection(c.str(i, "packet_type"));
        rows.push_back(r);
    }
    return rows;
}

command_result run(const std::string& dir, std::vector<std::string> sets)
{
    const std::string file = write_file(dir + "/mon.yaml", scenario_text);
    std::vector<std::string> args = {"run", file, "--quiet", "--out", dir};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    return run_uetsim(args);
}

// The rows of the unfiltered run, computed once.
const std::vector<mon_row>& reference()
{
    static const std::vector<mon_row> rows = [] {
        const std::string dir = scratch_dir("mon-all");
        const command_result r = run(dir, {"Records.UetMonitor=true"});
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return monitor_rows(dir);
    }();
    return rows;
}

// The reference rows of the connections `selected` names, each from its row index on.
std::vector<mon_row> expected(const std::map<std::string, size_t>& selected)
{
    std::vector<mon_row> out;
    const auto& ref = reference();
    for (size_t i = 0; i < ref.size(); ++i) {
        auto it = selected.find(ref[i].conn);
        if (it != selected.end() && i >= it->second) out.push_back(ref[i]);
    }
    return out;
}

std::vector<mon_row> filtered(const std::string& tag, const std::vector<std::string>& sets)
{
    const std::string dir = scratch_dir(tag);
    const command_result r = run(dir, sets);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    return monitor_rows(dir);
}

size_t first_row(const std::string& conn, const std::string& host)
{
    const auto& ref = reference();
    for (size_t i = 0; i < ref.size(); ++i)
        if (ref[i].conn == conn && (host.empty() || ref[i].host == host)) return i;
    ADD_FAILURE() << "no row of " << conn;
    return 0;
}

}  // namespace

TEST(uet_monitor, the_unfiltered_run_logs_the_three_connections_at_both_ends)
{
    std::map<std::string, std::set<std::string>> hosts;
    for (const auto& r : reference()) hosts[r.conn].insert(r.host);
    ASSERT_EQ(hosts.size(), 3u);
    EXPECT_EQ(hosts["host0>host1"], (std::set<std::string>{"host0", "host1"}));
    EXPECT_EQ(hosts["host2>host3"], (std::set<std::string>{"host2", "host3"}));
    EXPECT_EQ(hosts["host0>host3"], (std::set<std::string>{"host0", "host3"}));
}

TEST(uet_monitor, a_fep_filter_selects_the_connection_at_both_ends_from_its_first_match)
{
    // FEP of host1: its first row (a data packet received) selects host0 > host1; host0's rows
    // of that connection follow, the data packets host0 sent before it are not logged.
    const csv stats = [] {
        const std::string dir = scratch_dir("mon-fep");
        EXPECT_EQ(run(dir, {"Records.Enabled=uet-transport-stats"}).exit_code, 0);
        return read_csv(dir + "/mon-uet-transport-stats-0.csv");
    }();
    std::string fep1;
    for (size_t i = 0; i < stats.rows.size(); ++i)
        if (stats.str(i, "component_name") == "host1") fep1 = stats.str(i, "fep_id");
    ASSERT_FALSE(fep1.empty());
    const auto rows =
        filtered("mon-f1", {"Records.UetMonitor=true", "Records.FilterOnFepId=" + fep1});
    const auto want = expected({{"host0>host1", first_row("host0>host1", "host1")}});
    ASSERT_GT(want.size(), 100u);
    EXPECT_LT(want.size(), expected({{"host0>host1", 0}}).size());
    EXPECT_TRUE(rows == want) << rows.size() << " rows, expected " << want.size();
    std::set<std::string> hosts;
    for (const auto& r : rows) hosts.insert(r.host);
    EXPECT_EQ(hosts, (std::set<std::string>{"host0", "host1"}));
}

TEST(uet_monitor, filters_combine_local_and_remote_addresses)
{
    // Local 10.0.0.1 (host0) and remote 10.0.0.4 (host3): only host0 > host3.
    const auto rows =
        filtered("mon-f2", {"Records.UetMonitor=true", "Records.FilterOnLocalIp=10.0.0.1",
                            "Records.FilterOnRemoteIp=10.0.0.4"});
    EXPECT_TRUE(rows == expected({{"host0>host3", 0}})) << rows.size();
    // The receiver's side: local 10.0.0.4, remote 10.0.0.3 selects host2 > host3 from host3's
    // first row.
    const auto rx =
        filtered("mon-f3", {"Records.UetMonitor=true", "Records.FilterOnLocalIp=10.0.0.4",
                            "Records.FilterOnRemoteIp=10.0.0.3"});
    EXPECT_TRUE(rx == expected({{"host2>host3", first_row("host2>host3", "host3")}})) << rx.size();
}

TEST(uet_monitor, a_pdc_filter_names_the_senders_end)
{
    // host2's PDC: the sender's id, read from the reference run's first row of host2 > host3.
    const std::string dir = scratch_dir("mon-pdc-ref");
    ASSERT_EQ(run(dir, {"Records.UetMonitor=true"}).exit_code, 0);
    const csv c = read_csv(dir + "/mon-uet-monitor-0.csv");
    std::string pdc;
    for (size_t i = 0; i < c.rows.size() && pdc.empty(); ++i)
        if (c.str(i, "component_name") == "host2") pdc = c.str(i, "local_PDC_ID");
    ASSERT_EQ(pdc.substr(0, 9), "10.0.0.3:");
    const auto rows = filtered("mon-f4", {"Records.UetMonitor=true", "Records.FilterOnPdc=" + pdc});
    EXPECT_TRUE(rows == expected({{"host2>host3", 0}})) << rows.size();
}

TEST(uet_monitor, a_receiver_names_its_own_end_from_the_first_data_packet)
{
    // host3's rows of data received from host2: the first packets carry no receiver id yet
    // (0), but the row names host3's own end, one id for the whole connection.
    const std::string dir = scratch_dir("mon-rx-ref");
    ASSERT_EQ(run(dir, {"Records.UetMonitor=true"}).exit_code, 0);
    const csv c = read_csv(dir + "/mon-uet-monitor-0.csv");
    std::set<std::string> ids;
    size_t rows = 0;
    for (size_t i = 0; i < c.rows.size(); ++i)
        if (c.str(i, "component_name") == "host3" && c.str(i, "packet_type") == "RUD_REQUEST" &&
            c.str(i, "remote_PDC_ID").substr(0, 9) == "10.0.0.3:")
            ids.insert(c.str(i, "local_PDC_ID")), ++rows;
    ASSERT_GT(rows, 10u);
    ASSERT_EQ(ids.size(), 1u);
    const std::string own = *ids.begin();
    EXPECT_EQ(own.substr(0, 9), "10.0.0.4:");
    EXPECT_NE(own, "10.0.0.4:0");
    // So FilterOnPdc with the receiver's id selects the connection from host3's first row.
    const auto sel = filtered("mon-f5", {"Records.UetMonitor=true", "Records.FilterOnPdc=" + own});
    EXPECT_TRUE(sel == expected({{"host2>host3", first_row("host2>host3", "host3")}}))
        << sel.size();
}

TEST(uet_monitor, the_rtt_trigger_selects_one_connection_from_its_slow_ack)
{
    // The threshold is the greatest RTT of the reference run: the first ACK that reaches it
    // selects its connection; the monitor itself is off, so nothing else is logged.
    double most = 0;
    size_t at = 0;
    const auto& ref = reference();
    for (size_t i = 0; i < ref.size(); ++i)
        if (!ref[i].rtt.empty() && std::stod(ref[i].rtt) > most)
            most = std::stod(ref[i].rtt), at = i;
    ASSERT_GT(most, 0);
    const std::string threshold = std::to_string(uint64_t(most)) + "ns";  // at or below `most`
    size_t first = ref.size();
    for (size_t i = 0; i < ref.size() && first == ref.size(); ++i)
        if (!ref[i].rtt.empty() && std::stod(ref[i].rtt) >= double(uint64_t(most))) first = i;
    ASSERT_LE(first, at);
    const auto rows = filtered("mon-rtt", {"Records.TriggerLoggingOnRttEnable=true",
                                           "Records.TriggerLoggingOnRttThreshold=" + threshold});
    EXPECT_TRUE(rows == expected({{ref[first].conn, first}})) << rows.size();
    ASSERT_FALSE(rows.empty());
    EXPECT_GE(std::stod(rows.front().rtt), double(uint64_t(most)));
    // A zero budget: the file is written and holds no row.
    const auto none = filtered("mon-rtt0", {"Records.TriggerLoggingOnRttEnable=true",
                                            "Records.TriggerLoggingOnRttThreshold=" + threshold,
                                            "Records.TriggeredLoggingPDCLimit=0"});
    EXPECT_TRUE(none.empty());
}

TEST(uet_monitor, the_penalty_trigger_spends_its_budget_on_the_first_connections)
{
    // Threshold 0: every data packet sent carries a latest penalty of at least 0, so the first
    // two connections to send are selected from their first packet and the third never is.
    const auto& ref = reference();
    std::map<std::string, size_t> first_two;
    for (size_t i = 0; i < ref.size() && first_two.size() < 2; ++i)
        first_two.emplace(ref[i].conn, i);
    ASSERT_EQ(first_two.size(), 2u);
    const auto rows = filtered("mon-pen", {"Records.TriggerLoggingOnCWindPen=true",
                                           "Records.TriggerLoggingOnCWindPenThreshold=0",
                                           "Records.TriggeredLoggingPDCLimit=2"});
    EXPECT_TRUE(rows == expected(first_two)) << rows.size();
    // At the default threshold (127) the penalty stays 0 at default PCIe settings: no row.
    const auto none = filtered("mon-pen127", {"Records.TriggerLoggingOnCWindPen=true"});
    EXPECT_TRUE(none.empty());
}

TEST(uet_monitor, the_record_stays_off_by_default)
{
    const std::string dir = scratch_dir("mon-off");
    ASSERT_EQ(run(dir, {}).exit_code, 0);
    EXPECT_FALSE(std::ifstream(dir + "/mon-uet-monitor-0.csv").good());
    EXPECT_FALSE(std::ifstream(dir + "/mon-uet-events-0.csv").good());
}

TEST(uet_monitor, bad_filter_values_exit_2_naming_the_key)
{
    const std::string dir = scratch_dir("mon-bad");
    for (const auto& [set, key] : std::vector<std::pair<std::string, std::string>>{
             {"Records.FilterOnLocalIp=32.0.0", "Records.FilterOnLocalIp"},
             {"Records.FilterOnRemoteIp=host1", "Records.FilterOnRemoteIp"},
             {"Records.FilterOnPdc=32.0.0.2", "Records.FilterOnPdc"},
             {"Records.FilterOnPdc=32.0.0.2:70000", "Records.FilterOnPdc"},
             {"Records.FilterOnFepId=host1", "Records.FilterOnFepId"},
             {"Records.TriggerLoggingOnCWindPenThreshold=128",
              "Records.TriggerLoggingOnCWindPenThreshold"},
             {"Records.TriggeredLoggingPDCLimit=101", "Records.TriggeredLoggingPDCLimit"}}) {
        const command_result r = run(dir, {set});
        EXPECT_EQ(r.exit_code, 2) << set;
        EXPECT_NE(r.err.find(key), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(set.substr(set.find('=') + 1)), std::string::npos) << r.err;
    }
}

TEST(uet_events, one_lifecycle_per_message_in_order_matching_flow_perf)
{
    const std::string dir = scratch_dir("mon-events");
    const command_result r = run(dir, {"UetNic.EnableEventLogging=true"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const csv ev = read_csv(dir + "/mon-uet-events-0.csv");
    const csv perf = read_csv(dir + "/mon-flow-perf-0.csv");
    ASSERT_EQ(perf.rows.size(), 3u);
    EXPECT_EQ(ev.header, (std::vector<std::string>{"time_utc", "sim_time_ns", "component_name",
                                                   "FEP_ID", "local_PDC_ID", "remote_PDC_ID",
                                                   "wqe_ID", "wqe_size_bytes", "ev_type"}));
    std::map<std::string, int> count;
    // By message: the time of each of its work-request events.
    std::map<std::string, std::map<std::string, double>> wqe;
    // By host and local PDC: when the PDC was created, terminated, received in full.
    std::map<std::string, std::map<std::string, double>> pdc;
    for (size_t i = 0; i < ev.rows.size(); ++i) {
        const std::string& type = ev.str(i, "ev_type");
        ++count[type];
        const double t = ev.num(i, "sim_time_ns");
        const std::string end = ev.str(i, "component_name") + "/" + ev.str(i, "local_PDC_ID");
        const bool has_wqe = !ev.str(i, "wqe_ID").empty();
        EXPECT_EQ(has_wqe,
                  type == "WQE_CREATED" || type == "SEND_COMPLETE" || type == "WQE_COMPLETE")
            << "row " << i;
        if (has_wqe) {
            wqe[ev.str(i, "wqe_ID")][type] = t;
            wqe[ev.str(i, "wqe_ID")]["bytes"] = ev.num(i, "wqe_size_bytes");
        } else {
            EXPECT_EQ(pdc[end].count(type), 0u) << end << " " << type;
            pdc[end][type] = t;
        }
    }
    // Three messages, each on a PDC of its own that closes when it completes.
    EXPECT_EQ(count["PDC_CREATED"], 6);  // 3 senders' ends, 3 receivers' ends
    EXPECT_EQ(count["WQE_CREATED"], 3);
    EXPECT_EQ(count["SEND_COMPLETE"], 3);
    EXPECT_EQ(count["WQE_COMPLETE"], 3);
    EXPECT_EQ(count["RECV_COMPLETE"], 3);
    EXPECT_EQ(count["PDC_TERMINATED"], 3);
    EXPECT_EQ(pdc.size(), 6u);
    for (const auto& [end, t] : pdc) {
        ASSERT_TRUE(t.count("PDC_CREATED")) << end;
        for (const char* later : {"PDC_TERMINATED", "RECV_COMPLETE"})
            if (t.count(later)) {
                EXPECT_LT(t.at("PDC_CREATED"), t.at(later)) << end << " " << later;
            }
        EXPECT_NE(t.count("PDC_TERMINATED"), t.count("RECV_COMPLETE")) << end;  // one of the two
    }
    ASSERT_EQ(wqe.size(), 3u);
    for (size_t i = 0; i < perf.rows.size(); ++i) {
        const auto& w = wqe[perf.str(i, "flow_id")];
        EXPECT_EQ(w.at("bytes"), perf.num(i, "bytes"));
        EXPECT_LT(w.at("WQE_CREATED"), w.at("SEND_COMPLETE"));
        EXPECT_LT(w.at("SEND_COMPLETE"), w.at("WQE_COMPLETE"));
        EXPECT_GE(w.at("WQE_CREATED"), perf.num(i, "start_time_sec") * 1e9);
        // flow-perf's finish is the completion's arrival at the host, over PCIe.
        EXPECT_LE(w.at("WQE_COMPLETE"), perf.num(i, "finish_time_sec") * 1e9 + 1e-3);
        EXPECT_GT(w.at("WQE_COMPLETE"), perf.num(i, "finish_time_sec") * 1e9 - 2000);
    }
}
