// The UET NIC records: uet-transport-stats (one row per NIC every NDStatsReportInterval, and a
// last row at the end) and uet-monitor (one row per UET packet of the connections its filters and
// triggers select). Each reaches into the NICs in one place: the transport record reads
// uet_nic::counters(), the monitor record's opening calls uet_nic::set_monitor.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "hw/nic/uet/uet_monitor_sink.h"
#include "hw/nic/uet/uet_transport_counters.h"
#include "testbench/elab/fabric.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"
#include "testbench/records/uet_monitor_selection.h"
#include "testbench/scenario.h"

namespace uetsim {

// One uet-monitor row: the NIC's observation and the NIC's name.
struct uet_monitor_cells
{
    const uet_monitor_row* r = nullptr;
    const std::string* component_name = nullptr;
};

// One uet-transport-stats row: a NIC's counters now and at the previous row.
struct uet_transport_cells
{
    std::string_view time_utc;
    double sim_time_s = 0;
    const char* component_name = nullptr;
    uint32_t fep_id = 0;
    const uet_transport_counters* now = nullptr;
    const uet_transport_counters* last = nullptr;
};

const column_table<uet_monitor_cells>& uet_monitor_columns();
const column_table<uet_transport_cells>& uet_transport_columns();
const record_def& uet_transport_record_def();
const record_def& uet_monitor_record_def();

class uet_monitor_record : public uet_monitor_sink
{
public:
    uet_monitor_record(const std::string& path, const std::vector<std::string>& nic_names,
                       const uet_monitor_settings& settings);
    bool row(const uet_monitor_row& r) override;
    void close() { m_csv.close(); }
    const std::string& path() const { return m_csv.path(); }

private:
    record_csv<uet_monitor_cells> m_csv;
    std::vector<std::string> m_names;  // by FEP id (node id)
    uet_monitor_selection m_selection;
};

class uet_transport_record : public sc_core::sc_module
{
public:
    uet_transport_record(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                         const std::string& path, record_clock& clock);
    void finish();
    const std::string& path() const { return m_csv.path(); }

private:
    void write(double now);

    const scenario& m_sc;
    fabric& m_fab;
    record_csv<uet_transport_cells> m_csv;
    std::vector<uet_transport_counters> m_last;  // counters at the previous row, per NIC
    double m_last_row_s = -1;
};

}  // namespace uetsim
