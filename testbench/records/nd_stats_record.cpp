// nd-stats: its column table, its registry declaration and the module that samples the ports.
#include "testbench/records/nd_stats_record.h"

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "testbench/records/no_subtier.h"
#include "testbench/traffic/chakra/chakra_replay.h"

namespace uetsim {

namespace {

bool is_host(const nd_stats_row& r)
{
    return r.dev->kind == device_kind::host;
}

class nd_open : public open_record
{
public:
    nd_open(record_context& ctx, const std::string& path)
        : m_rec("nd_stats", ctx.sc, ctx.fab, path, ctx.clocks.periodic,
                ctx.sc.chakra.scale_up_stats_enabled ? ctx.chakra : nullptr)
    {
    }
    void finish() override { m_rec.finish(); }

private:
    nd_stats_record_module m_rec;
};

}  // namespace

const column_table<nd_stats_row>& nd_stats_columns()
{
    static const column_table<nd_stats_row> c = {
        {"time_utc", "see above", UETSIM_CELL(nd_stats_row, r.time_utc)},
        {"sim_time_sec", "simulated time of the row", UETSIM_CELL(nd_stats_row, r.sim_time_s)},
        {"component_name", "device name: `host3`, `leaf0`, `agg5`, `switch0`",
         UETSIM_CELL(nd_stats_row, r.dev->name)},
        {"nd_name",
         "port model: `uetsim::host_port` or `uetsim::switch_port`; `ChakraScaleUpNetDevice` "
         "for a Chakra rank's scale-up device (`Chakra.ScaleUpStatsEnabled`)",
         UETSIM_CELL(nd_stats_row, r.scale_up   ? "ChakraScaleUpNetDevice"
                                   : is_host(r) ? "uetsim::host_port"
                                                : "uetsim::switch_port")},
        {"component_type",
         "`NIC` for a host, `Switch` for a switch, `ChakraScaleUpNic` for a scale-up device",
         UETSIM_CELL(nd_stats_row, r.scale_up   ? "ChakraScaleUpNic"
                                   : is_host(r) ? "NIC"
                                                : "Switch")},
        {"ifid", "port number on the device", UETSIM_CELL(nd_stats_row, r.ifid)},
        {"uldl",
         "`ul` for a port leading up the tiers (a host's port, a leaf's spine ports), `dl` "
         "otherwise",
         UETSIM_CELL(nd_stats_row, r.uplink ? "ul" : "dl")},
        {"node_id", "the device's node id (hosts first)",
         UETSIM_CELL(nd_stats_row, r.dev->node_id)},
        {"tier", "device tier", UETSIM_CELL(nd_stats_row, r.dev->tier)},
        {"subtier", "4294967295", UETSIM_CELL(nd_stats_row, no_subtier)},
        {"total_packets_tx",
         "frames sent by the port since the start, counted as each frame starts serializing",
         UETSIM_CELL(nd_stats_row, r.tx_packets)},
        {"total_packets_rx",
         "frames received by the port since the start, counted when the last bit arrives",
         UETSIM_CELL(nd_stats_row, r.rx_packets)},
        {"total_bytes_tx_GB", "the same in bytes, /10⁹",
         UETSIM_CELL(nd_stats_row, double(r.tx_bytes) / 1e9)},
        {"total_bytes_rx_GB", "the same in bytes, /10⁹",
         UETSIM_CELL(nd_stats_row, double(r.rx_bytes) / 1e9)},
        {"interval_bytes_tx_MB", "bytes sent and received since the previous row, /10⁶",
         UETSIM_CELL(nd_stats_row, r.ivl_tx_bytes / 1e6)},
        {"interval_bytes_rx_MB", "bytes sent and received since the previous row, /10⁶",
         UETSIM_CELL(nd_stats_row, r.ivl_rx_bytes / 1e6)},
        {"tx_rate_Gbps", "interval bytes × 8 / interval length, /10⁹",
         UETSIM_CELL(nd_stats_row, r.tx_gbps)},
        {"rx_rate_Gbps", "interval bytes × 8 / interval length, /10⁹",
         UETSIM_CELL(nd_stats_row, r.rx_gbps)},
        {"tx_link_percent_util", "rate / the link's nominal rate × 100",
         UETSIM_CELL(nd_stats_row, r.tx_gbps / r.link_gbps * 100)},
        {"rx_link_percent_util", "rate / the link's nominal rate × 100",
         UETSIM_CELL(nd_stats_row, r.rx_gbps / r.link_gbps * 100)},
        {"tx_drops",
         "packets dropped at egress admission of this switch port since the start; 0 on hosts",
         UETSIM_CELL(nd_stats_row, r.tx_drops)},
        {"rx_drops",
         "on a switch port, packets dropped at ingress admission of the shared buffer since the "
         "start (a paused port's headroom or the pool full, "
         "[buffers-and-pfc.md](buffers-and-pfc.md)); on a host, packets its NIC dropped on "
         "receipt because their receive pool was full or the MAC's receive FIFO was "
         "([buffers-and-pfc.md](buffers-and-pfc.md#uet-nic-buffers); 0 for a NIC-less raw host); "
         "on a RoCE NIC also the data packets its transport discarded, "
         "`num_rx_drops_no_qp_data` + `num_rx_drops_after_nak` of roce-transport-stats",
         UETSIM_CELL(nd_stats_row, r.rx_drops)},
        {"link_name", "the link on this port, e.g. `host3-leaf0` (uetsim addition)",
         UETSIM_CELL(nd_stats_row, r.link_name)},
        {"link_rate_Gbps", "that link's nominal rate (uetsim addition)",
         UETSIM_CELL(nd_stats_row, r.link_gbps)},
    };
    return c;
}

const record_def& nd_stats_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "nd-stats";
        r.enabled_position = 0;
        r.when = "always";
        r.intro =
            "One row per port of every device (hosts and switches, in node id order, ports in "
            "port order) every\n`Simulation.NDStatsReportInterval` (default 1 ms, 1 µs to 10 s). "
            "The first rows are written at one\ninterval; when the run ends a last set of rows is "
            "written for the partial interval (or, if the run\nended before the first interval, a "
            "first set).";
        r.columns = column_docs(nd_stats_columns());
        r.notes =
            "Because a frame counts as sent when it starts, an interval can include a frame that "
            "finishes in\nthe next one: a port sending back to back can show a little over 100 % "
            "(at 400 Gbps and 1 ms, at\nmost one 4,202-byte frame, +0.008 %).";
        r.applies = [](const record_context&) { return true; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<nd_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

nd_stats_record_module::nd_stats_record_module(const sc_core::sc_module_name& name,
                                               const scenario& sc, fabric& fab,
                                               const std::string& path, record_clock& clock,
                                               const chakra::chakra_replay* scale_up)
    : sc_core::sc_module(name)
    , m_sc(sc)
    , m_fab(fab)
    , m_csv(path, nd_stats_columns())
    , m_scale_up(scale_up && scale_up->scale_up() ? scale_up : nullptr)
{
    const topology& t = fab.topo();
    for (uint32_t d = 0; d < t.devices.size(); ++d)
        for (uint32_t p = 0; p < t.devices[d].ports.size(); ++p) m_ports.push_back({d, p});
    if (m_scale_up)
        for (uint32_t r = 0; r < m_scale_up->ranks(); ++r)
            if (m_scale_up->placement().group[r] >= 0) {
                m_scale_up_ranks.push_back(r);
                m_scale_up_names.push_back("scale-up-group" +
                                           std::to_string(m_scale_up->placement().group[r]));
                m_scale_up_last.push_back({0, 0});
            }
    clock.follow([this](double now) {
        write(now, now - m_last_s);
        m_last_s = now;
    });
}

void nd_stats_record_module::write(double now, double interval)
{
    const topology& t = m_fab.topo();
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    for (auto& pr : m_ports) {
        const device& dev = t.devices[pr.device];
        const auto& ref = dev.ports[pr.port];
        link& l = m_fab.link_at(ref.link);
        uint64_t txp, rxp, txb, rxb, txd = 0, rxd = 0;
        if (dev.kind == device_kind::host) {
            const host_port_stats h = m_fab.host_stats(pr.device);
            txp = h.tx_packets, txb = h.tx_bytes, rxp = h.rx_packets, rxb = h.rx_bytes,
            rxd = h.rx_drops;
            // A NIC's type says what else counts (RoCE: its transport's discards of data).
            if (pr.device < m_fab.nic_count()) rxd = m_fab.nic_at(pr.device).nd_rx_drops();
        } else {
            switch_port& sp = m_fab.switch_at(dev.index).port(pr.port);
            txp = sp.tx.packets(), txb = sp.tx.bytes();
            rxp = sp.counters().rx_packets, rxb = sp.counters().rx_bytes;
            txd = sp.counters().tx_drops, rxd = sp.counters().rx_drops;
        }
        const double ivl_tx = double(txb - pr.last_tx_bytes),
                     ivl_rx = double(rxb - pr.last_rx_bytes);
        pr.last_tx_bytes = txb, pr.last_rx_bytes = rxb;
        const double tx_gbps = interval > 0 ? ivl_tx * 8 / interval / 1e9 : 0.0;
        const double rx_gbps = interval > 0 ? ivl_rx * 8 / interval / 1e9 : 0.0;
        m_csv.write({utc, now, &dev, pr.port, ref.uplink, txp, rxp, txb, rxb, ivl_tx, ivl_rx,
                     tx_gbps, rx_gbps, txd, rxd, t.links[ref.link].name,
                     l.nominal_rate_bps() / 1e9});
    }
    // A rank's scale-up device, on its host, after the ports: its packets and their bytes with
    // headers, utilization against the group's bandwidth.
    for (size_t i = 0; i < m_scale_up_ranks.size(); ++i) {
        const uint32_t r = m_scale_up_ranks[i];
        const chakra::scale_up_counters& c = m_scale_up->scale_up()->counters(r);
        const device& dev = t.devices[m_scale_up->placement().host[r]];
        auto& last = m_scale_up_last[i];
        const double ivl_tx = double(c.tx_bytes - last.first),
                     ivl_rx = double(c.rx_bytes - last.second);
        last = {c.tx_bytes, c.rx_bytes};
        const double tx_gbps = interval > 0 ? ivl_tx * 8 / interval / 1e9 : 0.0;
        const double rx_gbps = interval > 0 ? ivl_rx * 8 / interval / 1e9 : 0.0;
        nd_stats_row row{utc,
                         now,
                         &dev,
                         uint32_t(dev.ports.size()),
                         true,
                         c.tx_packets,
                         c.rx_packets,
                         c.tx_bytes,
                         c.rx_bytes,
                         ivl_tx,
                         ivl_rx,
                         tx_gbps,
                         rx_gbps,
                         0,
                         0,
                         m_scale_up_names[i],
                         m_scale_up->scale_up()->bandwidth_gbps(r)};
        row.scale_up = true;
        m_csv.write(row);
    }
}

void nd_stats_record_module::finish()
{
    const double now = to_seconds(sim_now());
    if (m_csv.rows() == 0 || now > m_last_s) write(now, now - m_last_s);
    m_csv.close();
}

}  // namespace uetsim
