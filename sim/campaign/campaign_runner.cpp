#include "sim/campaign/campaign_runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/campaign/campaign_file.h"
#include "sim/campaign/case_draw.h"
#include "sim/config/schema.h"
#include "sim/sweep/child_run.h"
#include "sim/sweep/csv_table.h"
#include "sim/sweep/run_metrics.h"
#include "testbench/run/run_control.h"

namespace uetsim::campaign {

namespace {

namespace fs = std::filesystem;
using clock = std::chrono::steady_clock;

enum class verdict { pass, refused, scoreboard, stalled, hang, crash };

const char* to_string(verdict v)
{
    switch (v) {
        case verdict::pass:
            return "pass";
        case verdict::refused:
            return "refused";
        case verdict::scoreboard:
            return "scoreboard";
        case verdict::stalled:
            return "stalled";
        case verdict::hang:
            return "hang";
        case verdict::crash:
            return "crash";
    }
    return "?";
}

bool failed(verdict v)
{
    return v != verdict::pass && v != verdict::refused;
}

struct case_result
{
    drawn_case c;
    verdict v = verdict::pass;
    int exit_status = 0;
    double sim_time_s = 0;
    double wall_time_s = 0;
    std::string detail;
    std::string dir;
};

struct running_case
{
    pid_t pid;
    drawn_case c;
    std::string dir;
    clock::time_point start;
    bool timed_out = false;
};

std::string first_line(const std::string& text)
{
    const size_t nl = text.find('\n');
    return nl == std::string::npos ? text : text.substr(0, nl);
}

std::string first_stderr_line(const std::string& dir)
{
    std::ifstream f(dir + "/stderr.log");
    std::string line;
    while (std::getline(f, line))
        if (!line.empty()) return line;
    return "";
}

case_result judge(running_case& r, int status)
{
    case_result res;
    res.c = std::move(r.c);
    res.dir = r.dir;
    res.wall_time_s = std::chrono::duration<double>(clock::now() - r.start).count();
    res.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    nlohmann::json m;
    std::string prefix;
    const bool manifest = sweep::read_manifest(r.dir + "/out", m, prefix);
    if (manifest) res.sim_time_s = m.value("sim_time_s", 0.0);
    if (r.timed_out) {
        res.v = verdict::hang;
        res.detail =
            fmt::format("still running after {:.0f} s of wall time (CaseTimeout)", res.wall_time_s);
    } else if (WIFSIGNALED(status)) {
        res.v = verdict::crash;
        res.detail =
            fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else if (res.exit_status == 2) {
        res.v = verdict::refused;
        res.detail = first_stderr_line(r.dir);
    } else if (res.exit_status == 1 && manifest && m.value("status", "") == "stalled") {
        res.v = verdict::stalled;
        res.detail = "stalled: " + first_line(m["stall"].value("report", ""));
    } else if (res.exit_status != 0) {
        res.v = verdict::crash;
        res.detail = fmt::format("exit code {}: {}", res.exit_status, first_stderr_line(r.dir));
    } else if (!manifest || m.value("status", "") != "complete") {
        res.v = verdict::crash;
        res.detail = manifest ? "manifest status " + m.value("status", std::string("?"))
                              : "exit code 0 without a manifest";
    } else if (!m["scoreboard"].value("ok", false)) {
        res.v = verdict::scoreboard;
        res.detail = first_line(m["scoreboard"].value("report", ""));
    }
    return res;
}

void write_csv(const std::string& out_dir, const std::vector<case_result>& results)
{
    const fs::path path = fs::path(out_dir) / "campaign.csv";
    const fs::path tmp = fs::path(out_dir) / ".campaign.csv.tmp";
    {
        std::ofstream f(tmp);
        f << "case,outcome,nic,topology,pattern,messages,largest_message_bytes,faults,draws,"
             "exit_status,sim_time_s,wall_time_s,detail,scenario\n";
        for (const auto& r : results) {
            const bool kept = failed(r.v);
            const std::vector<std::string> cells = {std::to_string(r.c.index),
                                                    to_string(r.v),
                                                    r.c.nic,
                                                    r.c.topology,
                                                    r.c.pattern,
                                                    std::to_string(r.c.messages),
                                                    std::to_string(r.c.bytes),
                                                    config::detail::join(r.c.faults, "; "),
                                                    r.c.draws,
                                                    std::to_string(r.exit_status),
                                                    fmt::format("{}", r.sim_time_s),
                                                    fmt::format("{:.3f}", r.wall_time_s),
                                                    r.detail,
                                                    kept ? r.dir + "/case.yaml" : ""};
            std::string line;
            for (const auto& c : cells) line += (line.empty() ? "" : ",") + sweep::csv_cell(c);
            f << line << "\n";
        }
    }
    fs::rename(tmp, path);
}

std::string tally(const campaign_spec& spec, const std::vector<case_result>& results, double wall_s,
                  bool interrupted)
{
    std::map<std::string, uint32_t> outcomes, nics, topologies, patterns, faults;
    for (const char* v : {"pass", "refused", "scoreboard", "stalled", "hang", "crash"})
        outcomes[v] = 0;
    uint32_t failures = 0;
    for (const auto& r : results) {
        ++outcomes[to_string(r.v)];
        failures += failed(r.v);
        if (r.v == verdict::refused) continue;
        ++nics[r.c.nic];
        ++topologies[r.c.topology];
        ++patterns[r.c.pattern];
        for (const auto& f : r.c.faults) ++faults[f.substr(0, f.find(' '))];
    }
    const auto counts = [](const std::map<std::string, uint32_t>& m) {
        std::string s;
        for (const auto& [k, n] : m) s += (s.empty() ? "" : ", ") + fmt::format("{} {}", k, n);
        return s.empty() ? std::string("none") : s;
    };
    std::string t = fmt::format("campaign {}: {} of {} cases (seed {}) in {:.1f} s{}\n", spec.path,
                                results.size(), spec.cases, spec.seed, wall_s,
                                interrupted ? ", interrupted" : "");
    t += fmt::format("  pass {}, refused {}, scoreboard {}, stalled {}, hang {}, crash {}: {}\n",
                     outcomes["pass"], outcomes["refused"], outcomes["scoreboard"],
                     outcomes["stalled"], outcomes["hang"], outcomes["crash"],
                     failures ? fmt::format("{} FAILED", failures) : std::string("no failure"));
    t += "  NIC types: " + counts(nics) + "\n";
    t += "  topologies: " + counts(topologies) + "\n";
    t += "  workloads: " + counts(patterns) + "\n";
    t += "  faults: " + counts(faults) + "\n";
    for (const auto& r : results)
        if (failed(r.v))
            t += fmt::format("  case {} {}: {}\n    {}/case.yaml\n", r.c.index, to_string(r.v),
                             r.detail, r.dir);
    return t;
}

}  // namespace

int run_campaign(const std::string& file, const campaign_options& opts)
{
    campaign_spec spec = read_campaign_file(file);
    if (opts.cases) spec.cases = *opts.cases;
    if (opts.seed) spec.seed = *opts.seed;
    std::vector<uint32_t> indices;
    if (opts.only)
        indices.push_back(*opts.only);
    else
        for (uint32_t i = 0; i < spec.cases; ++i) indices.push_back(i);
    const unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
    fs::create_directories(opts.out_dir);
    install_stop_handlers(false);
    const std::string exe = sweep::self_exe();
    const auto started = clock::now();

    std::vector<case_result> results;
    std::vector<running_case> running;
    size_t next = 0;
    bool stopping = false;
    while ((next < indices.size() && !stopping) || !running.empty()) {
        while (!stopping && next < indices.size() && running.size() < jobs) {
            drawn_case c = draw_case(spec, indices[next++]);
            const std::string dir =
                (fs::path(opts.out_dir) / fmt::format("case-{:05}", c.index)).string();
            fs::create_directories(dir);
            std::ofstream(dir + "/case.yaml") << c.yaml;
            if (!c.refused.empty()) {
                case_result r;
                r.v = verdict::refused;
                r.exit_status = 2;
                r.detail = c.refused;
                r.dir = dir;
                r.c = std::move(c);
                results.push_back(std::move(r));
                fs::remove_all(dir);
                continue;
            }
            const pid_t pid = sweep::spawn_logged(
                exe, {"run", dir + "/case.yaml", "--out", dir + "/out", "--quiet"}, dir);
            running.push_back({pid, std::move(c), dir, clock::now()});
        }
        bool reaped = false;
        for (size_t i = 0; i < running.size();) {
            int status = 0;
            const pid_t pid = waitpid(running[i].pid, &status, WNOHANG);
            if (pid == running[i].pid) {
                case_result r = judge(running[i], status);
                if (!failed(r.v) && !opts.keep_passing) fs::remove_all(r.dir);
                if (failed(r.v))
                    std::cerr << fmt::format("uetsim: campaign: case {} {}: {}\n", r.c.index,
                                             to_string(r.v), r.detail);
                results.push_back(std::move(r));
                running.erase(running.begin() + long(i));
                reaped = true;
                continue;
            }
            const double wall =
                std::chrono::duration<double>(clock::now() - running[i].start).count();
            if (!running[i].timed_out && wall > spec.case_timeout_s) {
                running[i].timed_out = true;
                kill(running[i].pid, SIGKILL);
            }
            ++i;
        }
        if (stop_signal() && !stopping) {
            stopping = true;
            for (auto& r : running) kill(r.pid, stop_signal());
        }
        if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::sort(results.begin(), results.end(),
              [](const case_result& a, const case_result& b) { return a.c.index < b.c.index; });
    write_csv(opts.out_dir, results);
    const double wall = std::chrono::duration<double>(clock::now() - started).count();
    const std::string t = tally(spec, results, wall, stopping);
    std::ofstream(fs::path(opts.out_dir) / "tally.txt") << t;
    std::cout << t << std::flush;
    if (stopping) return exit_status_for_signal(stop_signal());
    for (const auto& r : results)
        if (failed(r.v)) return 1;
    return 0;
}

}  // namespace uetsim::campaign
