// The nd-stats record: every port of every device (hosts and switches) every
// NDStatsReportInterval, and a last set of rows when the run ends. The models keep the counters;
// this module only samples them, so the record costs nothing per packet.
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

namespace chakra {
class chakra_replay;
}

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
    bool scale_up = false;  // a rank's scale-up device (Chakra.ScaleUpStatsEnabled)
};

const column_table<nd_stats_row>& nd_stats_columns();
const record_def& nd_stats_record();

class nd_stats_record_module : public sc_core::sc_module
{
public:
    // `scale_up`: the Chakra replay whose scale-up fabric gets a row per rank of a group (null:
    // none).
    nd_stats_record_module(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                           const std::string& path, record_clock& clock,
                           const chakra::chakra_replay* scale_up = nullptr);
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
    const chakra::chakra_replay* m_scale_up;
    std::vector<uint32_t> m_scale_up_ranks;                      // ranks in a scale-up group
    std::vector<std::string> m_scale_up_names;                   // their "scale-up-group<g>"
    std::vector<std::pair<uint64_t, uint64_t>> m_scale_up_last;  // tx, rx bytes at the last row
    double m_last_s = 0;
};

}  // namespace uetsim
