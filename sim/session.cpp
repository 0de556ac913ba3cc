// uetsim::session (include/uetsim/uetsim.h): `uetsim run` in phases, for the command (cli.cpp)
// and for programs that embed uetsim. Parse -> load and check the scenario, prepare the output
// folder, elaborate (simulation::elaborate) -> the application binds its parts -> bind the
// built-in parts where it did not, run, records and manifest (simulation::run).
#include <uetsim/uetsim.h>

#include <fnmatch.h>
#include <malloc.h>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <map>
#include <utility>

#include <CLI/CLI.hpp>

#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/outside_call.h"
#include "hw/kernel/sim_clock.h"
#include "sim/cli.h"
#include "sim/config/loader.h"
#include "sim/config/output.h"
#include "sim/config/schema.h"
#include "sim/run_arguments.h"
#include "testbench/elab/fabric.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/embed/embedded_hosts.h"
#include "testbench/run/run_control.h"
#include "testbench/run/run_input_error.h"
#include "testbench/run/simulation.h"

namespace uetsim {

// ---------------------------------------------------------------------------------------------
// host_attachment: the public face of an embedded_host.

host_attachment::host_attachment(tlm::tlm_target_socket<32>& mmio_socket,
                                 tlm::tlm_initiator_socket<32>& memory_socket, embedded_host& host)
    : mmio(mmio_socket), memory(memory_socket), m_host(host)
{
}

uint32_t host_attachment::index() const
{
    return m_host.index();
}

const std::string& host_attachment::name() const
{
    return m_host.host_name();
}

const sc_core::sc_event& host_attachment::completion_event() const
{
    return m_host.completion_event();
}

bool host_attachment::next_completion(completion& c)
{
    return m_host.next_completion(c);
}

void host_attachment::on_completion(std::function<void(const completion&)> f)
{
    m_host.on_completion(std::move(f));
}

const sc_core::sc_event& host_attachment::connection_event() const
{
    return m_host.connection_event();
}

bool host_attachment::next_connection_message(received_connection_message& m)
{
    return m_host.next_connection_message(m);
}

// ---------------------------------------------------------------------------------------------
// session

struct session::state
{
    detail::run_arguments args;
    std::string parse_error;  // from the constructor, thrown by elaborate()
    std::vector<std::pair<std::string, std::function<void(const std::string&, nic_config&)>>>
        nic_configurators;
    std::unique_ptr<scenario> sc;
    std::unique_ptr<simulation> sim;
    std::unique_ptr<embedded_hosts> hosts;
    std::map<uint32_t, std::unique_ptr<host_attachment>> attachments;
    run_summary summary;
    int exit_code = exit_ok;
    bool elaborated = false;
    bool ran = false;
};

session::session(int argc, char** argv) : m(std::make_unique<state>())
{
    CLI::App app{"uetsim session: the arguments of `uetsim run`",
                 argc > 0 && argv[0] ? argv[0] : "uetsim"};
    add_run_options(&app, m->args);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        m->parse_error = e.get_exit_code() == 0 ? app.help() : std::string(e.what());
    }
}

session::session(const detail::run_arguments& args) : m(std::make_unique<state>())
{
    m->args = args;
}

session::~session() = default;

void session::configure_nics(
    const std::string& host_glob,
    std::function<void(const std::string& host, nic_config& nic)> configure)
{
    if (m->elaborated) throw std::logic_error("session::configure_nics after elaborate()");
    m->nic_configurators.emplace_back(host_glob, std::move(configure));
}

void session::elaborate()
{
    if (m->elaborated) throw std::logic_error("session::elaborate() called twice");
    if (!m->parse_error.empty()) throw input_error(m->parse_error);
    const detail::run_arguments& a = m->args;
    try {
        m->sc = std::make_unique<scenario>(config::resolve_scenario(a.file, a.sets));
        prepare_output_dir(a.out_dir, m->sc->simulation.name);  // before anything is simulated
    } catch (const config::config_error& e) {
        throw input_error(e.what());
    }
    run_options opts;
    opts.out_dir = a.out_dir;
    opts.progress = !a.quiet && (a.progress || isatty(STDERR_FILENO));
    opts.resolved_scenario = config::scenario_json(*m->sc);
    if (!m->nic_configurators.empty())
        opts.configure_nic = [this](const std::string& host, nic_config& nic) {
            for (const auto& [glob, f] : m->nic_configurators)
                if (fnmatch(glob.c_str(), host.c_str(), 0) == 0) f(host, nic);
        };
    opts.extra_scoreboard = [this] { return m->hosts ? m->hosts->scoreboard_report() : ""; };
    install_stop_handlers();  // Ctrl-C or a batch system's SIGTERM ends the run cleanly
    m->sim = std::make_unique<simulation>(*m->sc, opts);
    m->elaborated = true;
    try {
        m->sim->elaborate();
    } catch (const run_input_error& e) {
        throw input_error(e.what());
    }
    m->hosts = std::make_unique<embedded_hosts>(m->sim->fab(), m->sim->application(),
                                                nic_data_mss(m->sc->nic), call_outside_model);
#ifdef __GLIBC__
    // The scenario file's parse tree is gone: give its pages back, so that the run's resident
    // memory is what the model holds (a long Flows list's YAML takes ~4 KiB per entry).
    malloc_trim(0);
#endif
}

uint32_t session::hosts() const
{
    if (!m->sim) return 0;
    return uint32_t(m->sim->fab().nic_count());
}

host_attachment& session::host(uint32_t i)
{
    if (!m->hosts) throw std::logic_error("session::host() before elaborate()");
    if (m->ran) throw std::logic_error("session::host() after run()");
    const fabric& fab = m->sim->fab();
    if (fab.nic_count() == 0)
        throw input_error("session::host(" + std::to_string(i) +
                          "): the hosts have no NIC (Nic.Type: raw); attachment points need one");
    if (i >= fab.nic_count())
        throw input_error("session::host(" + std::to_string(i) + "): the scenario has " +
                          std::to_string(fab.nic_count()) + " hosts, host0..host" +
                          std::to_string(fab.nic_count() - 1));
    auto& slot = m->attachments[i];
    if (!slot) {
        embedded_host& e = m->hosts->host(i);
        slot = std::make_unique<host_attachment>(e.mmio, e.memory, e);
    }
    return *slot;
}

void session::run()
{
    if (!m->elaborated || !m->sim) throw std::logic_error("session::run() before elaborate()");
    if (m->ran) throw std::logic_error("session::run() called twice");
    m->ran = true;
    try {
        // The application's parts joined from kernel processes of their own: the model keeps to
        // the kernel's time, so what they see and what they write is at the model's time.
        m->hosts->finish_binding();
        // A driver of the application's calls into the model from its own kernel processes: the
        // model keeps to the kernel's time (the kernel time base), so that what the driver
        // writes at sc_time_stamp() is at the model's time and each completion wakes it then.
        if (m->hosts->application_drives_mmio())
            model_scheduler::instance().set_time_base(model_scheduler::time_base::kernel);
        // A memory of the application's may call wait(): the model then runs in an SC_THREAD
        // and calls it through call_outside_model (hw/kernel/outside_call.h).
        if (m->hosts->application_memory()) model_scheduler::instance().allow_blocking();
        m->summary = m->sim->run();
    } catch (const run_input_error& e) {
        std::cerr << "uetsim: error: " << e.what() << "\n";
        m->exit_code = exit_bad_input;
        return;
    } catch (const std::exception& e) {
        std::cerr << "uetsim: internal error at simulated time " << sim_now() << ": " << e.what()
                  << "\n";
        m->exit_code = exit_internal_error;
        return;
    }
    const run_summary& summary = m->summary;
    std::cout << format_summary(summary, m->args.out_dir) << std::flush;
    if (summary.stop_signal) {
        std::cerr << "uetsim: interrupted by "
                  << (summary.stop_signal == SIGINT ? "SIGINT" : "SIGTERM") << " at simulated time "
                  << human_time(summary.sim_time_s)
                  << "; the records so far are flushed and the manifest says \"interrupted\"\n";
        m->exit_code = exit_status_for_signal(summary.stop_signal);
        return;
    }
    if (!summary.stalled.empty()) {
        std::cerr << "uetsim: error: the run stalled: work outstanding made no progress from "
                     "simulated time "
                  << human_time(summary.stalled_since_s) << " to " << human_time(summary.sim_time_s)
                  << " (Simulation.StallTimeout); the manifest says \"stalled\". Stuck:\n"
                  << summary.stalled;
        m->exit_code = exit_internal_error;
        return;
    }
    if (summary.mismatch) {
        std::cerr << "uetsim: error: the run stopped at the first RTL mismatch ("
                  << summary.mismatch->component << ", request " << summary.mismatch->request_index
                  << "); the records so far are flushed and the manifest says \"rtl_mismatch\"\n";
        m->exit_code = exit_internal_error;
        return;
    }
    m->exit_code = exit_ok;
}

int session::exit_code() const
{
    return m->exit_code;
}

bool session::scoreboard_ok() const
{
    return m->ran && m->exit_code != exit_internal_error && m->exit_code != exit_bad_input &&
           m->summary.scoreboard_ok;
}

std::string session::scoreboard_report() const
{
    return m->summary.scoreboard_message;
}

const std::string& session::out_dir() const
{
    return m->args.out_dir;
}

const std::string& session::name() const
{
    static const std::string none;
    return m->sc ? m->sc->simulation.name : none;
}

}  // namespace uetsim
