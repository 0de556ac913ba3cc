// Simulation.* keys: run control (name, seed, stop time), the RDMA application's run
// timeline and record intervals.
#include "sim/config/keys_common.h"

#include <algorithm>
#include <regex>

namespace uetsim::config {

namespace {

const text_rule record_prefix{
    "letters, digits, '_', '.' and '-'", [](const std::string& s) -> std::optional<std::string> {
        // Scanned, not std::regex: its matcher recurses per character (a long name overflowed).
        const auto allowed = [](char c) {
            return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                   c == '_' || c == '.' || c == '-';
        };
        if (!s.empty() && std::all_of(s.begin(), s.end(), allowed)) return std::nullopt;
        return "may only contain letters, digits, '_', '.' and '-' (it prefixes record file names)";
    }};

// YYYY-MM-DDThh:mm:ssZ with a real calendar date.
const text_rule iso8601_utc{
    "an ISO 8601 UTC time YYYY-MM-DDThh:mm:ssZ",
    [](const std::string& s) -> std::optional<std::string> {
        static const std::regex re(R"((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z)");
        std::smatch m;
        auto bad =
            std::optional<std::string>("is not an ISO 8601 UTC time such as 2026-01-01T00:00:00Z");
        if (s.size() != 20 || !std::regex_match(s, m, re)) return bad;  // short: no deep match
        int y = std::stoi(m[1]), mo = std::stoi(m[2]), d = std::stoi(m[3]);
        int h = std::stoi(m[4]), mi = std::stoi(m[5]), sec = std::stoi(m[6]);
        static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        if (mo < 1 || mo > 12) return bad;
        int month_days = days[mo - 1] + (mo == 2 && leap ? 1 : 0);
        if (d < 1 || d > month_days || h > 23 || mi > 59 || sec > 59) return bad;
        return std::nullopt;
    }};

}  // namespace

void add_simulation_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.text("Simulation.Name", UETSIM_FIELD(simulation.name), record_prefix,
           "Prefix of every record file name: {Name}-{record}-0.csv.");
    k.integer("Simulation.RandomSeed", UETSIM_FIELD(simulation.random_seed), {0, u64_max},
              "Seed of every random stream of the run.");
    k.time("Simulation.StopTime", UETSIM_FIELD(simulation.stop_time_s), {0, 100, true},
           "Hard stop in simulated time. A Flows-only run also stops when every message is done; "
           "with the RDMA application on, the run ends at the timeline's stop time (StartTime + "
           "ClientStartOffset + ClientStartInterval + WarmUp + RunTime + CoolDown), or at StopTime "
           "if StopTime is given and earlier.");
    k.time("Simulation.NDStatsReportInterval", UETSIM_FIELD(simulation.nd_stats_interval_s),
           {1e-6, 10}, "Spacing of nd-stats rows.");
    k.time("Simulation.NetworkBufferStatsReportingInterval",
           UETSIM_FIELD(simulation.network_buffer_stats_interval_s), {1e-6, 10},
           "Spacing of net-buff-stats rows (the NICs' buffer pools); the first comes as the "
           "nd-stats rows', one interval after the start (after StartTime + ClientStartOffset "
           "with the RDMA application). The record itself is turned on by listing it in "
           "Records.Enabled, the reference's global EnableNetworkBufferStatsReporting.");
    k.time("Simulation.StartTime", UETSIM_FIELD(simulation.timeline.start_time), {0, 100},
           "RDMA application: when the Responders start listening; with the application, the "
           "first periodic row (nd-stats, uet-transport-stats, pcie-stats) comes at StartTime + "
           "ClientStartOffset + NDStatsReportInterval.");
    k.time("Simulation.ClientStartOffset", UETSIM_FIELD(simulation.timeline.client_start_offset),
           {0, 100}, "RDMA application: the client start window opens this long after StartTime.");
    k.time("Simulation.ClientStartInterval",
           UETSIM_FIELD(simulation.timeline.client_start_interval), {0, 100},
           "RDMA application: length of the client start window, in which the connections are set "
           "up (StartType); WQE posting starts at its end.");
    k.time("Simulation.WarmUp", UETSIM_FIELD(simulation.timeline.warm_up), {0, 100},
           "RDMA application: the recording window opens this long after the client start window "
           "ends.");
    k.time("Simulation.RunTime", UETSIM_FIELD(simulation.timeline.run_time), {0, 100},
           "RDMA application: length of the recording window.");
    k.time("Simulation.CoolDown", UETSIM_FIELD(simulation.timeline.cool_down), {0, 100},
           "RDMA application: the run stops this long after the recording window ends.");
    k.time("Simulation.BeaconReportInterval", UETSIM_FIELD(simulation.beacon_interval_s),
           {1e-6, 10}, "Spacing of beacon rows.");
    k.choice("Simulation.TimeBase", UETSIM_FIELD(simulation.time_base),
             {{"decoupled", time_base::decoupled}, {"kernel", time_base::kernel}},
             "How the model's clock relates to the SystemC kernel's (docs/time-base.md). "
             "decoupled: the model runs ahead of sc_time_stamp() within the global quantum "
             "(Quantum), as a TLM-2.0 loosely timed initiator with a quantum keeper, and syncs "
             "before any call that leaves the model. kernel: every due time of the model is a "
             "kernel event, the model's clock equals sc_time_stamp() whenever a wake-up runs, and "
             "the model runs in an SC_THREAD. Records are the same in both for the built-in "
             "parts; kernel is slower.");
    k.time("Simulation.Quantum", UETSIM_FIELD(simulation.quantum_s), {1e-9, 1e-3},
           "The TLM-2.0 global quantum (tlm::tlm_global_quantum): how far the model may run "
           "ahead of the kernel in the decoupled time base, and the slice of simulated time "
           "between two looks at a stop request (Ctrl-C, SIGTERM) and the progress line. It "
           "changes no record: only how far past a signal an interrupted run goes.");
    k.time("Simulation.StallTimeout", UETSIM_FIELD(simulation.stall_timeout_s), {0, 100},
           "Stops a run whose outstanding work has made no progress for this long of simulated "
           "time: a message started and not done, a WQE posted and not completed, or a Chakra "
           "transfer posted and not done, while no payload reaches a receiving host and nothing "
           "completes. The run ends with status \"stalled\" (exit code 1) and a report naming "
           "each stuck message and the state of its sender's connection. Watched between the "
           "run's slices (Simulation.Quantum), so it adds no event and changes no record. 0: "
           "never.");
    k.text("Simulation.EpochUtc", UETSIM_FIELD(simulation.epoch_utc), iso8601_utc,
           "UTC time of simulated time 0 (time_utc columns), so that records stay deterministic.");
}

}  // namespace uetsim::config
