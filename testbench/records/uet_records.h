// The UET NIC records: uet-transport-stats (one row per NIC every NDStatsReportInterval, and a
// last row at the end) and uet-monitor (one row per UET packet, when Records.UetMonitor is on).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "hw/nic/uet/uet_monitor_sink.h"
#include "hw/nic/uet/uet_transport_counters.h"
#include "testbench/fabric.h"
#include "testbench/records/csv_writer.h"
#include "testbench/scenario.h"

namespace uetsim {

class uet_monitor_record : public uet_monitor_sink
{
public:
    uet_monitor_record(const std::string& path, const std::vector<std::string>& nic_names);
    void row(const uet_monitor_row& r) override;
    void close() { m_csv.close(); }
    const std::string& path() const { return m_csv.path(); }

private:
    csv_writer m_csv;
    std::vector<std::string> m_names;  // by FEP id (node id)
};

class uet_transport_record : public sc_core::sc_module
{
public:
    uet_transport_record(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                         const std::string& path);
    void finish();
    const std::string& path() const { return m_csv.path(); }

private:
    void tick();
    void write(double now);

    const scenario& m_sc;
    fabric& m_fab;
    csv_writer m_csv;
    std::vector<uet_transport_counters> m_last;  // counters at the previous row, per NIC
    bool m_started = false;
    double m_last_row_s = -1;
};

}  // namespace uetsim
