// The run's manifest, `{Name}-manifest.json`: one JSON object whose members come from one table
// (name, doc line, value), so that the file and its description in docs/records.md cannot
// drift. Written last, after every record is closed.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbench/records/record_registry.h"
#include "testbench/run/simulation.h"

namespace uetsim {

struct manifest_inputs
{
    const scenario& sc;
    const nlohmann::ordered_json& resolved_scenario;  // null: an empty object
    const run_summary& summary;
    const fabric& fab;
    const rdma_application* app;            // null without the RDMA application
    const std::vector<std::string>& files;  // every file written, paths
};

const record_def& manifest_record();

// The manifest's JSON text, as written (2-space indent, no final newline).
nlohmann::ordered_json manifest_json(const manifest_inputs& in);
// Writes the manifest whole (a temporary file renamed); false when the file system refused it.
bool write_manifest(const std::string& path, const manifest_inputs& in);

}  // namespace uetsim
