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
#include "testbench/elab/fabric.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"
#include "testbench/scenario.h"

namespace uetsim {

// One pcie-stats row: one end of one host's PCIe link at the row's time.
struct pcie_stats_row
{
    std::string_view time_utc;
    double sim_time_s = 0;
    const device* host = nullptr;
    bool nic_side = true;
    uint32_t lanes = 0;
    double lane_bps = 0;
    double link_bps = 0;
    const pcie_link::side_stats* stats = nullptr;
    uint64_t ivl_transfers = 0, ivl_bytes = 0, ivl_payload_bytes = 0;
    uint64_t credit_wait_ps = 0, ivl_credit_wait_ps = 0;  // waits passed by the row's time
    double tx_rate_gbps = 0;
    double tx_percent_util = 0;
};

const column_table<pcie_stats_row>& pcie_stats_columns();
const record_def& pcie_stats_record();

class pcie_records : public sc_core::sc_module
{
public:
    // Writes `path` (a header, then rows). With no NIC hosts (Nic.Type raw) only the header.
    pcie_records(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                 const std::string& path, record_clock& clock);

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
        uint64_t credit_wait_ps = 0;
    };

    void write(double now, double interval);

    const scenario& m_sc;
    fabric& m_fab;
    record_csv<pcie_stats_row> m_csv;
    std::vector<std::array<last_values, 2>> m_last;
    double m_last_row_s = 0;
};

}  // namespace uetsim
