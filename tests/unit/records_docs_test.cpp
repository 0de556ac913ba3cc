// The records registry against what it drives: docs/records.md (generated from it: committed page
// must match, and each record's column list there must be the header the record writes), the
// default and allowed values of Records.Enabled, and the file names.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/config/scenario_keys.h"
#include "testbench/records/record_registry.h"

namespace uetsim {
namespace {

std::string source_dir()
{
    if (const char* env = std::getenv("UETSIM_SOURCE")) return env;
    return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().string();
}

std::string read_doc()
{
    std::ifstream f(source_dir() + "/docs/records.md");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// The backquoted names in the first cell of each row of the first table after `heading`.
std::vector<std::string> doc_columns(const std::string& md, const std::string& heading)
{
    std::vector<std::string> names;
    size_t at = md.find("\n" + heading + "\n");
    if (at == std::string::npos) return names;
    at = md.find("\n|", at);  // the table's head row
    if (at == std::string::npos) return names;
    at = md.find('\n', md.find('\n', at + 1) + 1);  // skip the head and the |---| rows
    std::istringstream rows(md.substr(at + 1));
    for (std::string line; std::getline(rows, line) && line.rfind("|", 0) == 0;) {
        const std::string first = line.substr(1, line.find('|', 1) - 1);
        for (size_t b = first.find('`'); b != std::string::npos; b = first.find('`', b + 1)) {
            const size_t e = first.find('`', b + 1);
            names.push_back(first.substr(b + 1, e - b - 1));
            b = e;
        }
    }
    return names;
}

TEST(records_docs, records_md_is_up_to_date)
{
    const std::string md = read_doc();
    ASSERT_FALSE(md.empty()) << "docs/records.md is missing";
    EXPECT_TRUE(md == records_markdown())
        << "docs/records.md is stale; regenerate it with: "
           "build/bin/uetsim records --markdown > docs/records.md";
}

TEST(records_docs, each_record_shows_the_header_it_writes)
{
    const std::string md = read_doc();
    for (const record_def* r : record_registry()) {
        const std::string heading =
            r->csv ? "## " + r->name : "## Manifest: `{Name}-manifest.json`";
        EXPECT_EQ(doc_columns(md, heading), r->header()) << r->name;
    }
}

TEST(records_docs, headers_of_the_reference_layouts)
{
    // Hand-counted from the reference layouts (docs/records.md before the registry existed).
    const std::vector<std::pair<std::string, size_t>> widths = {
        {"nd-stats", 24},
        {"scala-switch-load-balancing-stats", 28},
        {"flow-perf", 10},
        {"pcie-stats", 27},
        {"uet-transport-stats", 69},
        {"uet-monitor", 27},
        {"rdma-perf", 14},
        {"beacon", 12}};
    for (const auto& [name, n] : widths) {
        const record_def* r = find_record(name);
        ASSERT_NE(r, nullptr) << name;
        EXPECT_EQ(r->header().size(), n) << name;
    }
    EXPECT_EQ(find_record("flow-perf")->header(),
              (std::vector<std::string>{"time_utc", "sim_time_sec", "flow_id", "src_host",
                                        "dst_host", "bytes", "packets", "start_time_sec",
                                        "finish_time_sec", "fct_usec"}));
    EXPECT_EQ(find_record("nonesuch"), nullptr);
}

TEST(records_docs, records_enabled_comes_from_the_registry)
{
    const std::vector<std::string> published = {"nd-stats",
                                                "scala-switch-load-balancing-stats",
                                                "flow-perf",
                                                "uet-transport-stats",
                                                "rdma-perf",
                                                "beacon",
                                                "pcie-stats",
                                                "nic-pipeline-stats",
                                                "ecn-pfc-stats",
                                                "scala-switch-agg-buff-stats",
                                                "roce-transport-stats",
                                                "net-buff-stats",
                                                "topology-report",
                                                "tier-hop",
                                                "cpu-mem-stats",
                                                "application-report",
                                                "perf",
                                                "chakra-capable-hosts",
                                                "chakra-mapping",
                                                "chakra-apps",
                                                "chakra-perf",
                                                "chakra-completion-stats",
                                                "chakra-cdf",
                                                "chakra-comm-collective-stats",
                                                "chakra-comm-collective-percentiles-stats",
                                                "chakra-busbw",
                                                "link-stats"};
    EXPECT_EQ(enabled_record_names(), published);
    // pcie-stats (the reference's EnablePCIeStatsLogging is false) and nic-pipeline-stats are
    // allowed but not on by default; ecn-pfc-stats is (EnablePFCECNStatsLogging is true), and so
    // is scala-switch-agg-buff-stats (the packet-handling page lists it among the records a
    // switch writes with the defaults), and roce-transport-stats (EnableRoceTransportStats is
    // true; written only with RoCE NICs); net-buff-stats is not (EnableNetworkBufferStatsReporting
    // is false); neither are the platform records (topology-report, tier-hop, cpu-mem-stats,
    // which measures the machine, not the model, application-report and perf, and link-stats). The
    // Chakra records are on by default (the Chakra records page: written with the defaults), and
    // written only with the Chakra workload.
    std::vector<std::string> by_default(published.begin(), published.begin() + 6);
    by_default.push_back("ecn-pfc-stats");
    by_default.push_back("scala-switch-agg-buff-stats");
    by_default.push_back("roce-transport-stats");
    // link-stats (#31) is off by default: it adds two rows per link every interval.
    by_default.insert(by_default.end(), published.begin() + 17, published.end() - 1);
    EXPECT_EQ(scenario{}.records.enabled, by_default);
    EXPECT_EQ(config::record_names(), published);
    // Every listed name is a registry entry; the unlisted ones have their own switch.
    size_t listed = 0;
    for (const record_def* r : record_registry()) listed += r->enabled_position >= 0;
    EXPECT_EQ(listed, published.size());
}

TEST(records_docs, file_names)
{
    EXPECT_EQ(find_record("nd-stats")->file_name("run1"), "run1-nd-stats-0.csv");
    EXPECT_EQ(find_record("manifest")->file_name("run1"), "run1-manifest.json");
    // The manifest lists files in registry order: build order, application records last.
    bool app_seen = false;
    for (const record_def* r : record_registry()) {
        if (r->open) {
            EXPECT_TRUE(r->reads_application || !app_seen) << r->name;
        }
        app_seen = app_seen || r->reads_application;
    }
}

}  // namespace
}  // namespace uetsim
