// The scala-switch-load-balancing-stats record: every member of every equal-cost set (single
// members included) of every switch, every LoadBalancingStatsReportInterval, and a last row per
// member when the run ends. The switches keep the counters; this module only samples them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "testbench/elab/fabric.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"
#include "testbench/scenario.h"

namespace uetsim {

// One scala-switch-load-balancing-stats row: one member of one equal-cost set.
struct lb_stats_row
{
    std::string_view time_utc;
    double sim_time_s = 0;
    const device* dev = nullptr;
    uint16_t ifid = 0;
    int32_t group_id = 0;
    std::string_view group_ifids;
    size_t group_size = 0;
    double group_formed_ns = 0;
    uint64_t bytes = 0, ivl_bytes = 0;
    uint64_t packets = 0, ivl_packets = 0;
    double ivl_share = 0;
    // Flowlet only (0 with none).
    size_t flow_table_slots = 0;
    uint64_t assignments = 0, ivl_assignments = 0;
    uint64_t movements_in = 0, ivl_movements_in = 0;
    uint64_t movements_out = 0, ivl_movements_out = 0;
    uint64_t paused_skips = 0, ivl_paused_skips = 0;
    uint64_t paused_selections = 0, ivl_paused_selections = 0;
};

const column_table<lb_stats_row>& lb_stats_columns();
const record_def& lb_stats_record();

class lb_stats_record_module : public sc_core::sc_module
{
public:
    lb_stats_record_module(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                           const std::string& path, record_clock& clock);
    // Writes the last row per member (call once, after simulation).
    void finish();

private:
    struct member_ref
    {
        uint32_t sw;
        int32_t set;
        uint32_t member;
        uint64_t last_bytes = 0;
        uint64_t last_packets = 0;
        flowlet_selector::member_stats last_flowlet;
    };

    void write(double now);

    const scenario& m_sc;
    fabric& m_fab;
    record_csv<lb_stats_row> m_csv;
    std::vector<member_ref> m_members;
};

}  // namespace uetsim
