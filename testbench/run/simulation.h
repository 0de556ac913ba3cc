// Elaborates a scenario into a fabric and runs it (run.cpp; the manifest in manifest.cpp, the
// records in records/record_registry.h), in one call (run_simulation) or in two phases
// (simulation: elaborate, then run), which the command and the library (sim/session.h) use so
// that something can be attached between them. One elaboration per process (STYLE.md P3).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rtl/common/rtl_mismatch.h"
#include "testbench/scenario.h"

namespace uetsim {

struct run_options
{
    std::string out_dir = "out";
    bool progress = false;                     // progress line on stderr
    nlohmann::ordered_json resolved_scenario;  // manifest "scenario" member (null: {})
    // Called for each NIC host's configuration before its NIC is built (after the Rtl.* blocks
    // are injected): how an embedding application hands a NIC engine of its own to a host.
    std::function<void(const std::string& host, nic_config& nic)> configure_nic;
    // A scoreboard beside the run's own (an embedding application's WQEs): its report is added
    // to the summary's, and a non-empty one fails the scoreboard.
    std::function<std::string()> extra_scoreboard;
};

struct run_summary
{
    double sim_time_s = 0;
    double wall_time_s = 0;
    double elaboration_wall_time_s = 0;  // part of wall_time_s before the first simulated step
    uint64_t events = 0;  // model wake-ups run (one per wakeup handler run), hw/kernel/activity.h
    uint64_t data_packets_sent = 0;
    uint64_t packets_dropped = 0;
    uint64_t packets_trimmed = 0;
    uint32_t flows_total = 0;
    uint32_t flows_completed = 0;
    uint32_t rdma_connections = 0;  // the RDMA application's, 0 without it
    uint64_t wqes_posted = 0;
    uint64_t wqes_completed = 0;
    uint32_t chakra_ranks = 0;  // the Chakra workload's, 0 without it
    uint32_t chakra_ranks_ended = 0;
    uint64_t chakra_transfers = 0;  // transfers posted, barriers included
    uint64_t peak_rss_bytes = 0;
    bool scoreboard_ok = true;
    std::string scoreboard_message;
    // UUD messages that lost packets (Flows Mode UUD): not a scoreboard fault, reported apart.
    uint32_t unreliable_messages_lost = 0;
    uint64_t unreliable_packets_lost = 0;
    std::string unreliable_losses;
    // Configuration the run accepted but warns about, one line each (stderr and the manifest).
    std::vector<std::string> warnings;
    // The SIGINT/SIGTERM that interrupted the run (testbench/run/run_control.h).
    int stop_signal = 0;
    // The first RTL/model difference of a block in both mode (Rtl.*), which stopped the run: the
    // command then exits with code 1 and the manifest's status says "rtl_mismatch".
    std::optional<uetsim::rtl_mismatch> mismatch;
    // The manifest written when the run starts says "running" (a record set it still vouches
    // for after the process is gone is partial: the run was killed).
    bool running = false;
    // The first record file the file system refused to write (disk full, file size limit):
    // "path: reason". The run stops there; the manifest says "output_error" and the command
    // exits with code 2.
    std::string output_error;
    // Simulation.StallTimeout stopped the run: since when nothing moved, and what was stuck
    // (the stuck messages and their senders' connections). The manifest says "stalled" and the
    // command exits with code 1.
    std::string stalled;
    double stalled_since_s = 0;
};

class fabric;
class flows;
class rdma_application;

// One run in two phases. elaborate(): the fabric, the traffic, faults, the records opened;
// bad input found there throws run_input_error. run(): what no one attached to gets its
// built-in host side, then the kernel runs to the stop time, the records close and the manifest
// is written last. Throws std::runtime_error on internal errors.
class simulation
{
public:
    simulation(const scenario& sc, const run_options& opts);
    ~simulation();
    simulation(const simulation&) = delete;
    simulation& operator=(const simulation&) = delete;

    void elaborate();
    run_summary run();

    // After elaborate().
    fabric& fab();
    flows& traffic();
    rdma_application* application();  // null without the RDMA application

private:
    struct state;
    std::unique_ptr<state> m;
};

// Builds, runs and writes every enabled record into opts.out_dir.
// Throws std::runtime_error on internal errors (the command maps it to exit code 1).
run_summary run_simulation(const scenario& sc, const run_options& opts);

// Values derived from a scenario without simulating (for `uetsim inspect`, inspect.cpp), a JSON
// object with at least: topology {kind, hosts, switches, links, ...}.
nlohmann::ordered_json derived_json(const scenario& sc);

}  // namespace uetsim
