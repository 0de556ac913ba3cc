// nic-pipeline-stats: its column table, registry declaration and writer.
#include "testbench/records/nic_pipeline_record.h"

#include "testbench/nics/uet_nic_entry.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/nic/uet/pipeline_bounds.h"
#include "hw/nic/uet/uet_nic.h"

namespace uetsim {

namespace {

class pipeline_open : public open_record
{
public:
    pipeline_open(record_context& ctx, const std::string& path)
        : m_rec("nic_pipeline_stats", ctx.sc, ctx.fab, path, ctx.clocks.periodic)
    {
    }
    void finish() override { m_rec.finish(); }

private:
    nic_pipeline_record m_rec;
};

double ivl_busy(const nic_pipeline_cells& r)
{
    if (r.interval_s <= 0) return 0;
    return double(r.now->stats().busy_ps - r.last->busy_ps) * 1e-12 / r.interval_s;
}

const context_cache* cache(const nic_pipeline_cells& r)
{
    return r.nic->pdc_contexts();
}
uint64_t hits(const nic_pipeline_cells& r)
{
    return cache(r) ? cache(r)->hits() : 0;
}
uint64_t misses(const nic_pipeline_cells& r)
{
    return cache(r) ? cache(r)->misses() : 0;
}
uint64_t evictions(const nic_pipeline_cells& r)
{
    return cache(r) ? cache(r)->evictions() : 0;
}
const uet_state_stats& state(const nic_pipeline_cells& r)
{
    return *r.nic->state_stats();  // kept from the record's start
}

// The NIC's stages in pipeline order (uet_pipeline_stages' order).
const pipeline_stage& stage_of(const uet_nic& n, int i)
{
    if (i < k_tx_stages) return n.stage(tx_stage(i));
    if (i < k_tx_stages + k_rx_stages) return n.port.stage(rx_stage(i - k_tx_stages));
    return n.ack_build_stage();
}

}  // namespace

const column_table<nic_pipeline_cells>& nic_pipeline_columns()
{
    static const char* const items_doc =
        "items the stage started (packets; doorbells for `Doorbell`; ACKs, NACKs and probe "
        "answers for `AckBuild`) since the start";
    static const column_table<nic_pipeline_cells> c = {
        {"time_utc", "when the row was written", UETSIM_CELL(nic_pipeline_cells, r.time_utc)},
        {"sim_time_sec", "when the row was written", UETSIM_CELL(nic_pipeline_cells, r.sim_time_s)},
        {"component_name", "the NIC's host: `host3`",
         UETSIM_CELL(nic_pipeline_cells, r.component_name)},
        {"node_id", "the host's node id", UETSIM_CELL(nic_pipeline_cells, r.node_id)},
        {"stage", "`Doorbell` … `AckBuild`, in pipeline order (`docs/nic-pipeline.md`)",
         UETSIM_CELL(nic_pipeline_cells, r.stage)},
        {"latency_ns", "`UetNic.<stage>Cycles` × the clock period",
         UETSIM_CELL(nic_pipeline_cells, double(r.now->latency_ps()) * 1e-3)},
        {"items", items_doc, UETSIM_CELL(nic_pipeline_cells, r.now->stats().items)},
        {"ivl_items", "the same, in the interval since the previous row",
         UETSIM_CELL(nic_pipeline_cells, r.now->stats().items - r.last->items)},
        {"ivl_busy_fraction",
         "time the stage could not take an item (an interval per item, plus waits for a PDC "
         "context and stalls) / interval length; an item's share is counted when it enters, so "
         "items still queued in the stage's FIFO can lift it above 1; 0 for a stage without an "
         "interval, waits or stalls",
         UETSIM_CELL(nic_pipeline_cells, ivl_busy(r))},
        {"stall_sec",
         "time the stage held a done item because the next stage's FIFO was full, since the "
         "start",
         UETSIM_CELL(nic_pipeline_cells, double(r.now->stats().stall_ps) * 1e-12)},
        {"ivl_stall_sec", "the same, in the interval",
         UETSIM_CELL(nic_pipeline_cells,
                     double(r.now->stats().stall_ps - r.last->stall_ps) * 1e-12)},
        {"fifo_max", "most items waiting in the stage's input FIFO at once, since the start",
         UETSIM_CELL(nic_pipeline_cells, r.now->stats().max_queue)},
        {"fifo_p99",
         "99th percentile over time of the items waiting in the stage's input FIFO, since the "
         "start: the FIFO holds at most this many for 99% of the time",
         UETSIM_CELL(nic_pipeline_cells, r.now->fifo_p99(r.now_ps))},
        {"read_tags",
         "`UetNic.MaxOutstandingReads` (0: unlimited); this and every column after it is the "
         "NIC's, the same on each of its rows",
         UETSIM_CELL(nic_pipeline_cells, r.nic->read_tags().tags())},
        {"read_tags_in_use_max",
         "most read tags held at once (payload and context reads) since the start (0 without "
         "tags)",
         UETSIM_CELL(nic_pipeline_cells, r.nic->read_tags().max_in_use())},
        {"read_tags_in_use_p99", "99th percentile over time of read tags held, since the start",
         UETSIM_CELL(nic_pipeline_cells, r.nic->read_tags().in_use_p99(r.now_ps))},
        {"mac_rx_drops",
         "frames the MAC receive FIFO (`RxParseQueueDepth`) dropped since the start",
         UETSIM_CELL(nic_pipeline_cells, r.nic->port_stats().rx_drops)},
        {"pdc_context_cache_entries", "`UetNic.PdcContextCacheEntries` (0: no cache)",
         UETSIM_CELL(nic_pipeline_cells,
                     r.nic->pdc_contexts() ? r.nic->pdc_contexts()->entries() : 0u)},
        {"context_hits", "PDC context lookups (a transmit pick, a received frame) that hit",
         UETSIM_CELL(nic_pipeline_cells, hits(r))},
        {"ivl_context_hits", "the same, in the interval",
         UETSIM_CELL(nic_pipeline_cells, hits(r) - r.nic_last->context_hits)},
        {"context_misses",
         "lookups that missed: each a DMA read of `PdcContextBytes` from host memory",
         UETSIM_CELL(nic_pipeline_cells, misses(r))},
        {"ivl_context_misses", "the same, in the interval",
         UETSIM_CELL(nic_pipeline_cells, misses(r) - r.nic_last->context_misses)},
        {"context_evictions",
         "misses that replaced the least recently used context: each a DMA write back",
         UETSIM_CELL(nic_pipeline_cells, evictions(r))},
        {"ivl_context_evictions", "the same, in the interval",
         UETSIM_CELL(nic_pipeline_cells, evictions(r) - r.nic_last->context_evictions)},
        {"open_tx_pdcs_max", "most sending PDCs open at once since the start",
         UETSIM_CELL(nic_pipeline_cells, state(r).open_tx_pdcs_max)},
        {"open_rx_pdcs_max",
         "most receiving PDCs open at once since the start (they stay open once opened): the "
         "`UetNic.SackContexts` slots they held",
         UETSIM_CELL(nic_pipeline_cells, state(r).open_rx_pdcs_max)},
        {"entropy_contexts_max",
         "most `UetNic.EntropyContexts` slots in use at once (open PDC groups) since the start",
         UETSIM_CELL(nic_pipeline_cells, r.nic->entropy_lb().max_in_use())},
        {"outstanding_pkts_max",
         "most data packets sent and not yet acknowledged at once, all PDCs, since the start",
         UETSIM_CELL(nic_pipeline_cells, state(r).outstanding.max())},
        {"outstanding_pkts_p99", "99th percentile over time of the same",
         UETSIM_CELL(nic_pipeline_cells, state(r).outstanding.p99(r.now_ps))},
        {"rtx_queue_max",
         "most data packets lost (trim NACK or timeout) and waiting for retransmission at once, "
         "since the start",
         UETSIM_CELL(nic_pipeline_cells, state(r).rtx_queue.max())},
        {"rtx_queue_p99", "99th percentile over time of the same",
         UETSIM_CELL(nic_pipeline_cells, state(r).rtx_queue.p99(r.now_ps))},
    };
    return c;
}

const record_def& nic_pipeline_record_def()
{
    static const record_def d = [] {
        record_def r;
        r.name = "nic-pipeline-stats";
        r.enabled_position = 7;
        r.on_by_default = false;
        r.when = "with UET NICs (`Nic.Type: uet`) when `Records.Enabled` lists it (not by default)";
        r.intro =
            "Ten rows per UET NIC, one per pipeline stage, every "
            "`Simulation.NDStatsReportInterval`, and a\nlast set when the run ends. uetsim's "
            "own record, for sizing the NIC's micro-architecture\n"
            "([nic-pipeline.md](nic-pipeline.md)). Not in `Records.Enabled`'s default: the "
            "reference's records list\nhas no such record. Like every periodic record it samples "
            "on the\nrecords' one clock, so "
            "turning it on or off leaves every other record byte for byte the same. A\npercentile "
            "(p99) "
            "is over time since the start: the level the quantity stayed at or below for\n99% "
            "of the simulated time.";
        r.columns = column_docs(nic_pipeline_columns());
        r.notes =
            "The stage that binds a run shows `ivl_busy_fraction` near 1 while the stages "
            "upstream of it show\nstall time once their FIFOs fill.";
        r.applies = [](const record_context& ctx) {
            for (size_t h = 0; h < ctx.fab.nic_count(); ++h)
                if (as_uet_nic(ctx.fab.nic_at(h))) return true;
            return false;
        };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<pipeline_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

nic_pipeline_record::nic_pipeline_record(const sc_core::sc_module_name& name, const scenario& sc,
                                         fabric& fab, const std::string& path, record_clock& clock)
    : sc_core::sc_module(name)
    , m_sc(sc)
    , m_fab(fab)
    , m_csv(path, nic_pipeline_columns())
    , m_last(fab.nic_count() * k_uet_pipeline_stages)
    , m_nic_last(fab.nic_count())
{
    for (size_t h = 0; h < fab.nic_count(); ++h)
        if (uet_nic* u = as_uet_nic(fab.nic_at(h))) u->keep_state_stats();
    clock.follow([this](double now) { write(now); });
}

void nic_pipeline_record::write(double now)
{
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    const double interval = now - m_last_row_s;
    const uint64_t now_ps = sim_now_ps();
    for (size_t h = 0; h < m_fab.nic_count(); ++h) {
        const uet_nic* u = as_uet_nic(m_fab.nic_at(h));
        if (!u) continue;
        const auto names = uet_pipeline_stages(uet_nic_config{});
        for (int i = 0; i < k_uet_pipeline_stages; ++i) {
            const pipeline_stage& s = stage_of(*u, i);
            pipeline_stage_stats& last = m_last[h * k_uet_pipeline_stages + i];
            m_csv.write({utc, now, u->basename(), u->node_id(), names[i].name, &s, &last, interval,
                         now_ps, u, &m_nic_last[h]});
            last = s.stats();
        }
        if (const context_cache* c = u->pdc_contexts())
            m_nic_last[h] = {c->hits(), c->misses(), c->evictions()};
    }
    m_last_row_s = now;
}

void nic_pipeline_record::finish()
{
    const double now = to_seconds(sim_now());
    if (m_csv.rows() == 0 || now > m_last_row_s) write(now);
    m_csv.close();
}

}  // namespace uetsim
