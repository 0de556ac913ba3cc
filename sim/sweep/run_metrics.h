// The headline figures of one sweep run, as summary.csv cells, read from the run's folder (its
// records and manifest) and from how its process ended. docs/sweeps.md lists each column and the
// record it comes from. A column the run cannot have (no Flows, no RDMA application, no NICs, a
// failed run) is an empty cell.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace uetsim::sweep {

// How a run's process ended (filled by the runner; `ran` false for a run skipped as complete).
struct run_outcome
{
    bool ran = false;
    int exit_status = 0;  // the exit code, or 128 + the signal that killed it
    std::string error;    // the first line of its stderr when it failed
    double wall_time_s = 0;
    uint64_t peak_rss_bytes = 0;
};

// The metric column names, in summary order (after run_id and the axis columns).
const std::vector<std::string>& metric_columns();

// The run's manifest ({Name}-manifest.json) in `run_dir`, parsed; `prefix` is its path up to
// "manifest.json" (the records' common prefix). False when there is none or it does not parse.
bool read_manifest(const std::string& run_dir, nlohmann::json& m, std::string& prefix);

// The manifest's "status" in `run_dir` ("complete", "interrupted"), empty without a manifest.
std::string manifest_status(const std::string& run_dir);

// One cell per metric_columns() entry.
std::vector<std::string> metric_cells(const std::string& run_dir, const run_outcome& outcome);

}  // namespace uetsim::sweep
