#include "testbench/records/pcie_records.h"

#include <algorithm>

#include "hw/common/activity.h"
#include "hw/common/time.h"

namespace uetsim {

namespace {

const std::vector<std::string>& columns()
{
    static const std::vector<std::string> c = {"time_utc",
                                               "sim_time_sec",
                                               "component_name",
                                               "node_id",
                                               "side",
                                               "lanes",
                                               "lane_rate_Gbps",
                                               "link_rate_Gbps",
                                               "total_transfers_tx",
                                               "ivl_transfers_tx",
                                               "total_bytes_tx",
                                               "ivl_bytes_tx",
                                               "total_payload_bytes_tx",
                                               "ivl_payload_bytes_tx",
                                               "tx_rate_Gbps",
                                               "tx_percent_util",
                                               "doorbells",
                                               "connection_sends",
                                               "payload_fetches",
                                               "data_writes",
                                               "completion_writes",
                                               "connection_writes"};
    return c;
}

uint64_t purpose_count(const pcie_link::side_stats& s, pcie_purpose p)
{
    return s.transactions[size_t(p)];
}

}  // namespace

pcie_records::pcie_records(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                           const std::string& path)
    : sc_core::sc_module(name)
    , m_sc(sc)
    , m_fab(fab)
    , m_csv(path, columns())
    , m_last(fab.nic_count())
{
    SC_HAS_PROCESS(pcie_records);
    if (fab.nic_count())
        SC_METHOD(tick);  // the first call, at time 0, only arms the first interval
}

void pcie_records::tick()
{
    activity::tick();
    const double interval = m_sc.simulation.nd_stats_interval_s;
    if (m_started) {
        const double now = to_seconds(sc_core::sc_time_stamp());
        write(now, now - m_last_row_s);
        m_last_row_s = now;
    }
    m_started = true;
    next_trigger(seconds(interval));
}

void pcie_records::write(double now, double interval)
{
    const topology& t = m_fab.topo();
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    for (size_t h = 0; h < m_fab.nic_count(); ++h) {
        const device& dev = t.devices[h];
        const pcie_link& pl = m_fab.pcie_at(h);
        const pcie_config& cfg = pl.config();
        for (pcie_link::side s : {pcie_link::nic_side, pcie_link::host_side}) {
            const pcie_link::side_stats& st = pl.stats(s);
            last_values& l = m_last[h][s];
            const uint64_t ivl_transfers = st.transfers - l.transfers;
            const uint64_t ivl_bytes = st.link_bytes - l.link_bytes;
            const uint64_t ivl_payload = st.payload_bytes - l.payload_bytes;
            // Rate and utilisation count only what has crossed by now: the NIC issues fetches
            // ahead, so the counters run ahead of the lanes by the queued work.
            const uint64_t crossed_busy = st.busy_ps - std::min(st.busy_ps, pl.queued_ps(s));
            const uint64_t ivl_busy = crossed_busy - std::min(crossed_busy, l.busy_ps);
            l = {st.transfers, st.link_bytes, st.payload_bytes, crossed_busy};
            const bool nic = s == pcie_link::nic_side;
            const uint32_t lanes = nic ? cfg.nic_side_lanes : cfg.host_side_lanes;
            const double lane_bps = nic ? cfg.nic_side_lane_bps : cfg.host_side_lane_bps;
            const double rate_gbps =
                interval > 0 ? double(ivl_busy) * 1e-12 * pl.rate_bps(s) / interval / 1e9 : 0.0;
            const double util = interval > 0 ? double(ivl_busy) / (interval * 1e12) * 100 : 0.0;
            m_csv.row(utc, now, dev.name, dev.node_id, nic ? "nic" : "host", lanes, lane_bps / 1e9,
                      pl.rate_bps(s) / 1e9, st.transfers, ivl_transfers, st.link_bytes, ivl_bytes,
                      st.payload_bytes, ivl_payload, rate_gbps, util,
                      purpose_count(st, pcie_purpose::doorbell),
                      purpose_count(st, pcie_purpose::connection_send),
                      purpose_count(st, pcie_purpose::payload_fetch),
                      purpose_count(st, pcie_purpose::data_write),
                      purpose_count(st, pcie_purpose::completion_write),
                      purpose_count(st, pcie_purpose::connection_write));
        }
    }
}

void pcie_records::finish()
{
    const double now = to_seconds(sc_core::sc_time_stamp());
    if (m_fab.nic_count() && (m_csv.rows() == 0 || now > m_last_row_s))
        write(now, now - m_last_row_s);
    m_csv.close();
}

}  // namespace uetsim
