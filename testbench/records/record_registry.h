// The records registry: every file a run writes, declared once, on the pattern of the scenario
// key table (sim/config/schema.h). A declaration holds the record's name, its file name, its
// columns (from the record's column table, column_table.h), when it applies and how it is
// opened. Records.Enabled's allowed and default values, the run's wiring (run.cpp is one loop
// over the registry) and docs/records.md (records_markdown) all come from it, so a new record
// is one declaration plus its own file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "testbench/records/column_table.h"
#include "testbench/records/record_clock.h"
#include "testbench/records/record_names.h"
#include "testbench/scenario.h"

namespace uetsim {

class fabric;
class flows;
class rdma_application;
namespace chakra {
class chakra_replay;
struct loaded_workload;
}  // namespace chakra

// What a record can read while it is opened.
struct record_context
{
    const scenario& sc;
    fabric& fab;
    flows& traffic;
    rdma_application* app = nullptr;          // null without the RDMA application
    record_clocks clocks;                     // what the periodic records sample on
    chakra::chakra_replay* chakra = nullptr;  // null without the Chakra workload
    const chakra::loaded_workload* workload = nullptr;
    std::string out_dir = {};  // files a record writes beside its CSV (annotated traces)
};

// An open record: samples its sources or receives rows during the run.
class open_record
{
public:
    virtual ~open_record() = default;
    // Writes the rows for the end of the run and closes the file (once, after simulation).
    virtual void finish() = 0;
};

struct record_def
{
    std::string name;  // nd-stats
    // Position in Records.Enabled's published list; -1 when Records.Enabled does not list it
    // (uet-monitor has its own switch, the manifest is always written).
    int enabled_position = -1;
    // The name before a rename, still read in Records.Enabled for one release ("" if none).
    std::string old_name;
    // Whether Records.Enabled's default lists it (off for records the reference has not).
    bool on_by_default = true;
    std::string when;   // markdown, one line: when the file is written
    std::string intro;  // markdown before the column table: what a row is, when rows come
    std::vector<column_doc> columns;
    std::string notes;  // markdown after the column table
    // Whether the record is written once it is wanted (listed in Records.Enabled). Opened
    // after the RDMA application exists when `reads_application`.
    bool (*applies)(const record_context&) = nullptr;
    bool reads_application = false;
    // Opens the file `path`; null for the manifest, which run.cpp writes last.
    std::unique_ptr<open_record> (*open)(record_context&, const std::string& path) = nullptr;
    bool csv = true;  // false: the manifest (a JSON object, `columns` are its members)

    // `{Name}-{record}-0.csv` (or `{Name}-manifest.json`) with `{Name}` replaced by `name`.
    std::string file_name(const std::string& sim_name) const;
    std::vector<std::string> header() const;
};

// Every record, in build order: the order in which they are opened (their SystemC processes
// are created in it) and listed in the manifest.
const std::vector<const record_def*>& record_registry();
const record_def* find_record(const std::string& name);
// Declares a record from outside the tree (a test's, a user's) before the run that writes it:
// opened after uetsim's own, before the manifest, when its `applies` says so (it is not one of
// Records.Enabled's names). `r` must outlive the runs. std::logic_error for a name taken.
void add_record(const record_def& r);

// Whether `sc` asks for the record (Records.Enabled, or the record's own switch) and it
// applies.
bool record_wanted(const record_def& r, const record_context& ctx);

// docs/records.md.
std::string records_markdown();
// A short listing for `uetsim records`: name, file, when.
std::string records_text();

}  // namespace uetsim
