// The periodic records of the fabric: nd-stats (every port, every NDStatsReportInterval) and
// switch-load-balancing-stats (every member of every equal-cost set, every
// LoadBalancingStatsReportInterval), each with a last row set when the run ends.
// Counters are kept by the models; this module only samples them, so records cost nothing per
// packet.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "testbench/fabric.h"
#include "testbench/records/csv_writer.h"
#include "testbench/scenario.h"

namespace uetsim {

class periodic_records : public sc_core::sc_module
{
public:
    periodic_records(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                     const std::string& out_dir);

    // Writes the rows for the end of the run (call once, after simulation).
    void finish();

    std::vector<std::string> files() const;

private:
    struct port_ref
    {
        uint32_t device;
        uint32_t port;
        uint64_t last_tx_bytes = 0;
        uint64_t last_rx_bytes = 0;
    };
    struct member_ref
    {
        uint32_t sw;
        int32_t set;
        uint32_t member;
        uint64_t last_bytes = 0;
        uint64_t last_packets = 0;
    };

    void nd_tick();
    void lb_tick();
    void write_nd(double now, double interval);
    void write_lb(double now);

    const scenario& m_sc;
    fabric& m_fab;
    std::unique_ptr<csv_writer> m_nd;
    std::unique_ptr<csv_writer> m_lb;
    std::vector<port_ref> m_ports;
    std::vector<member_ref> m_members;
    double m_last_nd_s = 0;
    bool m_nd_started = false;
    bool m_lb_started = false;
};

}  // namespace uetsim
