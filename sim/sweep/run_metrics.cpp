#include "sim/sweep/run_metrics.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/sweep/csv_table.h"
#include "hw/common/nearest_rank.h"

namespace uetsim::sweep {

namespace fs = std::filesystem;

namespace {

// The run's manifest path ({Name}-manifest.json), empty when there is none.
std::string manifest_path(const std::string& run_dir)
{
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(run_dir, ec)) {
        const std::string n = e.path().filename().string();
        if (n.size() > 14 && n.compare(n.size() - 14, 14, "-manifest.json") == 0)
            return e.path().string();
    }
    return "";
}

}  // namespace

bool read_manifest(const std::string& run_dir, nlohmann::json& m, std::string& prefix)
{
    const std::string p = manifest_path(run_dir);
    if (p.empty()) return false;
    try {
        std::ifstream f(p);
        m = nlohmann::json::parse(f);
    } catch (const std::exception&) {
        return false;
    }
    prefix = p.substr(0, p.size() - std::string("manifest.json").size());
    return true;
}

namespace {

std::string num(double v)
{
    return fmt::format("{}", v);
}

std::string count(uint64_t v)
{
    return std::to_string(v);
}

// The values of one column of a record, sorted.
std::vector<double> column(const csv_table& t, const std::string& name)
{
    std::vector<double> out;
    const int c = t.col(name);
    double v;
    for (size_t r = 0; r < t.rows.size(); ++r)
        if (t.number(r, c, v)) out.push_back(v);
    std::sort(out.begin(), out.end());
    return out;
}

// The sum over components of a cumulative counter, from each component's last row.
bool last_row_sum(const csv_table& t, const std::string& name, double& sum)
{
    const int c = t.col(name), comp = t.col("component_name"), fep = t.col("fep_id");
    if (c < 0 || comp < 0) return false;
    std::map<std::string, double> last;
    double v;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        if (!t.number(r, c, v) || size_t(comp) >= t.rows[r].size()) continue;
        std::string key = t.rows[r][size_t(comp)];
        if (fep >= 0 && size_t(fep) < t.rows[r].size()) key += "/" + t.rows[r][size_t(fep)];
        last[key] = v;
    }
    sum = 0;
    for (const auto& [k, x] : last) sum += x;
    return true;
}

}  // namespace

const std::vector<std::string>& metric_columns()
{
    static const std::vector<std::string> cols = {"fct_p50_usec",
                                                  "fct_p99_usec",
                                                  "fct_max_usec",
                                                  "flows_completed",
                                                  "wqe_latency_p50_usec",
                                                  "wqe_latency_p99_usec",
                                                  "goodput_gbps",
                                                  "wqes_completed",
                                                  "busbw_gbps",
                                                  "busbw_link_fraction",
                                                  "collective_time_usec",
                                                  "retransmissions",
                                                  "trims",
                                                  "drops",
                                                  "ecn_marks",
                                                  "pauses",
                                                  "data_packets_sent",
                                                  "events",
                                                  "sim_time_sec",
                                                  "wall_time_sec",
                                                  "peak_rss_bytes",
                                                  "status",
                                                  "exit_status",
                                                  "error"};
    return cols;
}

std::string manifest_status(const std::string& run_dir)
{
    nlohmann::json m;
    std::string prefix;
    if (!read_manifest(run_dir, m, prefix)) return "";
    return m.value("status", std::string("complete"));
}

std::vector<std::string> metric_cells(const std::string& run_dir, const run_outcome& o)
{
    std::map<std::string, std::string> cell;
    nlohmann::json m;
    std::string prefix;
    const bool have_manifest = read_manifest(run_dir, m, prefix);
    if (have_manifest) {
        const std::string status = m.value("status", std::string("complete"));
        cell["status"] = status;
        cell["sim_time_sec"] = num(m.value("sim_time_s", 0.0));
        cell["events"] = count(m.value("events_executed", uint64_t(0)));
        cell["data_packets_sent"] = count(m.value("data_packets_sent", uint64_t(0)));
        cell["drops"] = count(m.value("packets_dropped", uint64_t(0)));
        cell["trims"] = count(m.value("packets_trimmed", uint64_t(0)));
        cell["wall_time_sec"] = num(m.value("wall_time_s", 0.0));
        cell["peak_rss_bytes"] = count(m.value("peak_rss_bytes", uint64_t(0)));
        if (m.contains("messages") && m["messages"].value("total", 0) > 0)
            cell["flows_completed"] = count(m["messages"].value("completed", uint64_t(0)));
        if (m.contains("rdma_application"))
            cell["wqes_completed"] =
                count(m["rdma_application"].value("wqes_completed", uint64_t(0)));

        csv_table t;
        if (read_csv_table(prefix + "flow-perf-0.csv", t)) {
            const auto fct = column(t, "fct_usec");
            if (!fct.empty()) {
                cell["fct_p50_usec"] = num(nearest_rank(fct, 50));
                cell["fct_p99_usec"] = num(nearest_rank(fct, 99));
                cell["fct_max_usec"] = num(fct.back());
            }
        }
        t = {};
        if (read_csv_table(prefix + "rdma-perf-0.csv", t)) {
            const auto lat = column(t, "perf_metric_usec");
            if (!lat.empty()) {
                cell["wqe_latency_p50_usec"] = num(nearest_rank(lat, 50));
                cell["wqe_latency_p99_usec"] = num(nearest_rank(lat, 99));
                // Bytes of the completed WQEs over the span from the first post to the last
                // completion.
                const auto bytes = column(t, "transfer_size");
                const auto starts = column(t, "start_time_sec");
                const auto ends = column(t, "sim_time_sec");
                double total = 0;
                for (double b : bytes) total += b;
                if (!starts.empty() && !ends.empty() && ends.back() > starts.front())
                    cell["goodput_gbps"] = num(total * 8 / (ends.back() - starts.front()) / 1e9);
            }
        }
        t = {};
        // The Chakra workload: the mean over its valid collectives (chakra-busbw).
        if (read_csv_table(prefix + "chakra-busbw-0.csv", t)) {
            const auto busbw = column(t, "busbw_gbps");
            const auto fraction = column(t, "link_fraction");
            const auto run = column(t, "run_time_us");
            auto mean = [](const std::vector<double>& v) {
                double s = 0;
                for (double x : v) s += x;
                return s / double(v.size());
            };
            if (!busbw.empty()) {
                cell["busbw_gbps"] = num(mean(busbw));
                cell["busbw_link_fraction"] = num(mean(fraction));
                cell["collective_time_usec"] = num(mean(run));
            }
        }
        t = {};
        if (read_csv_table(prefix + "uet-transport-stats-0.csv", t)) {
            double v;
            if (last_row_sum(t, "num_rtx", v)) cell["retransmissions"] = count(uint64_t(v));
            if (last_row_sum(t, "m_marked_pkts_sent", v)) cell["ecn_marks"] = count(uint64_t(v));
        }
    }
    if (o.ran) {
        cell["exit_status"] = std::to_string(o.exit_status);
        if (o.exit_status != 0) {
            cell["error"] = o.error;
            cell["wall_time_sec"] = num(o.wall_time_s);
            cell["peak_rss_bytes"] = count(o.peak_rss_bytes);
            if (!have_manifest) cell["status"] = "failed";
        }
    } else if (have_manifest) {
        cell["exit_status"] = "0";  // skipped as complete: it exited 0 when it ran
    } else {
        cell["status"] = "not run";
    }
    std::vector<std::string> out;
    for (const auto& c : metric_columns()) out.push_back(cell[c]);
    return out;
}

}  // namespace uetsim::sweep
