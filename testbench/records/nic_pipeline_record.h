// nic-pipeline-stats: the UET NIC pipeline's sizing statistics, one row per NIC and stage every
// NDStatsReportInterval and a last set at the end (docs/nic-pipeline.md). It reads each stage's
// pipeline_stage_stats, the NIC's read tags, PDC context cache and MAC drops, and the transport
// state it asks the NIC to keep (uet_state_stats). It samples on the periodic records' clock
// (record_clock), so turning it on adds no timed event and changes no other record.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "hw/nic/common/pipeline_stage.h"
#include "hw/nic/uet/uet_nic.h"
#include "testbench/elab/fabric.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"
#include "testbench/scenario.h"

namespace uetsim {

// A NIC's counters at the previous row, for the ivl_ columns.
struct nic_pipeline_last
{
    uint64_t context_hits = 0, context_misses = 0, context_evictions = 0;
};

// One nic-pipeline-stats row: a stage of a NIC now and at the previous row.
struct nic_pipeline_cells
{
    std::string_view time_utc;
    double sim_time_s = 0;
    const char* component_name = nullptr;
    uint32_t node_id = 0;
    const char* stage = nullptr;
    const pipeline_stage* now = nullptr;
    const pipeline_stage_stats* last = nullptr;
    double interval_s = 0;
    uint64_t now_ps = 0;
    const uet_nic* nic = nullptr;
    const nic_pipeline_last* nic_last = nullptr;
};

const column_table<nic_pipeline_cells>& nic_pipeline_columns();
const record_def& nic_pipeline_record_def();

class nic_pipeline_record : public sc_core::sc_module
{
public:
    nic_pipeline_record(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                        const std::string& path, record_clock& clock);
    void finish();

private:
    void write(double now);

    const scenario& m_sc;
    fabric& m_fab;
    record_csv<nic_pipeline_cells> m_csv;
    std::vector<pipeline_stage_stats> m_last;   // per NIC and stage, at the previous row
    std::vector<nic_pipeline_last> m_nic_last;  // per NIC
    double m_last_row_s = 0;
};

}  // namespace uetsim
