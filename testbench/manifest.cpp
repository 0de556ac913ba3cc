// The manifest: its member table (name, doc line, value) and its registry declaration.
#include "testbench/manifest.h"

#include <filesystem>
#include <fstream>
#include <optional>

#include "testbench/app/rdma_application.h"
#include "testbench/fabric.h"

namespace uetsim {

namespace {

using json = nlohmann::ordered_json;

// A member of the manifest: its name, its doc line and its value (none: the member is left out).
struct manifest_member
{
    const char* name;
    const char* doc;
    std::optional<json> (*value)(const manifest_inputs& in);
};

const std::vector<manifest_member>& members()
{
    static const std::vector<manifest_member> m = {
        {"name", "`Simulation.Name`",
         [](const manifest_inputs& in) -> std::optional<json> { return in.sc.simulation.name; }},
        {"program", "`\"uetsim\"`",
         [](const manifest_inputs&) -> std::optional<json> { return "uetsim"; }},
        {"version", "program version (when the build provides it)",
         [](const manifest_inputs&) -> std::optional<json> { return UETSIM_VERSION; }},
        {"random_seed", "`Simulation.RandomSeed`",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.sc.simulation.random_seed;
         }},
        {"scenario",
         "the scenario as resolved: every section and key with the value used, defaults included",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.resolved_scenario.is_null() ? json::object() : in.resolved_scenario;
         }},
        {"status",
         "`\"complete\"`, or `\"interrupted\"` when SIGINT or SIGTERM stopped the run early (the "
         "records then end at `sim_time_s`; [command.md](command.md#stopping-a-run))",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.summary.stop_signal ? "interrupted" : "complete";
         }},
        {"sim_time_s",
         "simulated time at the end of the run, s: the completion of the last message, or "
         "`StopTime`, or the time reached when interrupted",
         [](const manifest_inputs& in) -> std::optional<json> { return in.summary.sim_time_s; }},
        {"events_executed",
         "process activations executed (each run of an `SC_METHOD` of the model)",
         [](const manifest_inputs& in) -> std::optional<json> { return in.summary.events; }},
        {"data_packets_sent", "data packets the hosts started sending",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.summary.data_packets_sent;
         }},
        {"packets_dropped",
         "every packet lost: switch ingress and egress drops, no-route drops and frames lost on "
         "links that were down",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.summary.packets_dropped;
         }},
        {"packets_trimmed", "packets trimmed by switches",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.summary.packets_trimmed;
         }},
        {"rtl_flow_hash_checks",
         "only with the flow-hash RTL lockstep: hashes compared ([rtl.md](rtl.md))",
         [](const manifest_inputs& in) -> std::optional<json> {
             if (!in.sc.sw.rtl_flow_hash_lockstep) return std::nullopt;
             return in.fab.rtl_hash_checks();
         }},
        {"messages", "`{total, completed}`: `Flows` messages",
         [](const manifest_inputs& in) -> std::optional<json> {
             return json{{"total", in.summary.flows_total},
                         {"completed", in.summary.flows_completed}};
         }},
        {"rdma_application",
         "only with the RDMA application: `{connections, connections_set_up, wqes_posted, "
         "wqes_completed}`",
         [](const manifest_inputs& in) -> std::optional<json> {
             if (!in.app) return std::nullopt;
             return json{{"connections", in.app->connections()},
                         {"connections_set_up", in.app->connections_set_up()},
                         {"wqes_posted", in.app->wqes_posted()},
                         {"wqes_completed", in.app->wqes_completed()}};
         }},
        {"scoreboard",
         "`{ok, report}`: `ok` is true when every message completed with every byte exactly "
         "once; `report` lists what went wrong, one line per problem",
         [](const manifest_inputs& in) -> std::optional<json> {
             return json{{"ok", in.summary.scoreboard_ok},
                         {"report", in.summary.scoreboard_message}};
         }},
        {"warnings",
         "only when the run warned: the warnings printed on stderr, one string each (e.g. an "
         "`InitialBaseRTT` below the fabric's round trip, "
         "[nscc.md](nscc.md#the-fabrics-round-trip))",
         [](const manifest_inputs& in) -> std::optional<json> {
             if (in.summary.warnings.empty()) return std::nullopt;
             return in.summary.warnings;
         }},
        {"records",
         "the files written, file names only: the records in the order of the table above, then "
         "the packet captures",
         [](const manifest_inputs& in) -> std::optional<json> {
             json rec = json::array();
             for (const auto& f : in.files)
                 rec.push_back(std::filesystem::path(f).filename().string());
             return rec;
         }},
        // Wall-clock figures last: the only members that differ between identical runs.
        {"wall_time_s", "wall-clock duration of the run, s",
         [](const manifest_inputs& in) -> std::optional<json> { return in.summary.wall_time_s; }},
        {"peak_rss_bytes", "peak resident memory of the process, bytes",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.summary.peak_rss_bytes;
         }},
    };
    return m;
}

}  // namespace

const record_def& manifest_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "manifest";
        r.csv = false;
        r.when = "always, last";
        r.intro = "One JSON object, members in this order:";
        for (const auto& m : members()) r.columns.push_back({m.name, m.doc});
        r.notes =
            "`wall_time_s` and `peak_rss_bytes` are the only members that differ between two "
            "runs of the same\nscenario and seed; they come last so that they are easy to leave "
            "out of a comparison.";
        r.applies = [](const record_context&) { return true; };
        return r;
    }();
    return d;
}

nlohmann::ordered_json manifest_json(const manifest_inputs& in)
{
    json m;
    for (const auto& member : members())
        if (auto v = member.value(in)) m[member.name] = std::move(*v);
    return m;
}

void write_manifest(const std::string& path, const manifest_inputs& in)
{
    std::ofstream(path) << manifest_json(in).dump(2) << "\n";
}

}  // namespace uetsim
