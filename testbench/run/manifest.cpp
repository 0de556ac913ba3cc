// The manifest: its member table (name, doc line, value) and its registry declaration.
#include "testbench/run/manifest.h"

#include <filesystem>
#include <fstream>
#include <optional>

#include "testbench/traffic/app/rdma_application.h"
#include "testbench/elab/fabric.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/rtl_blocks.h"
#include "hw/nic/uet/uet_nic.h"
#include "testbench/nics/uet_nic_entry.h"

namespace uetsim {

namespace {

using json = nlohmann::ordered_json;

// The mode of block `key` on every device it applies to, in topology order.
std::vector<std::pair<std::string, rtl_mode>> rtl_modes(const manifest_inputs& in,
                                                        const rtl_block_def& def)
{
    std::vector<std::pair<std::string, rtl_mode>> out;
    for (const device& d : in.fab.topo().devices)
        if (d.kind == def.applies_to)
            out.emplace_back(d.name, rtl_for(in.sc, d.name).mode(def.key));
    return out;
}

bool runs_mode(const manifest_inputs& in, std::string_view key, rtl_mode m)
{
    for (const auto& b : in.fab.rtl_block_list())
        if (b.def->key == key && b.mode == m) return true;
    return false;
}

std::optional<json> rtl_member(const manifest_inputs& in)
{
    if (in.fab.rtl_block_list().empty()) return std::nullopt;
    json blocks = json::object();
    uint64_t total = 0;
    for (const rtl_block_def& def : rtl_blocks()) {
        json modes = json::object();
        for (rtl_mode m : {rtl_mode::model, rtl_mode::rtl, rtl_mode::both}) {
            json names = json::array();
            for (const auto& [name, mode] : rtl_modes(in, def))
                if (mode == m) names.push_back(name);
            if (!names.empty()) modes[std::string(to_string(m))] = std::move(names);
        }
        json devices = json::object();
        uint64_t requests = 0, checked = 0;
        for (const auto& b : in.fab.rtl_block_list()) {
            if (b.def != &def) continue;
            requests += b.instance->requests();
            checked += b.instance->checked();
            devices[b.device] = json{{"mode", std::string(to_string(b.mode))},
                                     {"requests", b.instance->requests()},
                                     {"checked", b.instance->checked()}};
            if (!b.library.empty()) devices[b.device]["library"] = b.library;
        }
        total += checked;
        blocks[def.key] = json{
            {"modes", modes}, {"requests", requests}, {"checked", checked}, {"devices", devices}};
    }
    json out{{"checked", total}, {"blocks", blocks}};
    if (const auto& m = in.summary.mismatch)
        out["mismatch"] = json{{"time_ps", m->time_ps},
                               {"component", m->component},
                               {"request_index", m->request_index},
                               {"request", m->request},
                               {"model", m->model},
                               {"rtl", m->rtl}};
    return out;
}

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
         "records then end at `sim_time_s`; [command.md](command.md#stopping-a-run)), or "
         "`\"rtl_mismatch\"` when an RTL block in `both` mode differed from the model (`rtl` "
         "below; exit code 1), or `\"output_error\"` when a record could not be written (disk "
         "full, a file size limit: the run stopped there, exit code 2), or `\"stalled\"` when "
         "`Simulation.StallTimeout` found outstanding work that made no progress (`stall` below; "
         "exit code 1), or `\"running\"`: the manifest written when the run starts, replaced "
         "when it ends, so one that still says `running` marks the records beside it as partial "
         "(the process was killed)",
         [](const manifest_inputs& in) -> std::optional<json> {
             if (in.summary.running) return "running";
             if (!in.summary.output_error.empty()) return "output_error";
             if (in.summary.mismatch) return "rtl_mismatch";
             if (!in.summary.stalled.empty()) return "stalled";
             return in.summary.stop_signal ? "interrupted" : "complete";
         }},
        {"sim_time_s",
         "simulated time at the end of the run, s: the completion of the last message, or "
         "`StopTime`, or the time reached when interrupted",
         [](const manifest_inputs& in) -> std::optional<json> { return in.summary.sim_time_s; }},
        {"events_executed",
         "model wake-ups executed (each run of a wake-up handler of the model: a delay line, "
         "transmitter, NIC stage or timer, record clock; a switch port's frame end held back "
         "because nothing followed it is none; docs/performance.md)",
         [](const manifest_inputs& in) -> std::optional<json> { return in.summary.events; }},
        {"data_packets_sent", "data packets the hosts started sending",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.summary.data_packets_sent;
         }},
        {"packets_dropped",
         "every packet lost: switch ingress and egress drops, no-route drops, frames lost on "
         "links that were down and frames dropped at an FCS check (`fcs_errors`)",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.summary.packets_dropped;
         }},
        {"fcs_errors",
         "only when some link has a `Link.BitErrorRate` above 0: per such link, by name, "
         "`{a_to_b, b_to_a}` the frames that arrived with bit errors and were dropped at the "
         "receiving end's FCS check (A the end nearer the hosts; "
         "[topologies.md](topologies.md#per-link-settings))",
         [](const manifest_inputs& in) -> std::optional<json> {
             json out = json::object();
             for (size_t i = 0; i < in.fab.link_count(); ++i) {
                 const link& l = in.fab.link_at(i);
                 if (l.bit_error_rate() > 0)
                     out[l.basename()] = json{{"a_to_b", l.fcs_errors(link::a_to_b)},
                                              {"b_to_a", l.fcs_errors(link::b_to_a)}};
             }
             if (out.empty()) return std::nullopt;
             return out;
         }},
        {"packets_trimmed", "packets trimmed by switches",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.summary.packets_trimmed;
         }},
        {"unknown_job_drops",
         "only when a UET NIC dropped a request for a job its `UetNic.JobTable` does not hold: "
         "per such NIC, by name, the requests dropped "
         "([jobs-and-profiles.md](jobs-and-profiles.md))",
         [](const manifest_inputs& in) -> std::optional<json> {
             json out = json::object();
             for (size_t h = 0; h < in.fab.nic_count(); ++h)
                 if (const uet_nic* u = as_uet_nic(in.fab.nic_at(h)))
                     if (u->unknown_job_drops())
                         out[in.fab.topo().devices[h].name] = u->unknown_job_drops();
             if (out.empty()) return std::nullopt;
             return out;
         }},
        {"rtl_flow_hash_checks",
         "only with `Rtl.FlowHash: both` on some switch: flow hashes compared (the `checked` of "
         "`rtl.blocks.FlowHash`, kept for scripts of the `Switch.RtlFlowHashLockstep` release)",
         [](const manifest_inputs& in) -> std::optional<json> {
             if (!runs_mode(in, "FlowHash", rtl_mode::both)) return std::nullopt;
             return in.fab.rtl_checked("FlowHash");
         }},
        {"rtl",
         "only when some `Rtl.*` key is `rtl` or `both` ([rtl.md](rtl.md#the-manifest)): "
         "`{checked, blocks, mismatch}`: `checked` the requests compared with the model over "
         "all blocks; `blocks` per block key `{modes, requests, checked, devices}`, `modes` the "
         "devices of each mode used (`{\"both\": [\"leaf0\", ...], \"model\": [...]}`), "
         "`devices` per device running the RTL `{mode, requests, checked, library}` (`library`: "
         "the "
         "`Rtl.<key>Library` it loaded, only when one replaced the built-in block); `mismatch` "
         "(only "
         "when one stopped the run) `{time_ps, component, request_index, request, model, rtl}`",
         rtl_member},
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
        {"chakra",
         "only with the Chakra workload: `{ranks, ranks_ended, transfers}`, `transfers` the "
         "point-to-point transfers posted (synchronization barriers included)",
         [](const manifest_inputs& in) -> std::optional<json> {
             if (!in.summary.chakra_ranks) return std::nullopt;
             return json{{"ranks", in.summary.chakra_ranks},
                         {"ranks_ended", in.summary.chakra_ranks_ended},
                         {"transfers", in.summary.chakra_transfers}};
         }},
        {"scoreboard",
         "`{ok, report}`: `ok` is true when every message completed with every byte exactly "
         "once; `report` lists what went wrong, one line per problem",
         [](const manifest_inputs& in) -> std::optional<json> {
             return json{{"ok", in.summary.scoreboard_ok},
                         {"report", in.summary.scoreboard_message}};
         }},
        {"unreliable_losses",
         "only when a UUD message (Flows Mode UUD) lost packets: `{messages, packets, report}`, "
         "the messages and packets lost and one line per message; UUD does not send a lost "
         "packet again, so this is not a scoreboard fault (docs/delivery-modes.md)",
         [](const manifest_inputs& in) -> std::optional<json> {
             if (!in.summary.unreliable_messages_lost) return std::nullopt;
             return json{{"messages", in.summary.unreliable_messages_lost},
                         {"packets", in.summary.unreliable_packets_lost},
                         {"report", in.summary.unreliable_losses}};
         }},
        {"stall",
         "only when `Simulation.StallTimeout` stopped the run: `{since_s, report}`, the simulated "
         "time of the last progress and one line per stuck message and per connection with data "
         "outstanding (its sequence numbers, retransmissions, timer and window)",
         [](const manifest_inputs& in) -> std::optional<json> {
             if (in.summary.stalled.empty()) return std::nullopt;
             return json{{"since_s", in.summary.stalled_since_s}, {"report", in.summary.stalled}};
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
        {"elaboration_wall_time_s",
         "the part of `wall_time_s` spent building the model (topology, devices, traffic, "
         "records) up to the start of simulation, s",
         [](const manifest_inputs& in) -> std::optional<json> {
             return in.summary.elaboration_wall_time_s;
         }},
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
            "`wall_time_s`, `elaboration_wall_time_s` and `peak_rss_bytes` are the only members "
            "that differ\nbetween two runs of the same scenario and seed; they come last so that "
            "they are easy to leave\nout of a comparison.";
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

bool write_manifest(const std::string& path, const manifest_inputs& in)
{
    // Whole or not at all: a reader never sees half a manifest, even if the process dies here.
    const std::string tmp = path + ".tmp";
    bool ok = false;
    {
        std::ofstream f(tmp);
        f << manifest_json(in).dump(2) << "\n";
        ok = bool(f.flush());
    }
    std::error_code ec;
    if (ok) std::filesystem::rename(tmp, path, ec);
    if (!ok || ec) std::filesystem::remove(tmp, ec);
    return ok && !ec;
}

}  // namespace uetsim
