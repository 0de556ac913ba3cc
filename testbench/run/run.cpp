// run_simulation: elaborates the scenario (traffic, fabric, faults), opens the records the
// registry says apply, simulates, closes the records, sums the run summary and writes the
// manifest last.
#include <memory>
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstring>
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
#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/records/csv_writer.h"
#include "testbench/run/manifest.h"
#include "testbench/run/progress_meter.h"
#include "testbench/records/periodic_start.h"
#include "testbench/records/record_clock.h"
#include "testbench/records/record_registry.h"
#include "testbench/run/run_control.h"
#include "testbench/run/simulation.h"
#include "testbench/run/stall_watch.h"
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
    for (size_t i = 0; i < fab.link_count(); ++i) {
        const link& l = fab.link_at(i);
        s.packets_dropped += l.frames_lost(link::a_to_b) + l.frames_lost(link::b_to_a) +
                             l.fcs_errors(link::a_to_b) + l.fcs_errors(link::b_to_a);
    }
    s.flows_total = uint32_t(traffic.messages().size());
    s.flows_completed = traffic.completed();
    s.scoreboard_message = traffic.scoreboard_report();
    if (const flows::unreliable_losses l = traffic.losses_report(); l.messages) {
        s.unreliable_messages_lost = l.messages;
        s.unreliable_packets_lost = l.packets;
        s.unreliable_losses = l.report;
    }
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

// Simulation.StallTimeout's view of the run: a count that grows whenever work moves (payload
// lands at a receiving host, a message, WQE or transfer completes, a Chakra node finishes), and
// whether any work is outstanding. Read between slices only, so it costs the packet path nothing.
struct work_state
{
    uint64_t progress = 0;
    bool outstanding = false;
};

work_state observe_work(fabric& fab, const flows& traffic, const rdma_application* app,
                        const chakra::chakra_replay* replay)
{
    work_state w;
    for (const auto& m : traffic.messages()) w.progress += m.bytes_received;
    w.progress += traffic.completed();
    w.outstanding = traffic.started() > traffic.completed();
    for (size_t h = 0; h < fab.nic_count(); ++h)
        w.progress += fab.pcie_at(h)
                          .stats(pcie_link::nic_side)
                          .transactions[size_t(pcie_purpose::data_write)];
    if (app) {
        w.progress += app->wqes_completed();
        w.outstanding = w.outstanding || app->wqes_posted() > app->wqes_completed();
    }
    if (replay) {
        const auto& d = replay->completed();
        w.progress += d.sends + d.receives + d.acked + d.computations;
        w.outstanding = w.outstanding || replay->transfers_unacked() > 0;
    }
    return w;
}

// What a stalled run reports: the messages not done and the connections of every NIC that has
// data outstanding.
std::string stall_report(fabric& fab, const flows& traffic, const rdma_application* app,
                         const chakra::chakra_replay* replay)
{
    std::string r;
    if (app && app->wqes_posted() > app->wqes_completed())
        r += fmt::format("RDMA application: {} WQEs posted, {} completed\n", app->wqes_posted(),
                         app->wqes_completed());
    if (replay && replay->transfers_unacked())
        r += fmt::format("Chakra: {} transfers posted and not acknowledged\n",
                         replay->transfers_unacked());
    for (const auto& m : traffic.messages())
        if (!m.done() && m.spec.start_s <= to_seconds(sim_now()))
            r += fmt::format("message {} (host{} -> host{}): {} of {} bytes arrived\n", m.id,
                             m.spec.src, m.spec.dst, m.bytes_received, m.spec.bytes);
    for (size_t h = 0; h < fab.nic_count(); ++h) r += fab.nic_at(h).outstanding_connections();
    return r;
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

// A record the file system refuses to write (disk full, a file size limit) stops the run: the
// first one is kept for the manifest and the error (exit code 2).
class first_write_failure_stops_the_run
{
public:
    first_write_failure_stops_the_run()
    {
        set_record_write_failure_handler([this](const std::string& path, int err) {
            if (!first.empty()) return;
            first = "'" + path + "': " + std::strerror(err);
            stop_simulation();
        });
    }
    ~first_write_failure_stops_the_run() { set_record_write_failure_handler({}); }
    std::string first;
};

}  // namespace

// Everything a run builds, in the order run_simulation built it as locals (the order of
// construction is the order of module names and wake-ups, so records cannot change).
struct simulation::state
{
    state(const scenario& s, const run_options& o) : sc(s), opts(o) {}

    const scenario& sc;
    run_options opts;
    wall_clock::time_point wall_start;
    std::string manifest_path;
    std::unique_ptr<chakra::loaded_workload> workload;
    std::unique_ptr<first_mismatch_stops_the_run> mismatch;
    std::unique_ptr<first_write_failure_stops_the_run> write_failure;
    std::unique_ptr<packet_pool> pool;
    std::unique_ptr<flows> traffic;
    fabric* fab = nullptr;
    std::vector<std::string> warnings;
    std::unique_ptr<fault_injector> faults;
    std::unique_ptr<record_clock> periodic_clock, lb_clock, own_buf_clock, own_nb_clock;
    std::unique_ptr<record_context> ctx;
    std::unique_ptr<chakra::chakra_replay> replay;
    std::unique_ptr<open_records> records;
    std::unique_ptr<rdma_application> app;
    std::vector<std::string> files;
    std::unique_ptr<chakra::chakra_profiler> profiler;
    std::unique_ptr<pcap_capture> capture;
    std::unique_ptr<waveforms> trace;
    std::unique_ptr<progress_meter> progress;
    std::unique_ptr<elaboration_timer> elaboration;
    bool ran = false;
};

simulation::simulation(const scenario& sc, const run_options& opts)
    : m(std::make_unique<state>(sc, opts))
{
}

simulation::~simulation() = default;

fabric& simulation::fab()
{
    if (!m->fab) throw std::logic_error("simulation::fab() before elaborate()");
    return *m->fab;
}

flows& simulation::traffic()
{
    if (!m->traffic) throw std::logic_error("simulation::traffic() before elaborate()");
    return *m->traffic;
}

rdma_application* simulation::application()
{
    return m->app.get();
}

void simulation::elaborate()
{
    if (m->fab) throw std::logic_error("simulation::elaborate() called twice");
    const scenario& sc = m->sc;
    const run_options& opts = m->opts;
    m->wall_start = wall_clock::now();
    // 1 ps, SystemC's default: set only if it is not, so that a program embedding uetsim may
    // have made sc_time values already (which fixes the resolution).
    if (sc_core::sc_get_time_resolution().to_seconds() != 1e-12)
        sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    // A run that ends when its traffic is done stops through sc_stop; that is not news.
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
    std::filesystem::create_directories(opts.out_dir);
    m->manifest_path = opts.out_dir + "/" + manifest_record().file_name(sc.simulation.name);
    // A manifest from an earlier run must not vouch for this one until it completes.
    std::filesystem::remove(m->manifest_path);

    // The Chakra workload is read and prepared first: a bad trace stops the run before anything
    // is built (exit 2).
    if (sc.chakra.enabled()) {
        m->workload = std::make_unique<chakra::loaded_workload>(
            chakra::load_workload(sc.chakra, host_count(sc.topology)));
        for (const auto& n : m->workload->notes) std::cerr << "uetsim: note: " << n << "\n";
    }
    m->mismatch = std::make_unique<first_mismatch_stops_the_run>();
    m->write_failure = std::make_unique<first_write_failure_stops_the_run>();
    m->pool = std::make_unique<packet_pool>();
    // First, so that it is a top-level module. The time base picks its process (SC_METHOD or
    // SC_THREAD) at the end of elaboration; the quantum is the run's slice (run_control.h).
    try {
        model_scheduler::instance().set_time_base(sc.simulation.time_base);
    } catch (const std::invalid_argument& e) {  // UETSIM_TIME_BASE, the component tier's hook
        throw run_input_error(e.what());
    }
    tlm::tlm_global_quantum::instance().set(seconds(sc.simulation.quantum_s));
    m->traffic = std::make_unique<flows>("flows", sc, *m->pool);
    // The fabric is never destroyed (a process runs one elaboration and ends after it): SystemC
    // removes each module, port and export from its registry by a linear search, so tearing
    // down a K = 32 fat-tree took 40 s of a 45 s run. Only its RTL blocks close (their FST
    // files); the memory goes back with the process.
    static auto& kept = *new std::vector<std::unique_ptr<fabric>>;  // reachable: no leak report
    kept.push_back(std::make_unique<fabric>(sc, *m->pool, *m->traffic, opts.configure_nic));
    m->fab = kept.back().get();
    fabric& fab = *m->fab;
    // Each NIC type's warnings, once per type the hosts have.
    for (const nic_kind k : nic_kinds_in_use(sc, fab.topo().hosts)) {
        const auto nic_warnings = find_nic_type(k)->warnings;
        if (!nic_warnings) continue;
        for (std::string& w : nic_warnings(sc, fab.topo())) m->warnings.push_back(std::move(w));
    }
    for (const auto& w : m->warnings) std::cerr << "uetsim: warning: " << w << "\n";
    m->faults = std::make_unique<fault_injector>("faults", sc, fab);
    // Every run has the records' clocks, whichever records are on (record_clock.h).
    const double nd_interval = sc.simulation.nd_stats_interval_s;
    m->periodic_clock = std::make_unique<record_clock>(
        "periodic_records", first_periodic_row_s(sc, nd_interval), nd_interval);
    const double lb_interval = sc.sw.load_balancing_stats_interval_s;
    m->lb_clock =
        std::make_unique<record_clock>("load_balancing_records", lb_interval, lb_interval);
    const double buf_interval = sc.sw.buffer.buffer_stats_report_interval_s;
    // One clock per report interval: the buffer records share the load-balancing clock when
    // their intervals agree (both 1 ms by default), so turning them on adds no event.
    record_clock* buf_clock = m->lb_clock.get();
    if (buf_interval != lb_interval) {
        m->own_buf_clock =
            std::make_unique<record_clock>("buffer_records", buf_interval, buf_interval);
        buf_clock = m->own_buf_clock.get();
    }
    // net-buff-stats ticks at the periodic records' times for its own interval: on a clock the
    // run has already when one ticks at those times (the periodic clock at the defaults).
    const double nb_interval = sc.simulation.network_buffer_stats_interval_s;
    const double nb_first = first_periodic_row_s(sc, nb_interval);
    record_clock* nb_clock = m->periodic_clock.get();
    if (nb_interval != nd_interval) {
        if (nb_first == lb_interval && nb_interval == lb_interval)
            nb_clock = m->lb_clock.get();
        else if (nb_first == buf_interval && nb_interval == buf_interval)
            nb_clock = buf_clock;
        else {
            m->own_nb_clock =
                std::make_unique<record_clock>("network_buffer_records", nb_first, nb_interval);
            nb_clock = m->own_nb_clock.get();
        }
    }
    m->ctx = std::make_unique<record_context>(record_context{
        sc, fab, *m->traffic, nullptr, {*m->periodic_clock, *m->lb_clock, *buf_clock, *nb_clock}});
    record_context& ctx = *m->ctx;
    ctx.out_dir = opts.out_dir;
    // Before the records: nd-stats reads its scale-up fabric.
    if (m->workload) {
        const uint8_t tc = sc.chakra.traffic_class;
        const delivery_mode mode = sc.chakra.mode;
        fabric* f = m->fab;
        m->replay = std::make_unique<chakra::chakra_replay>(
            m->workload->prepared, sc.chakra, m->workload->placement,
            m->workload->map ? &*m->workload->map : nullptr,
            nic_data_mss(fabric_nic(sc, fab.topo().hosts)), sc.simulation.timeline.start_time,
            sc.simulation.beacon_interval_s,
            [f, tc, mode](uint32_t src, uint64_t message, uint32_t dst, uint64_t bytes) {
                f->post_transfer(src, message, dst, bytes, tc, mode);
            });
        fab.route_transfers(m->replay.get());
        ctx.chakra = m->replay.get();
        ctx.workload = m->workload.get();
    }
    m->records = std::make_unique<open_records>(ctx, opts.out_dir);
    m->records->open(false);
    if (sc.rdma.enabled && fab.nic_count()) {
        if (sc.rdma.mode != delivery_mode::rud)
            for (size_t h = 0; h < fab.nic_count(); ++h)
                fab.host_interface_at(h).set_delivery_mode(sc.rdma.mode);
        m->app = std::make_unique<rdma_application>("rdma_app", sc, fab);
        ctx.app = m->app.get();
    }
    m->records->open(true);
    m->files = m->records->files;
    if (m->replay && sc.chakra.profiling_enabled) {
        m->profiler = std::make_unique<chakra::chakra_profiler>(
            *m->replay, opts.out_dir, sc.simulation.name, sc.chakra.profiling_interval_s);
        for (const auto& f : m->profiler->files()) m->files.push_back(f);
    }
    m->capture = std::make_unique<pcap_capture>();
    const std::string prefix = opts.out_dir + "/" + sc.simulation.name + "-";
    for (const auto& name : sc.capture.links) {
        const int l = fab.topo().find_link(name);
        if (l < 0) throw run_input_error("Capture.Links: unknown link '" + name + "'");
        m->capture->attach(fab.link_at(size_t(l)), prefix + name + ".pcap");
    }
    for (const auto& f : m->capture->files()) m->files.push_back(f);
    // Waveforms only when asked for: otherwise no probe exists and the components' stay null.
    if (sc.trace.enabled)
        m->trace = std::make_unique<waveforms>(sc, fab, opts.out_dir, m->replay.get());
    // A Flows-only run ends when its last message is done; with the application it runs to its
    // stop time.
    if (!sc.flows.messages.empty() && !m->app) m->traffic->on_all_done([] { stop_simulation(); });
    if (opts.progress)
        m->progress = std::make_unique<progress_meter>(sc.simulation.stop_time_s, *m->traffic);
}

run_summary simulation::run()
{
    if (!m->fab) throw std::logic_error("simulation::run() before elaborate()");
    if (m->ran) throw std::logic_error("simulation::run() called twice");
    m->ran = true;
    const scenario& sc = m->sc;
    fabric& fab = *m->fab;
    // What nobody attached to keeps the built-in host side (testbench/elab/nic_host.h).
    fab.bind_host_sides();
    m->elaboration = std::make_unique<elaboration_timer>("elaboration_timer", m->wall_start);
    // Until the run ends, its manifest says "running": records left by a killed run are marked.
    {
        run_summary running;
        running.running = true;
        write_manifest(m->manifest_path,
                       {sc, m->opts.resolved_scenario, running, fab, m->app.get(), m->files});
    }

    // Slices of simulated time, stopping early on SIGINT/SIGTERM (testbench/run/run_control.h).
    std::function<bool()> poll;
    progress_meter* progress = m->progress.get();
    stall_watch stall(uint64_t(std::llround(sc.simulation.stall_timeout_s * 1e12)));
    bool stalled = false;
    flows& traffic = *m->traffic;
    const rdma_application* app = m->app.get();
    const chakra::chakra_replay* replay = m->replay.get();
    if (progress || stall.enabled())
        poll = [&] {
            if (progress) progress->poll();
            if (!stall.enabled()) return false;
            const work_state w = observe_work(fab, traffic, app, replay);
            stalled = stall.observe(sim_now_ps(), w.progress, w.outstanding);
            return stalled;
        };
    const int stop_signal = run_until(sc.simulation.stop_time_s, poll);
    if (progress) progress->done();
    if (m->app) m->app->finish();  // its last beacon row, before the records close
    m->records->finish();
    if (m->profiler) m->profiler->finish();
    if (m->trace) {
        m->trace->finish();
        for (const auto& f : m->trace->files()) m->files.push_back(f);
    }

    run_summary s = summarise(fab, *m->traffic, m->app.get(), m->replay.get());
    if (m->opts.extra_scoreboard) {
        const std::string r = m->opts.extra_scoreboard();
        if (!r.empty()) {
            s.scoreboard_message += (s.scoreboard_message.empty() ? "" : "\n") + r;
            s.scoreboard_ok = false;
        }
    }
    s.stop_signal = stop_signal;
    s.mismatch = m->mismatch->first;
    s.warnings = m->warnings;
    s.wall_time_s = std::chrono::duration<double>(wall_clock::now() - m->wall_start).count();
    s.elaboration_wall_time_s = m->elaboration->seconds();
    s.peak_rss_bytes = peak_rss_bytes();
    s.output_error = m->write_failure->first;
    if (stalled) {
        s.stalled = stall_report(fab, traffic, app, replay);
        s.stalled_since_s = double(stall.since_ps()) / 1e12;
    }
    const bool manifest_written = write_manifest(
        m->manifest_path, {sc, m->opts.resolved_scenario, s, fab, m->app.get(), m->files});
    fab.close_rtl_blocks();
    if (!s.output_error.empty())
        throw run_input_error(
            fmt::format("record {}; the run stopped at simulated time {} s and its manifest says "
                        "\"output_error\"",
                        s.output_error, s.sim_time_s));
    if (!manifest_written)
        throw run_input_error("the manifest '" + m->manifest_path +
                              "' could not be written; the records beside it are partial");
    return s;
}

run_summary run_simulation(const scenario& sc, const run_options& opts)
{
    simulation sim(sc, opts);
    sim.elaborate();
    return sim.run();
}

}  // namespace uetsim
