#include "testbench/simulation.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hw/common/activity.h"
#include "hw/common/time.h"
#include "testbench/app/app_inspect.h"
#include "testbench/app/rdma_application.h"
#include "testbench/fabric.h"
#include "testbench/capture/pcap_capture.h"
#include "testbench/faults.h"
#include "testbench/flows.h"
#include "testbench/records/pcie_records.h"
#include "testbench/records/periodic_records.h"
#include "testbench/records/uet_records.h"
#include "testbench/run_control.h"

namespace uetsim {

namespace {

using wall_clock = std::chrono::steady_clock;

// Progress on stderr: simulated time, share of the stop time (or of the messages done), wall
// time and an estimate of the time left. Wakes every 1/200 of the stop time.
class progress_meter : public sc_core::sc_module
{
public:
    progress_meter(const sc_core::sc_module_name& name, double stop_s, const flows& f)
        : sc_core::sc_module(name), m_stop_s(stop_s), m_flows(f), m_start(wall_clock::now())
    {
        SC_HAS_PROCESS(progress_meter);
        SC_METHOD(tick);
    }
    void done() const
    {
        if (m_printed) std::fputc('\n', stderr);
    }

private:
    void tick()
    {
        const double now = to_seconds(sc_core::sc_time_stamp());
        const double wall = std::chrono::duration<double>(wall_clock::now() - m_start).count();
        double frac = now / m_stop_s;
        if (!m_flows.messages().empty())
            frac = std::max(frac, double(m_flows.completed()) / double(m_flows.messages().size()));
        if (wall - m_last_print >= 0.5) {
            m_last_print = wall;
            m_printed = true;
            const double eta = frac > 0 ? wall * (1 - frac) / frac : 0;
            std::fprintf(stderr, "\r  sim %.6f s  %5.1f%%  wall %.1f s  eta %.1f s   ", now,
                         frac * 100, wall, eta);
            std::fflush(stderr);
        }
        next_trigger(seconds(m_stop_s / 200));
    }

    double m_stop_s;
    const flows& m_flows;
    wall_clock::time_point m_start;
    double m_last_print = 0;
    bool m_printed = false;
};

uint64_t peak_rss_bytes()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return uint64_t(ru.ru_maxrss) * 1024;
}

bool enabled(const scenario& sc, const char* record)
{
    for (const auto& r : sc.records.enabled)
        if (r == record) return true;
    return false;
}

}  // namespace

run_summary run_simulation(const scenario& sc, const run_options& opts)
{
    const auto wall_start = wall_clock::now();
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    // A run that ends when its traffic is done stops through sc_stop; that is not news.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    std::filesystem::create_directories(opts.out_dir);
    const std::string prefix = opts.out_dir + "/" + sc.simulation.name + "-";
    // A manifest from an earlier run must not vouch for this one until it completes.
    std::filesystem::remove(prefix + "manifest.json");

    packet_pool pool;
    flows traffic("flows", sc, pool);
    fabric fab(sc, pool, traffic);
    fault_injector faults("faults", sc, fab);
    periodic_records records("records", sc, fab, opts.out_dir);
    std::vector<std::string> files = records.files();
    if (enabled(sc, "flow-perf")) {
        traffic.record_to(
            std::make_unique<csv_writer>(
                prefix + "flow-perf-0.csv",
                std::vector<std::string>{"time_utc", "sim_time_sec", "flow_id", "src_host",
                                         "dst_host", "bytes", "packets", "start_time_sec",
                                         "finish_time_sec", "fct_usec"}),
            sc.simulation.epoch_utc);
        files.push_back(prefix + "flow-perf-0.csv");
    }
    std::unique_ptr<pcie_records> pcie;
    if (fab.nic_count() && enabled(sc, "pcie-stats")) {
        pcie = std::make_unique<pcie_records>("pcie_stats", sc, fab, prefix + "pcie-stats-0.csv");
        files.push_back(pcie->path());
    }
    std::unique_ptr<uet_transport_record> transport;
    std::unique_ptr<uet_monitor_record> monitor;
    if (fab.nic_count()) {
        if (enabled(sc, "uet-transport-stats")) {
            transport = std::make_unique<uet_transport_record>(
                "uet_transport_stats", sc, fab, prefix + "uet-transport-stats-0.csv");
            files.push_back(transport->path());
        }
        if (sc.records.uet_monitor) {
            std::vector<std::string> names(fab.topo().devices.size());
            for (const auto& d : fab.topo().devices) names[d.node_id] = d.name;
            monitor = std::make_unique<uet_monitor_record>(prefix + "uet-monitor-0.csv", names);
            for (size_t h = 0; h < fab.nic_count(); ++h) fab.nic_at(h).set_monitor(monitor.get());
            files.push_back(monitor->path());
        }
    }
    std::unique_ptr<rdma_application> app;
    if (sc.rdma.enabled && fab.nic_count()) {
        app = std::make_unique<rdma_application>("rdma_app", sc, fab);
        if (enabled(sc, "rdma-perf")) {
            app->record_perf_to(std::make_unique<csv_writer>(
                prefix + "rdma-perf-0.csv",
                std::vector<std::string>{"job_id", "time_utc", "sim_time_sec", "metric_name",
                                         "perf_metric_usec", "transfer_size", "start_time_sec",
                                         "application_name", "node_id", "rdma_verb", "wqe_id",
                                         "num_wqe_sent", "num_wqe_complete", "responder_node_id"}));
            files.push_back(prefix + "rdma-perf-0.csv");
        }
        if (enabled(sc, "beacon")) {
            app->record_beacon_to(std::make_unique<csv_writer>(
                prefix + "beacon-0.csv",
                std::vector<std::string>{
                    "job_id", "time_utc", "sim_time_sec", "interval_duration_sec", "tx_client",
                    "rx_client", "tx_server", "rx_server", "rx_bytes_reader", "rx_bytes_writer",
                    "goodput_reader_MB_per_sec", "goodput_writer_MB_per_sec"}));
            files.push_back(prefix + "beacon-0.csv");
        }
    }
    pcap_capture capture;
    for (const auto& name : sc.capture.links) {
        const int l = fab.topo().find_link(name);
        if (l < 0) throw std::invalid_argument("Capture.Links: unknown link '" + name + "'");
        capture.attach(fab.link_at(size_t(l)), prefix + name + ".pcap");
    }
    for (const auto& f : capture.files()) files.push_back(f);
    // A Flows-only run ends when its last message is done; with the application it runs to its
    // stop time.
    if (!sc.flows.messages.empty() && !app) traffic.on_all_done([] { sc_core::sc_stop(); });
    std::unique_ptr<progress_meter> progress;
    if (opts.progress)
        progress = std::make_unique<progress_meter>("progress", sc.simulation.stop_time_s, traffic);

    // Run control (#16): slices of simulated time, stopping early on SIGINT/SIGTERM.
    const int stop_sig = run_until(sc.simulation.stop_time_s);
    if (progress) progress->done();
    records.finish();
    if (transport) transport->finish();
    if (pcie) pcie->finish();
    if (monitor) monitor->close();
    traffic.record_to(nullptr, {});  // flush and close flow-perf
    if (app) app->finish();

    run_summary s;
    s.stop_signal = stop_sig;  // run control (#16)
    s.sim_time_s = to_seconds(sc_core::sc_time_stamp());
    s.events = activity::count();
    s.data_packets_sent = traffic.data_packets_sent();
    for (size_t h = 0; h < fab.nic_count(); ++h)
        s.data_packets_sent += fab.nic_at(h).counters().write_pkts_sent;
    for (size_t i = 0; i < fab.switch_count(); ++i) {
        auto& sw = fab.switch_at(i);
        s.packets_dropped += sw.no_route_drops();
        for (size_t p = 0; p < sw.port_count(); ++p) {
            s.packets_dropped += sw.port(p).queue().stats().dropped;
            s.packets_trimmed += sw.port(p).queue().stats().trimmed;
        }
    }
    for (size_t i = 0; i < fab.link_count(); ++i)
        s.packets_dropped +=
            fab.link_at(i).frames_lost(link::a_to_b) + fab.link_at(i).frames_lost(link::b_to_a);
    s.flows_total = uint32_t(traffic.messages().size());
    s.flows_completed = traffic.completed();
    s.scoreboard_message = traffic.scoreboard_report();
    if (app) {
        s.rdma_connections = app->connections();
        s.wqes_posted = app->wqes_posted();
        s.wqes_completed = app->wqes_completed();
        const std::string r = app->scoreboard_report();
        if (!r.empty()) s.scoreboard_message += (s.scoreboard_message.empty() ? "" : "\n") + r;
    }
    s.scoreboard_ok = s.scoreboard_message.empty();
    s.wall_time_s = std::chrono::duration<double>(wall_clock::now() - wall_start).count();
    s.peak_rss_bytes = peak_rss_bytes();

    nlohmann::ordered_json m;
    m["name"] = sc.simulation.name;
    m["program"] = "uetsim";
    m["version"] = UETSIM_VERSION;
    m["random_seed"] = sc.simulation.random_seed;
    m["scenario"] = opts.resolved_json.empty() ? nlohmann::ordered_json::object()
                                               : nlohmann::ordered_json::parse(opts.resolved_json);
    m["status"] = stop_sig ? "interrupted" : "complete";  // run control (#16)
    m["sim_time_s"] = s.sim_time_s;
    m["events_executed"] = s.events;
    m["data_packets_sent"] = s.data_packets_sent;
    m["packets_dropped"] = s.packets_dropped;
    m["packets_trimmed"] = s.packets_trimmed;
    if (sc.sw.rtl_flow_hash_lockstep) m["rtl_flow_hash_checks"] = fab.rtl_hash_checks();
    m["messages"] = {{"total", s.flows_total}, {"completed", s.flows_completed}};
    if (app)
        m["rdma_application"] = {{"connections", app->connections()},
                                 {"connections_set_up", app->connections_set_up()},
                                 {"wqes_posted", app->wqes_posted()},
                                 {"wqes_completed", app->wqes_completed()}};
    m["scoreboard"] = {{"ok", s.scoreboard_ok}, {"report", s.scoreboard_message}};
    nlohmann::ordered_json rec = nlohmann::ordered_json::array();
    for (const auto& f : files) rec.push_back(std::filesystem::path(f).filename().string());
    m["records"] = rec;
    // Wall-clock figures last: the only members that differ between identical runs.
    m["wall_time_s"] = s.wall_time_s;
    m["peak_rss_bytes"] = s.peak_rss_bytes;
    std::ofstream(prefix + "manifest.json") << m.dump(2) << "\n";
    return s;
}

std::string derived_json(const scenario& sc)
{
    const topology t = build_topology(sc.topology, sc.link);
    nlohmann::ordered_json j;
    auto& tj = j["topology"];
    tj["kind"] = sc.topology.kind == topology_kind::leaf_spine ? "leaf-spine"
                 : sc.topology.kind == topology_kind::fat_tree ? "fat-tree"
                                                               : "single-switch";
    tj["hosts"] = t.hosts;
    tj["switches"] = t.switch_count();
    tj["links"] = t.links.size();
    nlohmann::ordered_json sw = nlohmann::ordered_json::array();
    for (uint32_t d = t.hosts; d < t.devices.size(); ++d)
        sw.push_back({{"name", t.devices[d].name},
                      {"node_id", t.devices[d].node_id},
                      {"tier", t.devices[d].tier},
                      {"ports", t.devices[d].ports.size()}});
    tj["switch_list"] = sw;
    const uint64_t limit = sc.sw.effective_egress_limit();
    j["switch"] = {{"egress_queue_limit_bytes", limit},
                   {"ecn_min_bytes", sc.sw.min_threshold * double(limit)},
                   {"ecn_max_bytes", sc.sw.max_threshold * double(limit)},
                   {"forwarding_latency_s", sc.sw.forwarding_latency_s}};
    uint64_t packets = 0, bytes = 0;
    for (const auto& f : sc.flows.messages) {
        packets +=
            f.bytes == 0 ? 1 : (f.bytes + sc.nic.uet.rdma_data_mss - 1) / sc.nic.uet.rdma_data_mss;
        bytes += f.bytes;
    }
    j["flows"] = {{"messages", sc.flows.messages.size()}, {"packets", packets}, {"bytes", bytes}};

    // The spraying values every UET NIC derives (the first host's link rate stands for all).
    entropy_config lb = sc.nic.spraying;
    lb.link_rate_bps = t.hosts ? t.host_link(0).rate_bps : sc.topology.link_rate_bps;
    lb.initial_base_rtt_s = sc.nic.nscc.initial_base_rtt_s;
    lb.rdma_data_mss = sc.nic.uet.rdma_data_mss;
    lb.local_udp_port = uet_nic::none_port(1);
    const spraying_derived d = derive_spraying(lb);
    auto& sj = j["spraying"];
    sj["type"] = spraying_type_name(d.type);
    sj["ports"] = d.ports;
    if (d.reps) {
        const reps_derived& r = *d.reps;
        sj["reps"] = {{"cache_entries", r.cache_entries},
                      {"explore_range", {r.explore_lo, r.explore_hi}},
                      {"freezing_timeout_s", r.freezing_timeout_s},
                      {"failure_detection_deadline_s", r.failure_detection_deadline_s},
                      {"bdp_bytes", r.bdp_bytes},
                      {"nominal_packet_bytes", r.nominal_packet_bytes},
                      {"exploration_window_packets", r.exploration_window_packets},
                      {"exploring_packets", r.exploring_packets}};
    }
    const nlohmann::ordered_json app =
        rdma_app_json(sc, t.hosts, t.hosts ? t.host_link(0).rate_bps : sc.topology.link_rate_bps);
    for (auto it = app.begin(); it != app.end(); ++it) j[it.key()] = it.value();
    return j.dump();
}

}  // namespace uetsim
