#include "sim/sweep/sweep_runner.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/config/schema.h"
#include "sim/sweep/child_run.h"
#include "sim/sweep/csv_table.h"
#include "sim/sweep/mpi_sweep.h"
#include "sim/sweep/run_metrics.h"
#include "sim/sweep/sweep_file.h"
#include "sim/sweep/sweep_progress.h"
#include "testbench/run/run_control.h"

namespace uetsim::sweep {

namespace {

namespace fs = std::filesystem;
using clock = std::chrono::steady_clock;
using rows_t = std::vector<std::optional<std::vector<std::string>>>;

double since(clock::time_point t)
{
    return std::chrono::duration<double>(clock::now() - t).count();
}

std::string describe(const std::string& id, const std::vector<std::string>& cells)
{
    const auto& cols = metric_columns();
    std::string status, error;
    for (size_t i = 0; i < cols.size(); ++i) {
        if (cols[i] == "status") status = cells[i];
        if (cols[i] == "error") error = cells[i];
    }
    return id + " " + status + (error.empty() ? "" : " (" + error + ")");
}

bool ok(const std::vector<std::string>& cells)
{
    const auto& cols = metric_columns();
    for (size_t i = 0; i < cols.size(); ++i)
        if (cols[i] == "exit_status") return cells[i] == "0";
    return false;
}

void write_sweep_json(const plan& p, const std::vector<run>& runs, const std::string& file,
                      const std::string& out_dir)
{
    nlohmann::ordered_json j;
    j["sweep_file"] = fs::absolute(file).string();
    j["base"] = p.base;
    j["set"] = p.sets;
    j["axes"] = nlohmann::ordered_json::array();
    for (const auto& a : p.axes) j["axes"].push_back({{"key", a.key}, {"values", a.values}});
    j["runs"] = nlohmann::ordered_json::array();
    for (const auto& r : runs) j["runs"].push_back(r.id);
    std::ofstream(fs::path(out_dir) / "sweep.json") << j.dump(2) << "\n";
}

// summary.csv, written whole to a temporary file and renamed so that it is never half there.
void write_summary(const plan& p, const std::vector<run>& runs, rows_t& rows,
                   const std::string& out_dir)
{
    const fs::path path = fs::path(out_dir) / "summary.csv";
    const fs::path tmp = fs::path(out_dir) / ".summary.csv.tmp";
    {
        std::ofstream f(tmp);
        f << "run_id";
        for (const auto& a : p.axes) f << "," << csv_cell(a.key);
        for (const auto& c : metric_columns()) f << "," << c;
        f << "\n";
        for (const auto& r : runs) {
            if (!rows[r.index])
                rows[r.index] = metric_cells((fs::path(out_dir) / r.id).string(), run_outcome{});
            f << csv_cell(r.id);
            for (size_t a = 0; a < p.axes.size(); ++a)
                f << "," << csv_cell(p.axes[a].values[r.value_index[a]]);
            for (const auto& c : *rows[r.index]) f << "," << csv_cell(c);
            f << "\n";
        }
    }
    fs::rename(tmp, path);
}

// The local pool: up to `jobs` children at a time, the next one started as one ends.
void run_local(const plan& p, const std::vector<run>& runs, const std::vector<size_t>& todo,
               const std::string& out_dir, unsigned jobs,
               const std::function<void(size_t, std::vector<std::string>)>& done)
{
    const std::string exe = self_exe();
    std::map<pid_t, child> running;
    size_t next = 0;
    bool forwarded = false;
    while ((next < todo.size() && !stop_signal()) || !running.empty()) {
        while (!stop_signal() && running.size() < jobs && next < todo.size()) {
            child c = start_run(exe, p, runs[todo[next++]], out_dir);
            running[c.pid] = c;
        }
        if (running.empty()) break;
        int status = 0;
        rusage ru{};
        const pid_t pid = wait4(-1, &status, 0, &ru);
        if (pid < 0) {
            if (errno != EINTR) break;
            if (stop_signal() && !forwarded) {
                for (const auto& [cp, c] : running) kill(cp, stop_signal());
                forwarded = true;
            }
            continue;
        }
        const auto it = running.find(pid);
        if (it == running.end()) continue;
        const child c = it->second;
        running.erase(it);
        done(c.run_index, metric_cells(c.dir, outcome_of(c, status, ru.ru_maxrss)));
    }
}

}  // namespace

int run_sweep(const std::string& sweep_file, const sweep_options& opts)
{
    const plan p = read_sweep_file(sweep_file);
    const std::vector<run> runs = p.runs();
    std::optional<mpi_session> mpi;
    if (launched_by_mpi()) mpi.emplace();
    install_stop_handlers(false);   // EINTR out of wait4 so that a signal is passed on at once
    std::signal(SIGPIPE, SIG_IGN);  // progress to a closed pipe must not end the sweep
    const std::string exe = self_exe();
    if (mpi && mpi->rank() > 0) {
        mpi->work([&](size_t index) {
            const child c = start_run(exe, p, runs[index], opts.out_dir);
            return metric_cells(c.dir, wait_for(c));
        });
        return stop_signal() ? exit_status_for_signal(stop_signal()) : 0;
    }

    std::error_code ec;
    fs::create_directories(opts.out_dir, ec);
    if (!fs::is_directory(opts.out_dir, ec))
        throw config::config_error("output folder '" + opts.out_dir + "' cannot be created");
    write_sweep_json(p, runs, sweep_file, opts.out_dir);

    // Resume: a run whose manifest says complete, made by the same command, is not run again.
    std::vector<size_t> todo;
    for (const auto& r : runs)
        if (!already_complete(p, r, (fs::path(opts.out_dir) / r.id).string()))
            todo.push_back(r.index);
    const size_t skipped = runs.size() - todo.size();
    unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
    std::cerr << fmt::format(
        "sweep: {} runs, {} complete already, {} to run {}\n", runs.size(), skipped, todo.size(),
        mpi && mpi->size() > 1 ? fmt::format("on {} MPI ranks", mpi->size() - 1)
                               : fmt::format("with {} local job{}", jobs, jobs > 1 ? "s" : ""));

    rows_t rows(runs.size());
    sweep_progress progress(runs.size(), skipped);
    const auto start = clock::now();
    auto done = [&](size_t index, std::vector<std::string> cells) {
        progress.finished(ok(cells));
        std::cerr << progress.line(since(start), describe(runs[index].id, cells)) << "\n";
        rows[index] = std::move(cells);
    };
    if (mpi && mpi->size() > 1)
        mpi->lead(todo, done);
    else
        run_local(p, runs, todo, opts.out_dir, jobs, done);

    write_summary(p, runs, rows, opts.out_dir);
    const std::string summary = (fs::path(opts.out_dir) / "summary.csv").string();
    if (stop_signal()) {
        std::cerr << fmt::format(
            "sweep: interrupted with {} of {} runs done; run the same command again to "
            "continue ({} has the rows so far)\n",
            progress.done(), runs.size(), summary);
        return exit_status_for_signal(stop_signal());
    }
    std::cerr << fmt::format("sweep: {} runs, {} failed; summary in {}\n", runs.size(),
                             progress.failed(), summary);
    return 0;
}

}  // namespace uetsim::sweep
