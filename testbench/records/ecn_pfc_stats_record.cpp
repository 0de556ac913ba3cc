// ecn-pfc-stats: its column table, its registry declaration and the module that samples the
// ports' PFC units and ECN counters.
#include "testbench/records/ecn_pfc_stats_record.h"

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "testbench/records/no_subtier.h"

namespace uetsim {

namespace {

bool is_host(const ecn_pfc_stats_row& r)
{
    return r.dev->kind == device_kind::host;
}

class ecn_pfc_open : public open_record
{
public:
    ecn_pfc_open(record_context& ctx, const std::string& path)
        : m_rec("ecn_pfc_stats", ctx.sc, ctx.fab, path, ctx.clocks.periodic)
    {
    }
    void finish() override { m_rec.finish(); }

private:
    ecn_pfc_stats_record_module m_rec;
};

}  // namespace

const column_table<ecn_pfc_stats_row>& ecn_pfc_stats_columns()
{
    static const column_table<ecn_pfc_stats_row> c = {
        {"job_id", "`Simulation.Name`", UETSIM_CELL(ecn_pfc_stats_row, r.job_id)},
        {"time_utc", "`Simulation.EpochUtc` + simulated time",
         UETSIM_CELL(ecn_pfc_stats_row, r.time_utc)},
        {"sim_time_sec", "simulated time of the row", UETSIM_CELL(ecn_pfc_stats_row, r.sim_time_s)},
        {"node_id", "the device's node id (hosts first)",
         UETSIM_CELL(ecn_pfc_stats_row, r.dev->node_id)},
        {"component_name", "device name: `host3`, `leaf0`",
         UETSIM_CELL(ecn_pfc_stats_row, r.dev->name)},
        {"component_type", "`NIC` for a host, `Switch` for a switch",
         UETSIM_CELL(ecn_pfc_stats_row, is_host(r) ? "NIC" : "Switch")},
        {"ifid", "port number on the device", UETSIM_CELL(ecn_pfc_stats_row, r.ifid)},
        {"uldl", "`ul` for a port leading up the tiers, `dl` otherwise (as nd-stats)",
         UETSIM_CELL(ecn_pfc_stats_row, r.uplink ? "ul" : "dl")},
        {"tier", "device tier", UETSIM_CELL(ecn_pfc_stats_row, r.dev->tier)},
        {"subtier", "4294967295", UETSIM_CELL(ecn_pfc_stats_row, no_subtier)},
        {"priority", "the traffic class", UETSIM_CELL(ecn_pfc_stats_row, r.priority)},
        {"pfcxoff_tx",
         "pause frames the port sent for the class since the start, each refresh "
         "included",
         UETSIM_CELL(ecn_pfc_stats_row, r.xoff_tx)},
        {"pfcxoff_rx", "pause frames (non-zero quanta) the port received for the class",
         UETSIM_CELL(ecn_pfc_stats_row, r.xoff_rx)},
        {"pfcxon_tx", "resume frames (quanta 0) the port sent for the class",
         UETSIM_CELL(ecn_pfc_stats_row, r.xon_tx)},
        {"pfcxon_rx", "resume frames the port received for the class",
         UETSIM_CELL(ecn_pfc_stats_row, r.xon_rx)},
        {"pfc_time_paused_usec",
         "time the port's transmission of the class was held by pauses it received, since the "
         "start, µs",
         UETSIM_CELL(ecn_pfc_stats_row, r.paused_us)},
        {"interval_total_time_xoff_usec", "the same since the previous row, µs",
         UETSIM_CELL(ecn_pfc_stats_row, r.ivl_paused_us)},
        {"interval_max_time_xoff_usec",
         "the longest single pause since the previous row (its part inside the interval), µs",
         UETSIM_CELL(ecn_pfc_stats_row, r.ivl_max_paused_us)},
        {"interval_total_time_xoff_egr_occ_usec",
         "of `interval_total_time_xoff_usec`, the time a frame of the class was waiting in the "
         "port's egress queues (the pause held traffic back), µs",
         UETSIM_CELL(ecn_pfc_stats_row, r.ivl_egr_occ_us)},
        {"interval_max_time_xoff_egr_occ_usec",
         "the longest single stretch of it since the previous row (its part inside the "
         "interval), µs",
         UETSIM_CELL(ecn_pfc_stats_row, r.ivl_max_egr_occ_us)},
        {"total_xoff_time_egr_occ_usec", "the same time since the start, µs",
         UETSIM_CELL(ecn_pfc_stats_row, r.egr_occ_us)},
        {"percent_xon", "share of the interval the class was not paused, %",
         UETSIM_CELL(ecn_pfc_stats_row, r.percent_xon)},
        {"xoff_egr_occ_ratio",
         "`total_xoff_time_egr_occ_usec` / `pfc_time_paused_usec` (0 to 1; 0 before the first "
         "pause)",
         UETSIM_CELL(ecn_pfc_stats_row, r.egr_occ_ratio)},
        {"pkts_ecn_marked",
         "switch port: packets of the class it marked CE since the start; 0 on a NIC",
         UETSIM_CELL(ecn_pfc_stats_row, r.ecn_marked)},
        {"max_time_paused_usec",
         "the pause-storm detector: the longest continuous pause of the class since the start, "
         "the running one included, µs (uetsim addition)",
         UETSIM_CELL(ecn_pfc_stats_row, r.longest_pause_us)},
        {"pfc_watchdog_drops",
         "packets of the class the PFC watchdog dropped on this switch port "
         "(`Switch.PfcWatchdogTimeout`); 0 on a NIC (uetsim addition)",
         UETSIM_CELL(ecn_pfc_stats_row, r.watchdog_drops)},
    };
    return c;
}

const record_def& ecn_pfc_stats_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "ecn-pfc-stats";
        r.enabled_position = 8;
        r.when = "always";
        r.intro =
            "One row per port and traffic class every `Simulation.NDStatsReportInterval`, and a "
            "last set when the\nrun ends, in node id, port and class order: classes 0 to 7 on a "
            "switch port, the classes with a\nreceive pool on a NIC (the NIC's "
            "`IngressPoolAllocationVector` entries above 0: classes 0 and 1 by\ndefault). A row "
            "is written only once one of its counters is non-zero, so a port's rows start with\n"
            "its first PFC frame or ECN mark and continue every interval after. A port's traffic "
            "class is paused\nfrom the arrival of a pause frame naming it until a resume frame "
            "or the end of its pause time\n([buffers-and-pfc.md](buffers-and-pfc.md#pfc)).";
        r.columns = column_docs(ecn_pfc_stats_columns());
        r.notes =
            "Nothing sends pause frames until the switch's shared buffer (or a NIC's receive "
            "pool) asks for them,\nso without them only the ECN columns of switch ports count.";
        r.applies = [](const record_context&) { return true; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<ecn_pfc_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

ecn_pfc_stats_record_module::ecn_pfc_stats_record_module(const sc_core::sc_module_name& name,
                                                         const scenario& sc, fabric& fab,
                                                         const std::string& path,
                                                         record_clock& clock)
    : sc_core::sc_module(name), m_sc(sc), m_fab(fab), m_csv(path, ecn_pfc_stats_columns())
{
    const topology& t = fab.topo();
    for (uint32_t d = 0; d < t.devices.size(); ++d) {
        if (t.devices[d].kind == device_kind::host && fab.nic_count() == 0) continue;  // raw
        for (uint32_t p = 0; p < t.devices[d].ports.size(); ++p) m_ports.push_back({d, p, {}});
    }
    clock.follow([this](double now) {
        write(now);
        m_last_s = now;
    });
}

void ecn_pfc_stats_record_module::write(double now)
{
    const topology& t = m_fab.topo();
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    const uint64_t now_ps = ps_from_seconds(now);
    const uint64_t interval_ps = now_ps - ps_from_seconds(m_last_s);
    for (auto& pr : m_ports) {
        const device& dev = t.devices[pr.device];
        const bool host = dev.kind == device_kind::host;
        pfc_unit& pfc = host ? m_fab.nic_at(pr.device).port.pfc()
                             : m_fab.switch_at(dev.index).port(pr.port).pfc();
        const egress_queue* q = host ? nullptr : &m_fab.switch_at(dev.index).port(pr.port).queue();
        // A NIC's classes are those with a receive pool (IngressPoolAllocationVector).
        const int classes = host ? m_fab.nic_at(pr.device).port.rx_classes() : 8;
        for (int tc = 0; tc < classes; ++tc) {
            const pfc_pause_timer& rx = pfc.pauses();
            const pfc_class_counters& c = pfc.counters(tc);
            ecn_pfc_stats_row r;
            r.job_id = m_sc.simulation.name;
            r.time_utc = utc;
            r.sim_time_s = now;
            r.dev = &dev;
            r.ifid = pr.port;
            r.uplink = dev.ports[pr.port].uplink;
            r.priority = tc;
            r.xoff_tx = c.xoff_tx;
            r.xon_tx = c.xon_tx;
            r.xoff_rx = rx.xoff_rx(tc);
            r.xon_rx = rx.xon_rx(tc);
            const uint64_t paused = rx.paused_ps(tc, now_ps);
            const uint64_t ivl = paused - pr.last_paused_ps[size_t(tc)];
            pr.last_paused_ps[size_t(tc)] = paused;
            const uint64_t ivl_max = pfc.take_pause_interval_max_ps(tc, now_ps);
            r.paused_us = double(paused) / 1e6;
            r.ivl_paused_us = double(ivl) / 1e6;
            r.ivl_max_paused_us = double(ivl_max) / 1e6;
            r.percent_xon = interval_ps > 0 && ivl <= interval_ps
                                ? 100.0 * double(interval_ps - ivl) / double(interval_ps)
                                : 100.0;
            const pfc_egress_blocking& eb = pfc.egress_blocking();
            const uint64_t egr = eb.total_ps(tc, now_ps);
            const uint64_t ivl_egr = egr - pr.last_egr_occ_ps[size_t(tc)];
            pr.last_egr_occ_ps[size_t(tc)] = egr;
            r.egr_occ_us = double(egr) / 1e6;
            r.ivl_egr_occ_us = double(ivl_egr) / 1e6;
            r.ivl_max_egr_occ_us = double(pfc.take_egress_interval_max_ps(tc, now_ps)) / 1e6;
            r.egr_occ_ratio = paused > 0 ? double(egr) / double(paused) : 0.0;
            r.ecn_marked = q ? q->stats().ecn_marked_tc[size_t(tc)] : 0;
            r.longest_pause_us = double(rx.longest_ps(tc, now_ps)) / 1e6;
            r.watchdog_drops = c.watchdog_drops;
            if (r.xoff_tx || r.xon_tx || r.xoff_rx || r.xon_rx || r.ecn_marked || r.watchdog_drops)
                m_csv.write(r);
        }
    }
}

void ecn_pfc_stats_record_module::finish()
{
    const double now = to_seconds(sim_now());
    if (now > m_last_s || m_csv.rows() == 0) write(now);
    m_csv.close();
}

}  // namespace uetsim
