// run_simulation: elaborates the scenario (traffic, fabric, faults), opens the records the
// registry says apply, simulates, closes the records, sums the run summary and writes the
// manifest last.
#include <memory>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>

#include <fmt/format.h>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <tlm>

#include "hw/kernel/activity.h"
#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "testbench/traffic/app/rdma_application.h"
#include "testbench/run/run_input_error.h"
#include "testbench/capture/pcap_capture.h"
#include "testbench/elab/elaboration_timer.h"
#include "testbench/elab/fabric.h"
#include "testbench/traffic/faults.h"
#include "testbench/traffic/flows.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/run/manifest.h"
#include "testbench/run/progress_meter.h"
#include "testbench/records/periodic_start.h"
#include "testbench/records/record_clock.h"
#include "testbench/records/record_registry.h"
#include "testbench/run/run_control.h"
#include "testbench/run/simulation.h"
#include "testbench/trace/waveforms.h"
#include "testbench/traffic/chakra/chakra_profiler.h"
#include "testbench/traffic/chakra/chakra_replay.h"
#include "testbench/traffic/chakra/chakra_workload.h"

namespace uetsim {

namespace {

using wall_clock = std::chrono::steady_clock;

uint64_t peak_rss_bytes()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return uint64_t(ru.ru_maxrss) * 1024;
}

// The records of a run, opened in registry order. Those that read the RDMA application are
// opened once it exists (the registry lists them after the others).
class open_records
{
public:
    open_records(record_context& ctx, const std::string& out_dir) : m_ctx(ctx), m_out_dir(out_dir)
    {
    }
    void open(bool reads_application)
    {
        for (const record_def* r : record_registry()) {
            if (!r->open || r->reads_application != reads_application) continue;
            if (!record_wanted(*r, m_ctx)) continue;
            const std::string path = m_out_dir + "/" + r->file_name(m_ctx.sc.simulation.name);
            m_open.push_back(r->open(m_ctx, path));
            files.push_back(path);
        }
    }
    void finish()
    {
        for (auto& r : m_open) r->finish();
    }
    std::vector<std::string> files;

private:
    record_context& m_ctx;
    std::string m_out_dir;
    std::vector<std::unique_ptr<open_record>> m_open;
};

// What the run summary reads from the fabric and the traffic sources, in one place.
run_summary summarise(fabric& fab, const flows& traffic, const rdma_application* app,
                      const chakra::chakra_replay* replay)
{
    run_summary s;
    s.sim_time_s = to_seconds(sim_now());
    s.events = activity::count();
    s.data_packets_sent = traffic.data_packets_sent();
    for (size_t h = 0; h < fab.nic_count(); ++h)
        s.data_packets_sent += fab.nic_at(h).data_packets_sent();
    for (size_t i = 0; i < fab.switch_count(); ++i) {
        auto& sw = fab.switch_at(i);
        s.packets_dropped += sw.no_route_drops();
        for (size_t p = 0; p < sw.port_count(); ++p) {
            s.packets_dropped +=
                sw.port(p).queue().stats().dropped + sw.port(p).counters().rx_drops;
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
    if (replay) {
        s.chakra_ranks = replay->ranks();
        s.chakra_ranks_ended = replay->ranks_ended();
        s.chakra_transfers = replay->transfers_posted();
        const std::string r = replay->scoreboard_report();
        if (!r.empty()) s.scoreboard_message += (s.scoreboard_message.empty() ? "" : "\n") + r;
    }
    // Lost messages are named above; say where PFC's watchdog dropped, so that none of those
    // losses is left unexplained.
    if (!s.scoreboard_message.empty())
        for (size_t i = 0; i < fab.switch_count(); ++i) {
            auto& sw = fab.switch_at(i);
            for (size_t p = 0; p < sw.port_count(); ++p)
                for (int tc = 0; tc < 8; ++tc)
                    if (const uint64_t n = sw.port(p).pfc().counters(tc).watchdog_drops)
                        s.scoreboard_message += fmt::format(
                            "{}PFC watchdog: {} port {} dropped {} packets of TC{} "
                            "(Switch.PfcWatchdogTimeout)",
                            s.scoreboard_message.back() == '\n' ? "" : "\n", sw.basename(), p, n,
                            tc);
        }
    s.scoreboard_ok = s.scoreboard_message.empty();
    return s;
}

// Rtl.* both: the first mismatch stops the run (sc_stop, so the records so far are flushed and
// the manifest written) and is printed on stderr at once; later ones (in the same delta cycle)
// are not news. The handler is the process-wide one of rtl/common/rtl_mismatch.h, restored when
// the run ends.
class first_mismatch_stops_the_run
{
public:
    first_mismatch_stops_the_run()
    {
        set_rtl_mismatch_handler([this](const rtl_mismatch& m) {
            if (first) return;
            first = m;
            std::cerr << "uetsim: error: " << m.text() << "\n";
            stop_simulation();
        });
    }
    ~first_mismatch_stops_the_run() { set_rtl_mismatch_handler({}); }
    std::optional<rtl_mismatch> first;
};

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
    const std::string manifest_path =
        opts.out_dir + "/" + manifest_record().file_name(sc.simulation.name);
    // A manifest from an earlier run must not vouch for this one until it completes.
    std::filesystem::remove(manifest_path);

    // The Chakra workload is read and prepared first: a bad trace stops the run before anything
    // is built (exit 2).
    std::unique_ptr<chakra::loaded_workload> workload;
    if (sc.chakra.enabled()) {
        workload = std::make_unique<chakra::loaded_workload>(
            chakra::load_workload(sc.chakra, host_count(sc.topology)));
        for (const auto& n : workload->notes) std::cerr << "uetsim: note: " << n << "\n";
    }
    first_mismatch_stops_the_run mismatch;
    packet_pool pool;
    // First, so that it is a top-level module. The time base picks its process (SC_METHOD or
    // SC_THREAD) at the end of elaboration; the quantum is the run's slice (run_control.h).
    try {
        model_scheduler::instance().set_time_base(sc.simulation.time_base);
    } catch (const std::invalid_argument& e) {  // UETSIM_TIME_BASE, the component tier's hook
        throw run_input_error(e.what());
    }
    tlm::tlm_global_quantum::instance().set(seconds(sc.simulation.quantum_s));
    flows traffic("flows", sc, pool);
    // The fabric is never destroyed (a process runs one elaboration and ends after it): SystemC
    // removes each module, port and export from its registry by a linear search, so tearing
    // down a K = 32 fat-tree took 40 s of a 45 s run. Only its RTL blocks close (their FST
    // files); the memory goes back with the process.
    static auto& kept = *new std::vector<std::unique_ptr<fabric>>;  // reachable: no leak report
    kept.push_back(std::make_unique<fabric>(sc, pool, traffic));
    fabric& fab = *kept.back();
    const auto nic_warnings = nic_type_of(sc.nic).warnings;
    const std::vector<std::string> warnings =
        nic_warnings ? nic_warnings(sc, fab.topo()) : std::vector<std::string>{};
    for (const auto& w : warnings) std::cerr << "uetsim: warning: " << w << "\n";
    fault_injector faults("faults", sc, fab);
    // Every run has the records' clocks, whichever records are on (record_clock.h).
    const double nd_interval = sc.simulation.nd_stats_interval_s;
    record_clock periodic_clock("periodic_records", first_periodic_row_s(sc, nd_interval),
                                nd_interval);
    const double lb_interval = sc.sw.load_balancing_stats_interval_s;
    record_clock lb_clock("load_balancing_records", lb_interval, lb_interval);
    const double buf_interval = sc.sw.buffer.buffer_stats_report_interval_s;
    // One clock per report interval: the buffer records share the load-balancing clock when
    // their intervals agree (both 1 ms by default), so turning them on adds no event.
    std::unique_ptr<record_clock> own_buf_clock;
    record_clock* buf_clock = &lb_clock;
    if (buf_interval != lb_interval) {
        own_buf_clock =
            std::make_unique<record_clock>("buffer_records", buf_interval, buf_interval);
        buf_clock = own_buf_clock.get();
    }
    // net-buff-stats ticks at the periodic records' times for its own interval: on a clock the
    // run has already when one ticks at those times (the periodic clock at the defaults).
    const double nb_interval = sc.simulation.network_buffer_stats_interval_s;
    const double nb_first = first_periodic_row_s(sc, nb_interval);
    std::unique_ptr<record_clock> own_nb_clock;
    record_clock* nb_clock = &periodic_clock;
    if (nb_interval != nd_interval) {
        if (nb_first == lb_interval && nb_interval == lb_interval)
            nb_clock = &lb_clock;
        else if (nb_first == buf_interval && nb_interval == buf_interval)
            nb_clock = buf_clock;
        else {
            own_nb_clock =
                std::make_unique<record_clock>("network_buffer_records", nb_first, nb_interval);
            nb_clock = own_nb_clock.get();
        }
    }
    record_context ctx{
        sc, fab, traffic, nullptr, {periodic_clock, lb_clock, *buf_clock, *nb_clock}};
    ctx.out_dir = opts.out_dir;
    // Before the records: nd-stats reads its scale-up fabric.
    std::unique_ptr<chakra::chakra_replay> replay;
    if (workload) {
        const uint8_t tc = sc.chakra.traffic_class;
        replay = std::make_unique<chakra::chakra_replay>(
            workload->prepared, sc.chakra, workload->placement,
            workload->map ? &*workload->map : nullptr, nic_data_mss(sc.nic),
            sc.simulation.timeline.start_time, sc.simulation.beacon_interval_s,
            [&fab, tc](uint32_t src, uint64_t message, uint32_t dst, uint64_t bytes) {
                fab.post_transfer(src, message, dst, bytes, tc);
            });
        fab.route_transfers(replay.get());
        ctx.chakra = replay.get();
        ctx.workload = workload.get();
    }
    open_records records(ctx, opts.out_dir);
    records.open(false);
    std::unique_ptr<rdma_application> app;
    if (sc.rdma.enabled && fab.nic_count()) {
        app = std::make_unique<rdma_application>("rdma_app", sc, fab);
        ctx.app = app.get();
    }
    records.open(true);
    std::vector<std::string> files = records.files;
    std::unique_ptr<chakra::chakra_profiler> profiler;
    if (replay && sc.chakra.profiling_enabled) {
        profiler = std::make_unique<chakra::chakra_profiler>(
            *replay, opts.out_dir, sc.simulation.name, sc.chakra.profiling_interval_s);
        for (const auto& f : profiler->files()) files.push_back(f);
    }
    pcap_capture capture;
    for (const auto& name : sc.capture.links) {
        const int l = fab.topo().find_link(name);
        if (l < 0) throw run_input_error("Capture.Links: unknown link '" + name + "'");
        capture.attach(fab.link_at(size_t(l)), prefix + name + ".pcap");
    }
    for (const auto& f : capture.files()) files.push_back(f);
    // Waveforms only when asked for: otherwise no probe exists and the components' stay null.
    std::unique_ptr<waveforms> trace;
    if (sc.trace.enabled) trace = std::make_unique<waveforms>(sc, fab, opts.out_dir, replay.get());
    // A Flows-only run ends when its last message is done; with the application it runs to its
    // stop time.
    if (!sc.flows.messages.empty() && !app) traffic.on_all_done([] { stop_simulation(); });
    std::unique_ptr<progress_meter> progress;
    if (opts.progress)
        progress = std::make_unique<progress_meter>(sc.simulation.stop_time_s, traffic);
    const elaboration_timer elaboration("elaboration_timer", wall_start);

    // Slices of simulated time, stopping early on SIGINT/SIGTERM (testbench/run/run_control.h).
    std::function<void()> poll;
    if (progress) poll = [&progress] { progress->poll(); };
    const int stop_signal = run_until(sc.simulation.stop_time_s, poll);
    if (progress) progress->done();
    if (app) app->finish();  // its last beacon row, before the records close
    records.finish();
    if (profiler) profiler->finish();
    if (trace) {
        trace->finish();
        for (const auto& f : trace->files()) files.push_back(f);
    }

    run_summary s = summarise(fab, traffic, app.get(), replay.get());
    s.stop_signal = stop_signal;
    s.mismatch = mismatch.first;
    s.warnings = warnings;
    s.wall_time_s = std::chrono::duration<double>(wall_clock::now() - wall_start).count();
    s.elaboration_wall_time_s = elaboration.seconds();
    s.peak_rss_bytes = peak_rss_bytes();
    write_manifest(manifest_path, {sc, opts.resolved_scenario, s, fab, app.get(), files});
    fab.close_rtl_blocks();
    return s;
}

}  // namespace uetsim
