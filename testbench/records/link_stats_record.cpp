// link-stats: its column table, its registry declaration and the sampler that reads each link's
// ends and counters.
#include "testbench/records/link_stats_record.h"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "hw/kernel/sim_clock.h"
#include "testbench/elab/fabric.h"
#include "testbench/records/periodic_open_record.h"

namespace uetsim {

namespace {

class link_stats_open : public periodic_open_record<link_stats_row>
{
public:
    link_stats_open(record_context& ctx, const std::string& path)
        : periodic_open_record(ctx.clocks.periodic, path, link_stats_columns())
        , m_sc(ctx.sc)
        , m_fab(ctx.fab)
        , m_last_bytes(2 * ctx.fab.link_count(), 0)
    {
    }

private:
    // What the port at one end of a link started: its transmitter's counts.
    void sent(uint32_t device_index, uint32_t port, uint64_t& frames, uint64_t& bytes) const
    {
        const device& d = m_fab.topo().devices[device_index];
        if (d.kind == device_kind::host) {
            const host_port_stats h = m_fab.host_stats(d.index);
            frames = h.tx_packets, bytes = h.tx_bytes;
        } else {
            const switch_port& sp = m_fab.switch_at(d.index).port(port);
            frames = sp.tx.packets(), bytes = sp.tx.bytes();
        }
    }

    // The CBFC unit of the port at one end of a link (nullptr: no CBFC there).
    cbfc_unit* cbfc_of(uint32_t device_index, uint32_t port) const
    {
        const device& d = m_fab.topo().devices[device_index];
        if (d.kind == device_kind::host)
            return m_fab.nic_at(d.index).port.cbfc();  // CBFC needs NICs (the rules)
        return m_fab.switch_at(d.index).port(port).cbfc();
    }

    // Per VC: the stall time since the start, the credits outstanding in the interval.
    static void cbfc_cells(link_stats_row& r, cbfc_unit& u, uint64_t now_ps)
    {
        r.cbfc_updates = u.returns().updates() + u.syncs_sent();
        cbfc_credits& c = u.credits();
        for (int v = 0; v < u.settings().vcs(); ++v) {
            const char* sep = v ? ";" : "";
            const cbfc_credits::range out = c.take_interval(v);
            r.cbfc_stall_usec += sep + fmt::format("{:.6f}", double(c.stall_ps(v, now_ps)) / 1e6);
            r.cbfc_outstanding_min += sep + std::to_string(out.min);
            r.cbfc_outstanding_max += sep + std::to_string(out.max);
        }
    }

    void write(double now) override
    {
        const topology& t = m_fab.topo();
        const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
        const double interval = now - m_last_s;
        for (size_t i = 0; i < t.links.size(); ++i) {
            const link_spec& l = t.links[i];
            for (int d = 0; d < 2; ++d) {
                link_stats_row r;
                r.time_utc = utc;
                r.sim_time_s = now;
                r.spec = &l;
                r.lk = &m_fab.link_at(i);
                r.dir = link::direction(d);
                const bool a = d == link::a_to_b;
                r.from = &t.devices[a ? l.a_device : l.b_device];
                r.to = &t.devices[a ? l.b_device : l.a_device];
                sent(a ? l.a_device : l.b_device, a ? l.a_port : l.b_port, r.frames, r.bytes);
                if (l.cbfc.enabled)
                    if (cbfc_unit* u =
                            cbfc_of(a ? l.a_device : l.b_device, a ? l.a_port : l.b_port))
                        cbfc_cells(r, *u, sim_now_ps());
                uint64_t& last = m_last_bytes[2 * i + size_t(d)];
                r.interval_bytes = r.bytes - last;
                r.interval_s = interval;
                last = r.bytes;
                if (r.lk->llr()) {
                    r.llr = r.lk->llr_stats(r.dir);
                    r.llr_buffer_peak = m_fab.link_at(i).llr_take_peak(r.dir);
                }
                m_csv.write(r);
            }
        }
        m_last_s = now;
    }

    const scenario& m_sc;
    fabric& m_fab;
    std::vector<uint64_t> m_last_bytes;  // per link and direction, at the previous row
    double m_last_s = 0;
};

const char* direction_name(link::direction d)
{
    return d == link::a_to_b ? "a_to_b" : "b_to_a";
}

}  // namespace

const column_table<link_stats_row>& link_stats_columns()
{
    static const column_table<link_stats_row> c = {
        {"time_utc", "see above", UETSIM_CELL(link_stats_row, r.time_utc)},
        {"sim_time_sec", "simulated time of the row", UETSIM_CELL(link_stats_row, r.sim_time_s)},
        {"link_name", "the link, e.g. `leaf0-spine2` (as in nd-stats and topology-report)",
         UETSIM_CELL(link_stats_row, r.spec->name)},
        {"direction", "`a_to_b` (from the end nearer the hosts, A, up to B) or `b_to_a`",
         UETSIM_CELL(link_stats_row, direction_name(r.dir))},
        {"from", "the sending device, e.g. `leaf0`", UETSIM_CELL(link_stats_row, r.from->name)},
        {"to", "the receiving device", UETSIM_CELL(link_stats_row, r.to->name)},
        {"rate_Gbps", "the link's nominal rate, /10⁹ bit/s",
         UETSIM_CELL(link_stats_row, r.lk->nominal_rate_bps() / 1e9)},
        {"frames",
         "frames the sending port started on this direction since the start (nd-stats' "
         "`total_packets_tx` of that port)",
         UETSIM_CELL(link_stats_row, r.frames)},
        {"bytes", "their bytes on the wire (Ethernet frame with FCS) since the start",
         UETSIM_CELL(link_stats_row, r.bytes)},
        {"interval_bytes", "the same since the previous row",
         UETSIM_CELL(link_stats_row, r.interval_bytes)},
        {"tx_rate_Gbps", "interval bytes × 8 / interval length, /10⁹",
         UETSIM_CELL(link_stats_row,
                     r.interval_s > 0 ? double(r.interval_bytes) * 8 / r.interval_s / 1e9 : 0.0)},
        {"corrupted",
         "frames that arrived with a bit error (`Link.BitErrorRate`) and failed the receiving "
         "end's FCS check since the start (the manifest's `fcs_errors`)",
         UETSIM_CELL(link_stats_row, r.lk->fcs_errors(r.dir))},
        {"lost", "frames lost on a down direction or to a `Faults` loss since the start",
         UETSIM_CELL(link_stats_row, r.lk->frames_lost(r.dir))},
        {"llr",
         "1 when the link runs Link Level Retry (`Link.Llr`), else 0; the `llr_` columns "
         "are 0 without it",
         UETSIM_CELL(link_stats_row, r.lk->llr() ? 1 : 0)},
        {"llr_replays",
         "LLR replays the sender started since the start: one per LLR_NACK received and one "
         "per replay timer expiry",
         UETSIM_CELL(link_stats_row, r.llr.replays)},
        {"llr_timer_replays", "of which started by the replay timer (`Link.LlrReplayTimeout`)",
         UETSIM_CELL(link_stats_row, r.llr.timer_replays)},
        {"llr_replayed_frames", "frames sent again from the replay buffer since the start",
         UETSIM_CELL(link_stats_row, r.llr.replayed_frames)},
        {"llr_replayed_bytes", "their bytes on the wire (not in `bytes`)",
         UETSIM_CELL(link_stats_row, r.llr.replayed_bytes)},
        {"llr_replay_buffer_peak_bytes",
         "the most bytes the sender's replay buffer held during the interval",
         UETSIM_CELL(link_stats_row, r.llr_buffer_peak)},
        {"llr_stall_sec",
         "time the sending port had a frame waiting for room in the replay buffer, since the "
         "start, s",
         UETSIM_CELL(link_stats_row, double(r.llr.stall_ps) * 1e-12)},
        {"llr_control_frames",
         "LLR_ACK and LLR_NACK control ordered sets sent on this direction's wire since the start "
         "(they answer the other direction's frames)",
         UETSIM_CELL(link_stats_row, r.llr.control_frames)},
        {"llr_control_bytes", "their bytes on the wire (`Link.LlrControlBytes` each)",
         UETSIM_CELL(link_stats_row, r.llr.control_bytes)},
        {"cbfc_update_frames",
         "CBFC credit updates (credit syncs included) the sending end put on this direction "
         "since the start (counted in `frames` and `bytes` too, `Link.CbfcUpdateFrameBytes` "
         "each); 0 without CBFC",
         UETSIM_CELL(link_stats_row, r.cbfc_updates)},
        {"cbfc_stall_usec",
         "CBFC (`Link.Cbfc`): per virtual channel, `;` between them, the time the sending end's "
         "next frame on it waited for credit since the start, µs; empty without CBFC",
         UETSIM_CELL(link_stats_row, r.cbfc_stall_usec)},
        {"cbfc_credits_outstanding_min",
         "per virtual channel, the fewest credits the sending end had spent and not yet got back "
         "(in flight, in the receiver's buffer or freed and not yet reported) in the interval",
         UETSIM_CELL(link_stats_row, r.cbfc_outstanding_min)},
        {"cbfc_credits_outstanding_max",
         "the most in the interval; never above the receiver's advertised credit (`inspect "
         "--json` links: `cbfc.vc_credits`)",
         UETSIM_CELL(link_stats_row, r.cbfc_outstanding_max)},
    };
    return c;
}

const record_def& link_stats_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "link-stats";
        r.enabled_position = 25;
        r.on_by_default = false;
        r.when = "when `Records.Enabled` lists it (not by default)";
        r.intro =
            "Two rows per link (in link order: `a_to_b`, then `b_to_a`) every\n"
            "`Simulation.NDStatsReportInterval`, with nd-stats' timing (a last set for the "
            "partial interval when\nthe run ends): what the sending end put on the wire and what "
            "the receiving end dropped\n([link-layer.md](link-layer.md)).";
        r.columns = column_docs(link_stats_columns());
        r.notes =
            "A frame counts in `frames` when it starts serializing, as in nd-stats; a corrupted "
            "frame counts\nin both `frames` and `corrupted`. With LLR a corrupted frame is "
            "replayed by the link (`llr_replays`,\n`llr_replayed_frames`) and the transport never "
            "sees it lost; replays and control ordered sets\ntake wire time beside `bytes`.";
        r.applies = [](const record_context&) { return true; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<link_stats_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
