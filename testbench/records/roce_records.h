// The RoCE NIC's transport record, roce-transport-stats: one row per RoCE NIC every
// NDStatsReportInterval and a last row at the end, with the output-files page's header. It reads
// roce_nic::counters() (cumulative); the ivl_ columns are differences from the previous row.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "hw/nic/roce/roce_transport_counters.h"
#include "testbench/elab/fabric.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"
#include "testbench/scenario.h"

namespace uetsim {

// One roce-transport-stats row: a NIC's counters now and at the previous row.
struct roce_transport_cells
{
    std::string_view time_utc;
    double sim_time_s = 0;
    const char* component_name = nullptr;
    uint32_t node_id = 0;
    const roce_transport_counters* now = nullptr;
    const roce_transport_counters* last = nullptr;
};

const column_table<roce_transport_cells>& roce_transport_columns();
const record_def& roce_transport_record_def();

// Starts the next interval of `c` after a row: its RTT samples' interval window is cleared
// (the cumulative counters stay; the row's `last` copy gives the next differences).
void next_roce_interval(roce_transport_counters& c);

class roce_transport_record : public sc_core::sc_module
{
public:
    roce_transport_record(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                          const std::string& path, record_clock& clock);
    void finish();
    const std::string& path() const { return m_csv.path(); }

private:
    void write(double now);

    const scenario& m_sc;
    fabric& m_fab;
    record_csv<roce_transport_cells> m_csv;
    std::vector<roce_transport_counters> m_last;  // counters at the previous row, per NIC
    double m_last_row_s = -1;
};

}  // namespace uetsim
