// scala-switch-agg-buff-stats and scala-switch-buff-stats: column tables, registry declarations
// and the writers that read the switches' occupancy series.
#include "testbench/records/switch_buffer_records.h"

#include <algorithm>
#include <string_view>

#include "testbench/elab/fabric.h"

namespace uetsim {

namespace {

struct buff_row
{
    std::string_view time_utc;
    double sim_time_s = 0;
    const device* dev = nullptr;
    std::string_view buff_id;
    uint16_t ifid = 0;
    std::string_view uldl;
    uint8_t pool = 0;
    uint64_t limit = 0;
    const occupancy_series* s = nullptr;
    bool clamp = false;  // the per-port record clamps its percentages at 100
};

double pct(const buff_row& r, double bytes)
{
    if (!r.limit) return 0;
    const double v = 100.0 * bytes / double(r.limit);
    return r.clamp ? std::min(v, 100.0) : v;
}

const char* const when_doc = "when the row was written: the end of the interval";
const char* const count_doc =
    "samples in the interval: one each time the buffer's bytes changed (a packet charged or "
    "released)";
const char* const min_doc =
    "least bytes held in the interval (the value held throughout when `ivl_count` is 0)";
const char* const max_doc = "greatest bytes held in the interval";
const char* const mean_doc = "mean of the interval's samples, bytes";

const column_table<buff_row>& agg_columns()
{
    static const column_table<buff_row> c = {
        {"time_utc", when_doc, UETSIM_CELL(buff_row, r.time_utc)},
        {"sim_time_sec", when_doc, UETSIM_CELL(buff_row, r.sim_time_s)},
        {"component_name", "switch name", UETSIM_CELL(buff_row, r.dev->name)},
        {"tier", "network tier of the switch", UETSIM_CELL(buff_row, r.dev->tier)},
        {"node_id", "the switch", UETSIM_CELL(buff_row, r.dev->node_id)},
        {"buff_id",
         "`egressQueue` (the egress queues of the pool, summed over the ports of `uldl`), "
         "`ingressUsage` (the ports' ingress occupancy in the pool, headroom excluded, summed "
         "likewise) or `sharedBuffer` (the pool's ingress total)",
         UETSIM_CELL(buff_row, r.buff_id)},
        {"uldl", "`ul` (uplink ports), `dl` (downlink ports) or `-` (`sharedBuffer`)",
         UETSIM_CELL(buff_row, r.uldl)},
        {"pool_num", "buffer pool number", UETSIM_CELL(buff_row, +r.pool)},
        {"total_bytes", "bytes that have entered this buffer since the start",
         UETSIM_CELL(buff_row, r.s->total_bytes)},
        {"buffer_limit", "the pool's size, bytes (after the remainder moved to the last pool)",
         UETSIM_CELL(buff_row, r.limit)},
        {"ivl_count", count_doc, UETSIM_CELL(buff_row, r.s->count)},
        {"ivl_min_bytes", min_doc, UETSIM_CELL(buff_row, r.s->ivl_min())},
        {"ivl_max_bytes", max_doc, UETSIM_CELL(buff_row, r.s->ivl_max())},
        {"ivl_mean_bytes", mean_doc, UETSIM_CELL(buff_row, r.s->ivl_mean())},
        {"ivl_max_pct_util",
         "`ivl_max_bytes` / `buffer_limit` × 100 (a percent, as the "
         "reference's example row shows)",
         UETSIM_CELL(buff_row, pct(r, double(r.s->ivl_max())))},
        {"ivl_mean_pct_util", "`ivl_mean_bytes` / `buffer_limit` × 100",
         UETSIM_CELL(buff_row, pct(r, r.s->ivl_mean()))},
    };
    return c;
}

const column_table<buff_row>& port_columns()
{
    static const column_table<buff_row> c = {
        {"time_utc", when_doc, UETSIM_CELL(buff_row, r.time_utc)},
        {"sim_time_sec", when_doc, UETSIM_CELL(buff_row, r.sim_time_s)},
        {"component_name", "switch name", UETSIM_CELL(buff_row, r.dev->name)},
        {"tier", "network tier of the switch", UETSIM_CELL(buff_row, r.dev->tier)},
        {"node_id", "the switch", UETSIM_CELL(buff_row, r.dev->node_id)},
        {"buff_id",
         "`egressQueue` (the port's egress queue in the pool), `ingressUsage` (its ingress "
         "occupancy in the pool) or `hdrm` (its headroom in the pool)",
         UETSIM_CELL(buff_row, r.buff_id)},
        {"ifid", "the port this row describes", UETSIM_CELL(buff_row, r.ifid)},
        {"uldl", "`ul` (towards a higher tier) or `dl`", UETSIM_CELL(buff_row, r.uldl)},
        {"pool_num", "buffer pool number", UETSIM_CELL(buff_row, +r.pool)},
        {"buff_limit",
         "this port and pool's own limit, bytes: `egressQueue` the pool's static egress limit "
         "(the whole pool under `LossyAlpha` > 0), `ingressUsage` Xoff in a pool with a lossless "
         "class and the pool's size otherwise, `hdrm` `HeadRoomPerPortLimit` (0 in a pool "
         "without a lossless class)",
         UETSIM_CELL(buff_row, r.limit)},
        {"ivl_count", count_doc, UETSIM_CELL(buff_row, r.s->count)},
        {"ivl_min_bytes", min_doc, UETSIM_CELL(buff_row, r.s->ivl_min())},
        {"ivl_max_bytes", max_doc, UETSIM_CELL(buff_row, r.s->ivl_max())},
        {"ivl_mean_bytes", mean_doc, UETSIM_CELL(buff_row, r.s->ivl_mean())},
        {"ivl_max_pct_util",
         "`ivl_max_bytes` / `buff_limit` × 100, clamped at 100 (0 when the "
         "limit is 0)",
         UETSIM_CELL(buff_row, pct(r, double(r.s->ivl_max())))},
        {"ivl_mean_pct_util", "`ivl_mean_bytes` / `buff_limit` × 100, clamped at 100",
         UETSIM_CELL(buff_row, pct(r, r.s->ivl_mean()))},
    };
    return c;
}

class buff_open : public open_record
{
public:
    buff_open(record_context& ctx, const std::string& path, bool per_port)
        : m_sc(ctx.sc)
        , m_fab(ctx.fab)
        , m_per_port(per_port)
        , m_csv(path, per_port ? port_columns() : agg_columns())
    {
        for (size_t s = 0; s < m_fab.switch_count(); ++s)
            m_fab.switch_at(s).sample_buffer_occupancy(!per_port, per_port);
        ctx.clocks.buffer_stats.follow([this](double now) { write(now); });
    }
    void finish() override { m_csv.close(); }

private:
    void write(double now)
    {
        const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
        const topology& t = m_fab.topo();
        for (size_t s = 0; s < m_fab.switch_count(); ++s) {
            fabric_switch& sw = m_fab.switch_at(s);
            const device& dev = t.devices[sw.node_id()];
            const buffer_occupancy& o = *sw.buffers().occupancy();
            const shared_buffer_layout& l = sw.buffers().layout();
            if (m_per_port)
                write_ports(utc, now, dev, o, l, sw.port_count());
            else
                write_aggregate(utc, now, dev, o, l, sw.port_count());
        }
        for (size_t s = 0; s < m_fab.switch_count(); ++s) {
            buffer_occupancy& o = m_fab.switch_at(s).buffer_occupancy_series();
            if (m_per_port)
                o.start_port_interval();
            else
                o.start_aggregate_interval();
        }
    }

    void write_aggregate(const std::string& utc, double now, const device& dev,
                         const buffer_occupancy& o, const shared_buffer_layout& l, size_t ports)
    {
        bool has_ul = false, has_dl = false;
        for (uint16_t p = 0; p < ports; ++p) (o.uplink(p) ? has_ul : has_dl) = true;
        for (uint8_t pool = 0; pool < shared_buffer_pools; ++pool) {
            if (!l.pools[pool].allocated) continue;
            const uint64_t lim = l.pools[pool].bytes;
            auto put = [&](buffer_occupancy::aggregate a, std::string_view id,
                           std::string_view uldl) {
                m_csv.write(
                    {utc, now, &dev, id, 0, uldl, pool, lim, &o.aggregate_series(a, pool), false});
            };
            if (has_ul) put(buffer_occupancy::egress_ul, "egressQueue", "ul");
            if (has_dl) put(buffer_occupancy::egress_dl, "egressQueue", "dl");
            if (has_ul) put(buffer_occupancy::ingress_ul, "ingressUsage", "ul");
            if (has_dl) put(buffer_occupancy::ingress_dl, "ingressUsage", "dl");
            put(buffer_occupancy::shared, "sharedBuffer", "-");
        }
    }

    void write_ports(const std::string& utc, double now, const device& dev,
                     const buffer_occupancy& o, const shared_buffer_layout& l, size_t ports)
    {
        for (uint16_t p = 0; p < ports; ++p) {
            const std::string_view uldl = o.uplink(p) ? "ul" : "dl";
            for (uint8_t pool = 0; pool < shared_buffer_pools; ++pool) {
                const shared_buffer_pool& bp = l.pools[pool];
                if (!bp.allocated) continue;
                const uint64_t in_lim = bp.lossless_classes ? l.xoff_bytes : bp.bytes;
                m_csv.write({utc, now, &dev, "egressQueue", p, uldl, pool,
                             bp.static_egress_limit_bytes,
                             &o.port_series(p, pool, buffer_occupancy::port_egress), true});
                m_csv.write({utc, now, &dev, "ingressUsage", p, uldl, pool, in_lim,
                             &o.port_series(p, pool, buffer_occupancy::port_ingress), true});
                m_csv.write({utc, now, &dev, "hdrm", p, uldl, pool, bp.headroom_limit_bytes,
                             &o.port_series(p, pool, buffer_occupancy::port_headroom), true});
            }
        }
    }

    const scenario& m_sc;
    fabric& m_fab;
    bool m_per_port;
    record_csv<buff_row> m_csv;
};

}  // namespace

const record_def& switch_agg_buff_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "scala-switch-agg-buff-stats";
        r.enabled_position = 8;
        r.when = "always (in the default `Records.Enabled`)";
        r.intro =
            "Per switch and allocated pool, every `Switch.BufferStatsReportInterval` (default "
            "1 ms), five rows: `egressQueue` `ul` and `dl`, `ingressUsage` `ul` and `dl` (a "
            "switch without uplink, or downlink, ports leaves those rows out) and `sharedBuffer` "
            "`-`. Rows are ordered by switch, then pool. Each buffer is sampled every time its "
            "bytes change, so `ivl_count` counts packet events, as the reference's example row "
            "suggests; the aggregate of several ports is their sum.";
        r.columns = column_docs(agg_columns());
        r.applies = [](const record_context&) { return true; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<buff_open>(ctx, path, false);
        };
        return r;
    }();
    return d;
}

const record_def& switch_buff_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "scala-switch-buff-stats";
        r.when = "with `Switch.ReportPerPortBufferStats: true` (default false)";
        r.intro =
            "Per switch port, allocated pool and buffer (`egressQueue`, `ingressUsage`, `hdrm`), "
            "every `Switch.BufferStatsReportInterval`; ordered by switch, port, pool. Sampled at "
            "every change, as the aggregate record. Large: 3 rows per port and pool.";
        r.columns = column_docs(port_columns());
        r.applies = [](const record_context& ctx) {
            return ctx.sc.sw.buffer.report_per_port_buffer_stats;
        };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<buff_open>(ctx, path, true);
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
