#include "testbench/records/pcie_records.h"

#include <algorithm>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

namespace uetsim {

namespace {

uint64_t purpose_count(const pcie_link::side_stats& s, pcie_purpose p)
{
    return s.transactions[size_t(p)];
}

class pcie_open : public open_record
{
public:
    pcie_open(record_context& ctx, const std::string& path)
        : m_rec("pcie_stats", ctx.sc, ctx.fab, path, ctx.clocks.periodic)
    {
    }
    void finish() override { m_rec.finish(); }

private:
    pcie_records m_rec;
};

}  // namespace

const column_table<pcie_stats_row>& pcie_stats_columns()
{
    static const char* const tx_doc =
        "bytes on the link, `Pcie.TlpOverhead` (34 bytes) per transfer included: a 4,096-byte "
        "write is 4,368";
    static const char* const payload_doc =
        "the same without the overhead: data, and `Pcie.ReadRequestSize` (64 bytes) per read "
        "request";
    static const char* const transfers_doc =
        "transfers (TLPs) put on the link since the start / since the previous row: ⌈payload / "
        "`Pcie.MaxPayloadSize`⌉ per transaction, at least 1";
    static const char* const host_doc =
        "host side: MMIO writes of doorbells and of connection-management messages since the "
        "start; 0 on the NIC side";
    static const char* const nic_doc =
        "NIC side: writes of received data, of completion queue entries and of received "
        "connection-management messages; 0 on the host side";
    static const char* const wait_doc =
        "time, in ns, the end's lanes stood still with a TLP ready because the other end had "
        "no credits free for it, as far as it has passed by the row's time (since the start / "
        "since the previous row); 0 unless `Pcie.Latency` or `Pcie.CreditReturnLatency` is above "
        "0. A "
        "direction held by credits moves credits x 16 B per credit round trip (TLP time + "
        "`Pcie.Latency` + `Pcie.CreditReturnLatency`)";
    static const auto waits_text = [](const char* tlps, const char* type) {
        const std::string t = type;
        return "cumulative count of " + std::string(tlps) +
               " that waited for the other end's credits: side `nic` for the host's "
               "`Pcie.HostSide" +
               t + "HeaderCredits` or `Pcie.HostSide" + t +
               "DataCredits`, side `host` for the NIC's `Pcie.NicSide" + t +
               "HeaderCredits` or `Pcie.NicSide" + t + "DataCredits`";
    };
    static const std::string posted_doc = waits_text("posted TLPs (writes)", "Posted");
    static const std::string non_posted_doc =
        waits_text("non-posted TLPs (read requests, side `nic` only)", "NonPosted");
    static const std::string completion_doc =
        waits_text("completions (fetched payload, side `host` only)", "Completion");
    static const column_table<pcie_stats_row> c = {
        {"time_utc", "when the row was written", UETSIM_CELL(pcie_stats_row, r.time_utc)},
        {"sim_time_sec", "when the row was written", UETSIM_CELL(pcie_stats_row, r.sim_time_s)},
        {"component_name", "the host: `host3`", UETSIM_CELL(pcie_stats_row, r.host->name)},
        {"node_id", "the host's node id", UETSIM_CELL(pcie_stats_row, r.host->node_id)},
        {"side", "`nic` or `host`: the end that transmits",
         UETSIM_CELL(pcie_stats_row, r.nic_side ? "nic" : "host")},
        {"lanes", "`Pcie.NicSideLaneCount` or `Pcie.HostSideLaneCount`",
         UETSIM_CELL(pcie_stats_row, r.lanes)},
        {"lane_rate_Gbps", "`Pcie.NicSideLaneBps` or `Pcie.HostSideLaneBps`, /10⁹",
         UETSIM_CELL(pcie_stats_row, r.lane_bps / 1e9)},
        {"link_rate_Gbps", "lanes × lane rate: the direction's rate (504.32 at the defaults)",
         UETSIM_CELL(pcie_stats_row, r.link_bps / 1e9)},
        {"total_transfers_tx", transfers_doc, UETSIM_CELL(pcie_stats_row, r.stats->transfers)},
        {"ivl_transfers_tx", transfers_doc, UETSIM_CELL(pcie_stats_row, r.ivl_transfers)},
        {"total_bytes_tx", tx_doc, UETSIM_CELL(pcie_stats_row, r.stats->link_bytes)},
        {"ivl_bytes_tx", tx_doc, UETSIM_CELL(pcie_stats_row, r.ivl_bytes)},
        {"total_payload_bytes_tx", payload_doc,
         UETSIM_CELL(pcie_stats_row, r.stats->payload_bytes)},
        {"ivl_payload_bytes_tx", payload_doc, UETSIM_CELL(pcie_stats_row, r.ivl_payload_bytes)},
        {"tx_rate_Gbps",
         "bits that crossed the lanes in the interval / interval length, /10⁹ (lane time × link "
         "rate)",
         UETSIM_CELL(pcie_stats_row, r.tx_rate_gbps)},
        {"tx_percent_util",
         "time the lanes were transmitting in the interval / interval length × 100 (the latency "
         "`Pcie.Latency` is not lane time)",
         UETSIM_CELL(pcie_stats_row, r.tx_percent_util)},
        {"doorbells", host_doc,
         UETSIM_CELL(pcie_stats_row, purpose_count(*r.stats, pcie_purpose::doorbell))},
        {"connection_sends", host_doc,
         UETSIM_CELL(pcie_stats_row, purpose_count(*r.stats, pcie_purpose::connection_send))},
        {"payload_fetches",
         "NIC side: read requests sent; host side: read completions sent (one per request, "
         "whatever its number of transfers)",
         UETSIM_CELL(pcie_stats_row, purpose_count(*r.stats, pcie_purpose::payload_fetch))},
        {"data_writes", nic_doc,
         UETSIM_CELL(pcie_stats_row, purpose_count(*r.stats, pcie_purpose::data_write))},
        {"completion_writes", nic_doc,
         UETSIM_CELL(pcie_stats_row, purpose_count(*r.stats, pcie_purpose::completion_write))},
        {"connection_writes", nic_doc,
         UETSIM_CELL(pcie_stats_row, purpose_count(*r.stats, pcie_purpose::connection_write))},
        {"total_credit_wait_ns", wait_doc,
         UETSIM_CELL(pcie_stats_row, double(r.credit_wait_ps) / 1e3)},
        {"ivl_credit_wait_ns", wait_doc,
         UETSIM_CELL(pcie_stats_row, double(r.ivl_credit_wait_ps) / 1e3)},
        {"posted_credit_waits", posted_doc.c_str(),
         UETSIM_CELL(pcie_stats_row, r.stats->credit_waits[size_t(pcie_tlp_type::posted)])},
        {"non_posted_credit_waits", non_posted_doc.c_str(),
         UETSIM_CELL(pcie_stats_row, r.stats->credit_waits[size_t(pcie_tlp_type::non_posted)])},
        {"completion_credit_waits", completion_doc.c_str(),
         UETSIM_CELL(pcie_stats_row, r.stats->credit_waits[size_t(pcie_tlp_type::completion)])},
    };
    return c;
}

const record_def& pcie_stats_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "pcie-stats";
        r.enabled_position = 6;
        // Off by default, as the reference's EnablePCIeStatsLogging: Records.Enabled lists it
        // to write it.
        r.on_by_default = false;
        r.when =
            "with NIC hosts (`Nic.Type: uet` or `roce`) when `Records.Enabled` lists it (default "
            "off)";
        r.intro =
            "Two rows per NIC host every `Simulation.NDStatsReportInterval`, one for each end "
            "of the host's PCIe link,\nand a last set of rows when the run ends (or, if the run "
            "ended before the first interval, a first\nset). Rows are in host order, side `nic` "
            "then side `host`. NIC-less raw hosts\n(`Nic.Type: raw`) have no PCIe link, and the "
            "record is not written. The reference\nmodel's documentation does not list this "
            "record's columns; these are uetsim's own.\n\nA row describes what one end "
            "*transmits*: side `nic` is the NIC-to-host direction (the NIC's\npayload-fetch "
            "read requests, received data, completion entries and received\n"
            "connection-management messages, all written into host memory), side `host` the "
            "host-to-NIC\ndirection (doorbells, connection-management sends, and the read "
            "completions that carry fetched\npayload). [host-and-pcie.md](host-and-pcie.md) "
            "describes the link's timing.";
        r.columns = column_docs(pcie_stats_columns());
        r.notes =
            "The transaction counts (`doorbells` to `connection_writes`) are cumulative; they "
            "have no `ivl_`\ntwin. Flows messages are posted to the NIC directly, so they make "
            "no doorbells and no completion\nwrites; the RDMA application makes both.\n\n"
            "Transfers and bytes are counted when a transaction is queued on the lanes. The NIC "
            "fetches\npayload ahead of sending it, as far as its egress data pool "
            "(`UetNic.EgressTotalBufferSize` x `UetNic.EgressPoolAllocationVector`)\nallows, so "
            "these counts run ahead of the lanes by up "
            "to a few microseconds of queued work.\n`tx_rate_Gbps` and `tx_percent_util` count "
            "only the lane time that has passed by the row's\ntime, so they never exceed the "
            "link rate or 100 %. Over the run, each interval's utilisation\ntimes its length "
            "adds up to the lanes' busy time.";
        r.applies = [](const record_context& ctx) { return ctx.fab.nic_count() > 0; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<pcie_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

pcie_records::pcie_records(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab,
                           const std::string& path, record_clock& clock)
    : sc_core::sc_module(name)
    , m_sc(sc)
    , m_fab(fab)
    , m_csv(path, pcie_stats_columns())
    , m_last(fab.nic_count())
{
    if (fab.nic_count())
        clock.follow([this](double now) {
            write(now, now - m_last_row_s);
            m_last_row_s = now;
        });
}

void pcie_records::write(double now, double interval)
{
    const topology& t = m_fab.topo();
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    for (size_t h = 0; h < m_fab.nic_count(); ++h) {
        const device& dev = t.devices[h];
        pcie_link& pl = m_fab.pcie_at(h);
        const pcie_config& cfg = pl.config();
        for (pcie_link::side s : {pcie_link::nic_side, pcie_link::host_side}) {
            const pcie_link::side_stats& st = pl.stats(s);
            last_values& l = m_last[h][s];
            const uint64_t ivl_transfers = st.transfers - l.transfers;
            const uint64_t ivl_bytes = st.link_bytes - l.link_bytes;
            const uint64_t ivl_payload = st.payload_bytes - l.payload_bytes;

            // Rate and utilisation count only what has crossed by now: the NIC issues fetches
            // ahead, so the counters run ahead of the lanes by the queued work.
            const uint64_t waits_ahead = pl.waits_ahead_ps(s);
            const uint64_t queued_busy = pl.queued_ps(s) - waits_ahead;
            const uint64_t crossed_busy = st.busy_ps - std::min(st.busy_ps, queued_busy);
            const uint64_t waited = st.credit_wait_ps - waits_ahead;
            const uint64_t ivl_wait = waited - std::min(waited, l.credit_wait_ps);
            const uint64_t ivl_busy = crossed_busy - std::min(crossed_busy, l.busy_ps);
            l = {st.transfers, st.link_bytes, st.payload_bytes, crossed_busy, waited};
            const bool nic = s == pcie_link::nic_side;
            const uint32_t lanes = nic ? cfg.nic_side_lanes : cfg.host_side_lanes;
            const double lane_bps = nic ? cfg.nic_side_lane_bps : cfg.host_side_lane_bps;
            const double rate_gbps =
                interval > 0 ? double(ivl_busy) * 1e-12 * pl.rate_bps(s) / interval / 1e9 : 0.0;
            const double util = interval > 0 ? double(ivl_busy) / (interval * 1e12) * 100 : 0.0;
            m_csv.write({utc, now, &dev, nic, lanes, lane_bps, pl.rate_bps(s), &st, ivl_transfers,
                         ivl_bytes, ivl_payload, waited, ivl_wait, rate_gbps, util});
        }
    }
}

void pcie_records::finish()
{
    const double now = to_seconds(sim_now());
    if (m_fab.nic_count() && (m_csv.rows() == 0 || now > m_last_row_s))
        write(now, now - m_last_row_s);
    m_csv.close();
}

}  // namespace uetsim
