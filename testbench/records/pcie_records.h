// The pcie-stats record: for every NIC host, two rows every NDStatsReportInterval, one per end
// of its PCIe link (side `nic`: the NIC-to-host direction; side `host`: the host-to-NIC
// direction), and a last set of rows when the run ends. The link keeps the counters
// (pcie_link::side_stats); this module only samples them.
#pragma once

#include <array>
#include <string>
#include <vector>

#include <systemc>

#include "hw/pcie/pcie_link.h"
#include "testbench/fabric.h"
#include "testbench/records/csv_writer.h"
#include "testbench/scenario.h"

namespace uetsim {

class pcie_records : public sc_core::sc_module
{
public:
    // Writes `path` (a header, then rows). With no NIC hosts (Nic.Type raw) only the header.
    pcie_records(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                 const std::string& path);

    // Writes the rows for the end of the run (call once, after simulation).
    void finish();

    const std::string& path() const { return m_csv.path(); }

private:
    // Counters at the previous row, per NIC host and side.
    struct last_values
    {
        uint64_t transfers = 0;
        uint64_t link_bytes = 0;
        uint64_t payload_bytes = 0;
        uint64_t busy_ps = 0;
    };

    void tick();
    void write(double now, double interval);

    const scenario& m_sc;
    fabric& m_fab;
    csv_writer m_csv;
    std::vector<std::array<last_values, 2>> m_last;
    double m_last_row_s = 0;
    bool m_started = false;
};

}  // namespace uetsim
