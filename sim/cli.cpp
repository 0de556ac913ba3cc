#include "sim/cli.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <systemc>
#include <uetsim/uetsim.h>

#include "hw/kernel/sim_clock.h"
#include "sim/config/loader.h"
#include "sim/config/output.h"
#include "sim/run_arguments.h"
#include "testbench/records/record_registry.h"
#include "testbench/trace/signal_catalog.h"
#include "testbench/run/run_input_error.h"
#include "testbench/elab/topology.h"
#include "testbench/traffic/chakra/chakra_workload.h"
#include "testbench/traffic/chakra/collectives_list.h"
#include "testbench/traffic/chakra/et_writer.h"
#include "rtl/library/rtl_contract.h"
#include "sim/plot_command.h"
#include "sim/rtl_build.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/campaign/campaign_runner.h"
#include "testbench/run/run_control.h"

namespace uetsim {

namespace {

using config::config_error;

// The options shared by run, inspect and validate.
struct scenario_args
{
    std::string file;
    std::vector<std::string> sets;
};

void add_scenario_args(CLI::App* cmd, scenario_args& a, bool file_required)
{
    add_scenario_options(cmd, a.file, a.sets, file_required);
}

// nlohmann JSON as a YAML node: lists of scalars print on one line.
YAML::Node json_to_yaml(const nlohmann::ordered_json& j)
{
    if (j.is_object()) {
        YAML::Node m(YAML::NodeType::Map);
        for (auto it = j.begin(); it != j.end(); ++it) m[it.key()] = json_to_yaml(it.value());
        return m;
    }
    if (j.is_array()) {
        YAML::Node seq(YAML::NodeType::Sequence);
        bool scalars = true;
        for (const auto& e : j) {
            seq.push_back(json_to_yaml(e));
            scalars = scalars && !e.is_structured();
        }
        if (scalars) seq.SetStyle(YAML::EmitterStyle::Flow);
        return seq;
    }
    if (j.is_string()) return YAML::Node(j.get<std::string>());
    if (j.is_null()) return YAML::Node(YAML::NodeType::Null);
    return YAML::Node(j.dump());
}

std::string comment_block(const std::string& text)
{
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) out += (line.empty() ? "#" : "# " + line) + "\n";
    return out;
}

// A thin user of the library's session (sim/session.cpp): the same phases, messages and exit
// codes for the command and for a program that embeds uetsim.
int cmd_run(const detail::run_arguments& a)
{
    session s(a);
    try {
        s.elaborate();
    } catch (const input_error& e) {
        std::cerr << "uetsim: error: " << e.what() << "\n";
        return exit_bad_input;
    } catch (const std::exception& e) {
        std::cerr << "uetsim: internal error at simulated time " << sim_now() << ": " << e.what()
                  << "\n";
        return exit_internal_error;
    }
    s.run();
    return s.exit_code();
}

int cmd_inspect(const scenario_args& a, bool json)
{
    scenario sc = config::resolve_scenario(a.file, a.sets);
    nlohmann::ordered_json derived;
    try {
        derived = derived_json(sc);
    } catch (const run_input_error& e) {
        std::cerr << "uetsim: error: " << e.what() << "\n";
        return exit_bad_input;
    } catch (const std::exception& e) {
        std::cerr << "uetsim: internal error: derived values: " << e.what() << "\n";
        return exit_internal_error;
    }
    if (json) {
        nlohmann::ordered_json out = nlohmann::ordered_json::object();
        out["scenario"] = config::scenario_json(sc);
        if (!sc.overrides.empty()) out["instances"] = config::instances_json(sc);
        if (derived.is_object()) {
            for (auto it = derived.begin(); it != derived.end(); ++it)
                if (it.key() != "scenario") out[it.key()] = it.value();
        }
        std::cout << out.dump(2) << "\n";
        return exit_ok;
    }
    // The derived values follow as comments so that the output still loads as a scenario.
    YAML::Emitter e;
    e << json_to_yaml(derived);
    std::cout << config::scenario_yaml(sc) << "\n";
    if (const std::string per_device = config::instances_text(sc); !per_device.empty())
        std::cout << "# Per-device values (where they differ from the section's):\n"
                  << per_device << "\n";
    std::cout << "# Derived values (not scenario keys):\n" << comment_block(e.c_str());
    return exit_ok;
}

int cmd_validate(const scenario_args& a)
{
    const scenario sc = config::resolve_scenario(a.file, a.sets);
    // The Chakra traces (and mapping file) are read and prepared: a bad one is bad input too.
    if (sc.chakra.enabled()) {
        try {
            chakra::load_workload(sc.chakra, host_count(sc.topology));
        } catch (const run_input_error& e) {
            std::cerr << "uetsim: error: " << e.what() << "\n";
            return exit_bad_input;
        }
    }
    std::cout << "ok: " << a.file << "\n";
    return exit_ok;
}

// chakra-gen: the scenario's Collectives list as a Chakra traceset, <prefix>.<rank>.et.
int cmd_chakra_gen(const scenario_args& a, const std::string& prefix)
{
    const scenario sc = config::resolve_scenario(a.file, a.sets);
    if (sc.chakra.collectives.empty())
        throw config_error(a.file +
                           ": Collectives is empty: chakra-gen writes the scenario's "
                           "Collectives list as a traceset");
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(prefix).parent_path();
    std::error_code ec;
    if (!folder.empty()) fs::create_directories(folder, ec);
    if (ec)
        throw config_error("--out " + prefix + ": the folder cannot be created: " + ec.message());
    const uint32_t hosts = host_count(sc.topology);
    chakra::traceset ts = chakra::collectives_traceset(sc.chakra, hosts, prefix);
    chakra::write_traceset(prefix, ts);
    std::cout << "wrote " << ts.ranks.size() << " rank traces: " << prefix << ".0.et .. " << prefix
              << "." << ts.ranks.size() - 1 << ".et\n";
    return exit_ok;
}

}  // namespace

std::string human_time(double s)
{
    if (s == 0) return "0 s";
    if (s >= 1) return fmt::format("{:.3f} s", s);
    if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
    if (s >= 1e-6) return fmt::format("{:.3f} us", s * 1e6);
    return fmt::format("{:.3f} ns", s * 1e9);
}

void prepare_output_dir(const std::string& dir, const std::string& name)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir, ec)) {
        throw config_error("output folder '" + dir + "' cannot be created: " +
                           (ec ? ec.message() : "a file of that name exists"));
    }
    fs::path probe = fs::path(dir) / (".uetsim-write-test-" + std::to_string(getpid()));
    std::ofstream f(probe);
    f << "uetsim\n";
    f.close();  // write errors (a full disk) show at close
    if (f.fail()) {
        std::string why = std::strerror(errno);
        fs::remove(probe, ec);
        throw config_error("output folder '" + dir + "' is not writable: " + why);
    }
    fs::remove(probe, ec);
    // A manifest from an earlier run would make this run's records look complete should it
    // fail; run_simulation writes the new one last.
    fs::path manifest = fs::path(dir) / (name + "-manifest.json");
    if (fs::remove(manifest, ec); ec) {
        throw config_error("output folder '" + dir + "': cannot remove the earlier " +
                           manifest.filename().string() + ": " + ec.message());
    }
}

std::string format_summary(const run_summary& s, const std::string& out_dir)
{
    std::string rate = s.wall_time_s > 0
                           ? fmt::format("{:.0f}", double(s.data_packets_sent) / s.wall_time_s)
                           : "-";
    // The scoreboard's message may span lines (one per message): indent them under the table.
    std::string board = s.scoreboard_ok ? "ok" : "FAILED";
    if (!s.scoreboard_message.empty()) {
        std::istringstream lines(s.scoreboard_message);
        for (std::string line; std::getline(lines, line);) board += "\n    " + line;
    }
    std::string out;
    auto row = [&](const char* name, const std::string& value) {
        out += fmt::format("  {:<22}{}\n", name, value);
    };
    out += "uetsim run summary\n";
    row("simulated time", human_time(s.sim_time_s));
    row("wall time", human_time(s.wall_time_s));
    row("events", std::to_string(s.events));
    row("data packets sent", std::to_string(s.data_packets_sent));
    row("packets/wall-second", rate);
    row("packets dropped", std::to_string(s.packets_dropped));
    row("packets trimmed", std::to_string(s.packets_trimmed));
    if (s.flows_total)
        row("flows completed", fmt::format("{}/{}", s.flows_completed, s.flows_total));
    if (s.chakra_ranks)
        row("Chakra ranks ended", fmt::format("{}/{} ({} transfers)", s.chakra_ranks_ended,
                                              s.chakra_ranks, s.chakra_transfers));
    if (s.rdma_connections)
        row("RDMA WQEs", fmt::format("{} completed of {} posted on {} connections",
                                     s.wqes_completed, s.wqes_posted, s.rdma_connections));
    row("scoreboard", board);
    if (s.unreliable_messages_lost) {
        std::string lost = fmt::format("{} UUD messages, {} packets", s.unreliable_messages_lost,
                                       s.unreliable_packets_lost);
        std::istringstream lines(s.unreliable_losses);
        for (std::string line; std::getline(lines, line);) lost += "\n    " + line;
        row("unreliable losses", lost);
    }
    row("records", out_dir);
    return out;
}

int run_cli(int argc, char** argv)
{
    CLI::App app{
        "uetsim: a SystemC/TLM-2.0 simulator of datacenter NICs (UET, RoCE v2) and a "
        "switch fabric.",
        "uetsim"};
    app.set_version_flag("--version", std::string("uetsim ") + UETSIM_VERSION);
    app.require_subcommand(1);
    app.footer(
        "Exit codes: 0 success, 1 internal error, 2 bad input (the message names the key, the "
        "value and what is allowed).\nSee docs/command.md and docs/scenario-keys.md.");

    scenario_args args;
    detail::run_arguments run_args;
    bool json = false, markdown = false;

    auto* run = app.add_subcommand("run", "Run a scenario and write its records");
    add_run_options(run, run_args);

    auto* inspect = app.add_subcommand(
        "inspect", "Print the resolved scenario and the values derived from it (no simulation)");
    add_scenario_args(inspect, args, false);
    inspect->add_flag("--json", json, "One JSON object: scenario plus the derived values");

    auto* validate = app.add_subcommand("validate", "Check a scenario and exit");
    add_scenario_args(validate, args, true);

    std::string gen_prefix;
    auto* chakra_gen = app.add_subcommand(
        "chakra-gen",
        "Write a scenario's Collectives list as a Chakra traceset (<prefix>.<rank>.et)");
    add_scenario_args(chakra_gen, args, true);
    chakra_gen->add_option("--out", gen_prefix, "The traceset's prefix, e.g. traces/allreduce")
        ->required()
        ->type_name("DIR/prefix");

    auto* keys = app.add_subcommand("keys", "List every scenario key with its default and range");
    keys->add_flag("--markdown", markdown, "Print docs/scenario-keys.md");

    auto* records = app.add_subcommand("records", "List every record a run can write");
    records->add_flag("--markdown", markdown, "Print docs/records.md");

    auto* signals = app.add_subcommand("signals", "List every waveform signal a trace can hold");
    signals->add_flag("--markdown", markdown, "Print docs/waveforms.md's signal tables");

    std::string sweep_file, sweep_out = "sweep-out";
    unsigned jobs = 0;
    auto* sweep = app.add_subcommand(
        "sweep",
        "Run the cross product of a base scenario and axes (locally, or under mpirun/srun); "
        "DIR/summary.csv has one row per run");
    sweep->add_option("sweep", sweep_file, "Sweep file (YAML): Base, Set, Axes, Exclude")
        ->required()
        ->type_name("SWEEP.yaml");
    sweep->add_option("--out", sweep_out, "Output folder: one folder per run plus summary.csv")
        ->capture_default_str()
        ->type_name("DIR");
    sweep->add_option("--jobs,-j", jobs, "Local runs at a time (default: the machine's cores)")
        ->type_name("N")
        ->check(CLI::PositiveNumber);

    std::string campaign_file;
    campaign::campaign_options campaign_opts;
    uint32_t campaign_cases = 0, campaign_case = 0;
    uint64_t campaign_seed = 0;
    auto* campaign = app.add_subcommand(
        "campaign",
        "Run random scenarios with random faults and check each one ends with a clean scoreboard, "
        "no stall, no hang and no crash; DIR/campaign.csv has one row per case");
    campaign->add_option("campaign", campaign_file, "Campaign file (YAML): docs/campaign.md")
        ->required()
        ->type_name("CAMPAIGN.yaml");
    campaign->add_option("--out", campaign_opts.out_dir, "Output folder")
        ->capture_default_str()
        ->type_name("DIR");
    auto* cases_opt = campaign->add_option("--cases", campaign_cases, "Cases (default: the file's)")
                          ->type_name("N")
                          ->check(CLI::Range(1u, 1000000u));
    auto* seed_opt =
        campaign->add_option("--seed", campaign_seed, "Seed (default: the file's)")->type_name("S");
    auto* case_opt =
        campaign->add_option("--case", campaign_case, "Run only this case (its number)")
            ->type_name("N");
    campaign
        ->add_option("--jobs,-j", campaign_opts.jobs,
                     "Cases at a time (default: the machine's cores)")
        ->type_name("N")
        ->check(CLI::PositiveNumber);
    campaign->add_flag("--keep-passing", campaign_opts.keep_passing,
                       "Keep the folders of passing cases too");

    std::string plot_dir, plot_out, plot_format = "png", metric, x_axis, lines_axis, y_axis,
                                    component;
    std::vector<std::string> figures;
    auto* plot = app.add_subcommand(
        "plot", "PNG (or SVG) figures from a run's records or a sweep's summary");
    plot->add_option("dir", plot_dir, "A run's output folder or a sweep's output folder")
        ->required()
        ->type_name("RUN_OR_SWEEP_DIR");
    plot->add_option("--out", plot_out, "Folder for the figures (default: DIR/plots)")
        ->type_name("PLOTDIR");
    plot->add_option("--format", plot_format, "Image format")
        ->check(CLI::IsMember({"png", "svg"}))
        ->capture_default_str();
    plot->add_option("--figure", figures,
                     "Only this figure (repeatable): fct-cdf, wqe-latency-cdf, uplink-load, "
                     "nic-window, port-rate, collective-busbw, collective-timeline, metric, "
                     "heatmap")
        ->type_name("NAME")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    plot->add_option("--metric", metric, "Sweep figures: the summary column to plot")
        ->type_name("COLUMN");
    plot->add_option("--x", x_axis, "Sweep figures: the axis along x")->type_name("AXIS");
    plot->add_option("--lines", lines_axis, "metric figure: one line per value of this axis")
        ->type_name("AXIS");
    plot->add_option("--y", y_axis, "heatmap figure: the axis along y")->type_name("AXIS");
    plot->add_option("--component", component,
                     "Run figures: the NIC (nic-window) or switch (port-rate) to show")
        ->type_name("NAME");

    rtl_build_options rb;
    auto* rtl_build = app.add_subcommand(
        "rtl-build",
        "Verilate a SystemVerilog block against a built-in block's pin contract into a library "
        "that Rtl.<Block>Library loads (docs/rtl.md, \"Your own block\")");
    rtl_build
        ->add_option("sources", rb.sources,
                     "The block's sources; +define+ and +incdir+ items go to Verilator")
        ->required()
        ->type_name("BLOCK.sv...");
    rtl_build->add_option("--top", rb.top, "The top module")->required()->type_name("NAME");
    rtl_build->add_option("--as", rb.as, "The block it replaces: " + rtl_contract_keys())
        ->required()
        ->type_name("BLOCK");
    rtl_build->add_option("--out", rb.out, "The library to write")->required()->type_name("LIB.so");
    for (const char* o : {"-D", "-G", "-I", "-W"}) {
        const std::string flag = o;
        rtl_build
            ->add_option_function<std::vector<std::string>>(
                flag,
                [&rb, flag](const std::vector<std::string>& v) {
                    for (const auto& x : v) rb.verilator_options.push_back(flag + x);
                },
                flag == "-D"   ? "A define for Verilator (-DNAME or -DNAME=VALUE; repeatable)"
                : flag == "-G" ? "A top-level parameter for Verilator (-GNAME=VALUE; repeatable)"
                : flag == "-I"
                    ? "An include folder for Verilator (-IDIR; repeatable)"
                    : "A warning option for Verilator (-Wno-fatal, -Wno-WIDTH; repeatable)")
            ->type_name(flag == "-D"   ? "NAME[=V]"
                        : flag == "-G" ? "NAME=V"
                        : flag == "-I" ? "DIR"
                                       : "OPT")
            ->expected(1)
            ->allow_extra_args(false)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    }
    rtl_build
        ->add_option("--jobs,-j", rb.jobs, "Compilations at a time (default: the machine's cores)")
        ->type_name("N")
        ->check(CLI::PositiveNumber);
    rtl_build->add_option("--work", rb.work, "Keep the generated and compiled files in this folder")
        ->type_name("DIR");
    rtl_build->add_flag("--verbose,-v", rb.verbose, "Print every command");

    auto* rtl_contracts_cmd = app.add_subcommand(
        "rtl-contracts", "List the pin contract of each block a library can replace");
    rtl_contracts_cmd->add_flag("--markdown", markdown, "Print docs/rtl.md's contract tables");

    // CLI11 would only say "A subcommand is required" for a mistyped command.
    std::vector<std::string> names;
    for (const auto* sub : {run, inspect, validate, chakra_gen, keys, records, signals, sweep,
                            campaign, plot, rtl_build, rtl_contracts_cmd})
        names.push_back(sub->get_name());
    if (argc > 1 && argv[1][0] != '-' &&
        std::find(names.begin(), names.end(), argv[1]) == names.end()) {
        std::string hint;
        if (auto c = config::detail::closest(argv[1], names))
            hint = "; did you mean '" + *c + "'?";
        else
            hint = "; the commands are " + config::detail::join(names, ", ");
        std::cerr << "uetsim: error: unknown command '" << argv[1] << "'" << hint << "\n";
        return exit_bad_input;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
        std::cerr << "uetsim: error: " << e.what() << " (see uetsim --help)\n";
        return exit_bad_input;
    }

    try {
        if (*run) return cmd_run(run_args);
        if (*inspect) return cmd_inspect(args, json);
        if (*validate) return cmd_validate(args);
        if (*chakra_gen) return cmd_chakra_gen(args, gen_prefix);
        if (*sweep) return sweep::run_sweep(sweep_file, {sweep_out, jobs});
        if (*campaign) {
            if (*cases_opt) campaign_opts.cases = campaign_cases;
            if (*seed_opt) campaign_opts.seed = campaign_seed;
            if (*case_opt) campaign_opts.only = campaign_case;
            return campaign::run_campaign(campaign_file, campaign_opts);
        }
        if (*plot) {
            std::vector<std::string> pa = {plot_dir, "--format", plot_format};
            auto opt = [&](const char* name, const std::string& v) {
                if (!v.empty()) pa.insert(pa.end(), {name, v});
            };
            opt("--out", plot_out);
            opt("--metric", metric);
            opt("--x", x_axis);
            opt("--lines", lines_axis);
            opt("--y", y_axis);
            opt("--component", component);
            for (const auto& f : figures) opt("--figure", f);
            return run_plot(pa);
        }
        if (*keys) {
            std::cout << (markdown ? config::keys_markdown() : config::keys_text());
            return exit_ok;
        }
        if (*records) {
            std::cout << (markdown ? records_markdown() : records_text());
            return exit_ok;
        }
        if (*rtl_build) return run_rtl_build(rb);
        if (*rtl_contracts_cmd) {
            std::cout << (markdown ? rtl_contracts_markdown() : rtl_contracts_text());
            return exit_ok;
        }
        if (*signals) {
            std::cout << (markdown ? signals_markdown() : signals_text());
            return exit_ok;
        }
    } catch (const config_error& e) {
        std::cerr << "uetsim: error: " << e.what() << "\n";
        return exit_bad_input;
    } catch (const std::exception& e) {
        std::cerr << "uetsim: internal error: " << e.what() << "\n";
        return exit_internal_error;
    }
    return exit_bad_input;
}

}  // namespace uetsim
