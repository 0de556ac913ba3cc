// The ecn-pfc-stats record: one row per port and traffic class of every NIC and switch every
// NDStatsReportInterval, for the rows with a non-zero counter, and a last set when the run
// ends. The ports keep the counters (pfc_unit, the egress queue's ECN marks); this module
// samples them, so it costs nothing per packet.
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

struct ecn_pfc_stats_row
{
    std::string_view job_id;
    std::string_view time_utc;
    double sim_time_s = 0;
    const device* dev = nullptr;
    uint32_t ifid = 0;
    bool uplink = false;
    int priority = 0;
    uint64_t xoff_tx = 0, xoff_rx = 0, xon_tx = 0, xon_rx = 0;
    double paused_us = 0;
    double ivl_paused_us = 0;
    double ivl_max_paused_us = 0;
    double ivl_egr_occ_us = 0;      // XOFF time due to egress occupancy: the interval's
    double ivl_max_egr_occ_us = 0;  // its longest stretch in the interval
    double egr_occ_us = 0;          // since the start
    double percent_xon = 100;
    double egr_occ_ratio = 0;
    uint64_t ecn_marked = 0;
    double longest_pause_us = 0;
    uint64_t watchdog_drops = 0;
};

const column_table<ecn_pfc_stats_row>& ecn_pfc_stats_columns();
const record_def& ecn_pfc_stats_record();

class ecn_pfc_stats_record_module : public sc_core::sc_module
{
public:
    ecn_pfc_stats_record_module(const sc_core::sc_module_name& name, const scenario& sc,
                                fabric& fab, const std::string& path, record_clock& clock);
    void finish();

private:
    struct port_ref
    {
        uint32_t device;
        uint32_t port;
        std::array<uint64_t, 8> last_paused_ps{};
        std::array<uint64_t, 8> last_egr_occ_ps{};
    };

    void write(double now);

    const scenario& m_sc;
    fabric& m_fab;
    record_csv<ecn_pfc_stats_row> m_csv;
    std::vector<port_ref> m_ports;
    double m_last_s = 0;
};

}  // namespace uetsim
