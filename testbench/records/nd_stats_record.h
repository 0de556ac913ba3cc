// The nd-stats record: every port of every device (hosts and switches) every
// NDStatsReportInterval, and a last set of rows when the run ends. The models keep the counters;
// this module only samples them, so the record costs nothing per packet.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "testbench/fabric.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"
#include "testbench/scenario.h"

namespace uetsim {

// One nd-stats row: one port at the row's time.
struct nd_stats_row
{
    std::string_view time_utc;
    double sim_time_s = 0;
    const device* dev = nullptr;
    uint32_t ifid = 0;
    bool uplink = false;
    uint64_t tx_packets = 0, rx_packets = 0;
    uint64_t tx_bytes = 0, rx_bytes = 0;
    double ivl_tx_bytes = 0, ivl_rx_bytes = 0;
    double tx_gbps = 0, rx_gbps = 0;
    uint64_t tx_drops = 0, rx_drops = 0;
    std::string_view link_name;
    double link_gbps = 0;
};

const column_table<nd_stats_row>& nd_stats_columns();
const record_def& nd_stats_record();

class nd_stats_record_module : public sc_core::sc_module
{
public:
    nd_stats_record_module(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                           const std::string& path, record_clock& clock);
    // Writes the rows for the end of the run (call once, after simulation).
    void finish();

private:
    struct port_ref
    {
        uint32_t device;
        uint32_t port;
        uint64_t last_tx_bytes = 0;
        uint64_t last_rx_bytes = 0;
    };

    void write(double now, double interval);

    const scenario& m_sc;
    fabric& m_fab;
    record_csv<nd_stats_row> m_csv;
    std::vector<port_ref> m_ports;
    double m_last_s = 0;
};

}  // namespace uetsim
