// docs/records.md and `uetsim records`, generated from the records registry: the page's
// column lists are the registry's column tables, so they match the files byte for byte
// (tests/unit/records_docs_test.cpp checks the committed page).
#include <fmt/format.h>

#include "testbench/records/record_registry.h"

namespace uetsim {

namespace {

std::string code_list(const std::vector<std::string>& names)
{
    std::string s;
    for (size_t i = 0; i < names.size(); ++i)
        s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + ("`" + names[i] + "`");
    return s;
}

std::string heading(const record_def& r)
{
    return r.csv ? "## " + r.name : "## Manifest: `" + r.file_name("{Name}") + "`";
}

// The column table: consecutive columns that share a doc line share a table row.
std::string column_table_markdown(const record_def& r)
{
    std::string s =
        r.csv ? "| column | meaning |\n|---|---|\n" : "| member | meaning |\n|---|---|\n";
    for (size_t i = 0; i < r.columns.size();) {
        size_t j = i;
        std::string names;
        for (; j < r.columns.size() && r.columns[j].doc == r.columns[i].doc; ++j)
            names += (j == i ? "" : ", ") + ("`" + r.columns[j].name + "`");
        s += "| " + names + " | " + r.columns[i].doc + " |\n";
        i = j;
    }
    return s;
}

const char* const k_formats = R"(### Formats and units

- Numbers are printed in their shortest form that reads back to the same value (`0.001`,
  `3.0361600000000004e-06`, `400`).
- Units are in the column name: `_sec` seconds, `_usec` microseconds, `_ns` nanoseconds, `_GB`
  10⁹ bytes, `_MB` 10⁶ bytes, `_Gbps` 10⁹ bit/s. Bytes are frame bytes on the wire (Ethernet
  header and FCS included) unless a column says otherwise.
- `time_utc` is `Simulation.EpochUtc` (default `2026-01-01T00:00:00Z`) plus the simulated time,
  truncated to whole seconds, as `YYYY-MM-DDThh:mm:ssZ`. It is derived from simulated time, not
  read from the host's clock, so two runs of one scenario give byte-identical files.
- `subtier` is always 4294967295 (2³² − 1), meaning "no sub-tier".
- `tier`: 0 spine, 1 fabric, 2 rack, 3 NIC ([topologies.md](topologies.md)).
)";

}  // namespace

std::string records_markdown()
{
    std::string s =
        "# Records\n\n"
        "<!-- Generated from the records registry (testbench/records/record_registry.h): edit "
        "the registry, then\n     build/bin/uetsim records --markdown > docs/records.md -->\n\n"
        "A run writes its records into the output folder (`uetsim run --out DIR`, default "
        "`out/`): CSV\nfiles with a header row, plus one JSON manifest. This page lists every "
        "file and every column.\n\n"
        "## Files and naming\n\n"
        "```\n{Name}-{record}-{shard}.csv\n{Name}-manifest.json\n```\n\n"
        "- `{Name}` is `Simulation.Name` (default `uetsim`).\n"
        "- `{shard}` is always `0`: uetsim runs in one process.\n"
        "- `Records.Enabled` lists the CSV records to write, from " +
        code_list(enabled_record_names()) + ". The default is\n  " +
        code_list(default_enabled_records()) +
        ". A record is written only when it applies (the table below).\n"
        "  `uet-monitor` and `uet-events` are not in that list: `Records.UetMonitor` or one of "
        "its triggers\n  writes the first, `UetNic.EnableEventLogging` the second "
        "([records-monitor.md](records-monitor.md)).\n"
        "- The periodic records `nd-stats`, `uet-transport-stats`, `roce-transport-stats` and "
        "`pcie-stats` write\n  their first row at `Simulation.StartTime` + "
        "`Simulation.ClientStartOffset` + "
        "`Simulation.NDStatsReportInterval` when the RDMA\n  application runs (0.003 s at the "
        "defaults, as the reference's records page gives), and one\n  interval after t = 0 in a "
        "`Flows`-only run, which has no client start (the same rule with both\n  times 0). The "
        "first row's interval columns cover everything before it.\n"
        "- The manifest is always written, and written last. The run deletes an earlier manifest "
        "of the\n  same name before it starts, so a folder with CSV files but no manifest is a "
        "run that did not\n  finish. Its `records` member lists the files written, in the order "
        "of the table below.\n\n"
        "| record | file | written | columns |\n|---|---|---|---|\n";
    for (const record_def* r : record_registry())
        s += fmt::format("| `{}` | `{}` | {} | {} |\n", r->name, r->file_name("{Name}"), r->when,
                         r->columns.size());
    s += "\n";
    s += k_formats;
    for (const record_def* r : record_registry()) {
        if (!r->csv)
            s += "\n## Packet captures\n\n`Capture.Links` writes `{Name}-{link}.pcap` per listed "
                 "link; see `docs/faults-and-capture.md`.\n";
        s += "\n" + heading(*r) + "\n\n";
        if (r->csv)
            s += fmt::format("**Written:** {}. {} columns.\n\n", r->when, r->columns.size());
        s += r->intro + "\n\n" + column_table_markdown(*r);
        if (!r->notes.empty()) s += "\n" + r->notes + "\n";
    }
    return s;
}

std::string records_text()
{
    std::string s;
    for (const record_def* r : record_registry())
        s += fmt::format("{:<29} {:<40} {}\n", r->name, r->file_name("{Name}"), r->when);
    return s;
}

}  // namespace uetsim
