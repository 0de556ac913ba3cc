// nic-pipeline-stats: the UET NIC pipeline's sizing statistics, one row per NIC and stage every
// NDStatsReportInterval and a last set at the end (docs/nic-pipeline.md). It reads each stage's
// pipeline_stage_stats and the NIC's read tags and MAC drops; the NIC does no work for it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "hw/nic/common/pipeline_stage.h"
#include "testbench/fabric.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"
#include "testbench/scenario.h"

namespace uetsim {

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
    uint32_t read_tags = 0;
    uint32_t read_tags_max = 0;
    uint64_t mac_drops = 0;
};

const column_table<nic_pipeline_cells>& nic_pipeline_columns();
const record_def& nic_pipeline_record_def();

class nic_pipeline_record : public sc_core::sc_module
{
public:
    nic_pipeline_record(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                        const std::string& path);
    void finish();

private:
    void tick();
    void write(double now);

    const scenario& m_sc;
    fabric& m_fab;
    record_csv<nic_pipeline_cells> m_csv;
    std::vector<pipeline_stage_stats> m_last;  // per NIC and stage, at the previous row
    bool m_started = false;
    double m_last_row_s = 0;
};

}  // namespace uetsim
