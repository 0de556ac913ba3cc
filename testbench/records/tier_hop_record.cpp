// tier-hop: its column table, its registry declaration and the sampler that sums the switches'
// receive counters by tier (nothing per packet).
#include "testbench/records/tier_hop_record.h"

#include <string>
#include <vector>

#include "testbench/elab/fabric.h"
#include "testbench/records/periodic_open_record.h"

namespace uetsim {

namespace {

class tier_hop_open : public periodic_open_record<tier_hop_row>
{
public:
    tier_hop_open(record_context& ctx, const std::string& path)
        : periodic_open_record(ctx.clocks.periodic, path, tier_hop_columns())
        , m_sc(ctx.sc)
        , m_fab(ctx.fab)
    {
    }

private:
    // Frames received by the switches of each tier: every packet a switch of the tier took in.
    void write(double now) override
    {
        const topology& t = m_fab.topo();
        uint64_t total[3] = {};
        for (const device& d : t.devices) {
            if (d.kind != device_kind::switch_device || d.tier < 0 || d.tier > 2) continue;
            fabric_switch& sw = m_fab.switch_at(d.index);
            for (size_t p = 0; p < d.ports.size(); ++p)
                total[d.tier] += sw.port(p).counters().rx_packets;
        }
        const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
        tier_hop_row r{m_sc.simulation.name, utc, now, {}, {}};
        for (int i = 0; i < 3; ++i) {
            r.total[i] = total[i];
            r.interval[i] = total[i] - m_last[i];
            m_last[i] = total[i];
        }
        m_csv.write(r);
    }

    const scenario& m_sc;
    fabric& m_fab;
    uint64_t m_last[3] = {};
};

}  // namespace

const column_table<tier_hop_row>& tier_hop_columns()
{
    static const char* const since = "since the previous row";
    static const column_table<tier_hop_row> c = {
        {"job_id", "`Simulation.Name`", UETSIM_CELL(tier_hop_row, r.job_id)},
        {"time_utc", "see above", UETSIM_CELL(tier_hop_row, r.time_utc)},
        {"sim_time_sec", "simulated time of the row", UETSIM_CELL(tier_hop_row, r.sim_time_s)},
        {"spine",
         "frames received by the spine-tier switches (tier 0: a leaf-spine's spines, a "
         "fat-tree's cores) since the start",
         UETSIM_CELL(tier_hop_row, r.total[0])},
        {"fabric", "the same for the fabric tier (tier 1: a fat-tree's aggregation switches)",
         UETSIM_CELL(tier_hop_row, r.total[1])},
        {"rack",
         "the same for the rack tier (tier 2: leaves, a fat-tree's edge switches, a single "
         "switch)",
         UETSIM_CELL(tier_hop_row, r.total[2])},
        {"spineInt", since, UETSIM_CELL(tier_hop_row, r.interval[0])},
        {"fabricInt", since, UETSIM_CELL(tier_hop_row, r.interval[1])},
        {"rackInt", since, UETSIM_CELL(tier_hop_row, r.interval[2])},
    };
    return c;
}

const record_def& tier_hop_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "tier-hop";
        r.enabled_position = 13;
        r.on_by_default = false;
        r.when = "when `Records.Enabled` lists it (not by default)";
        r.intro =
            "One row every `Simulation.NDStatsReportInterval`, with nd-stats' timing (a last row "
            "for the\npartial interval when the run ends): how many frames went through each "
            "tier of switches.\nA frame counts once per switch that receives it (the sum of "
            "nd-stats' `total_packets_rx`\nover the tier's switch ports), so a packet from one "
            "leaf to another through a spine counts\ntwice in `rack` and once in `spine`.";
        r.columns = column_docs(tier_hop_columns());
        r.notes =
            "Every frame a switch receives counts: data, acknowledgements, CNPs and PFC pause "
            "frames, and\nframes the switch then drops at admission.";
        r.applies = [](const record_context&) { return true; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<tier_hop_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
