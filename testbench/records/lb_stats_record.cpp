// scala-switch-load-balancing-stats: its column table, its registry declaration and the module that
// samples the equal-cost set members.
#include "testbench/records/lb_stats_record.h"

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "testbench/records/no_subtier.h"

namespace uetsim {

namespace {

class lb_open : public open_record
{
public:
    lb_open(record_context& ctx, const std::string& path)
        : m_rec("switch_load_balancing_stats", ctx.sc, ctx.fab, path, ctx.clocks.load_balancing)
    {
    }
    void finish() override { m_rec.finish(); }

private:
    lb_stats_record_module m_rec;
};

}  // namespace

const column_table<lb_stats_row>& lb_stats_columns()
{
    static const char* const when = "when the row was written";
    static const char* const sw = "the switch";
    static const column_table<lb_stats_row> c = {
        {"time_utc", when, UETSIM_CELL(lb_stats_row, r.time_utc)},
        {"sim_time_sec", when, UETSIM_CELL(lb_stats_row, r.sim_time_s)},
        {"component_name", "switch name", UETSIM_CELL(lb_stats_row, r.dev->name)},
        {"component_type", "`Switch`", UETSIM_CELL(lb_stats_row, "Switch")},
        {"node_id", sw, UETSIM_CELL(lb_stats_row, r.dev->node_id)},
        {"tier", sw, UETSIM_CELL(lb_stats_row, r.dev->tier)},
        {"subtier", sw, UETSIM_CELL(lb_stats_row, no_subtier)},
        {"ifid", "the member: the egress port this row describes",
         UETSIM_CELL(lb_stats_row, r.ifid)},
        {"ecmp_group_id",
         "the switch's own index of the set. Sets are numbered as routes are built, by "
         "destination host, and single-member sets take numbers too, so the ids in this record "
         "can have gaps (in the default leaf-spine, `leaf0`'s set of uplinks is 8 and `leaf1`'s "
         "is 0)",
         UETSIM_CELL(lb_stats_row, r.group_id)},
        {"ecmp_group_ifids",
         "the set's member ports, ascending, in brackets and separated by spaces: `[8 9 10 11 12 "
         "13 14 15]`",
         UETSIM_CELL(lb_stats_row, r.group_ifids)},
        {"group_size", "number of members", UETSIM_CELL(lb_stats_row, r.group_size)},
        {"group_formed_ns",
         "simulated time, in ns, at which a packet was first admitted through this set; −1 if "
         "none has been",
         UETSIM_CELL(lb_stats_row, r.group_formed_ns)},
        {"flow_table_slots",
         "flow-table slots of the set: 512 under `flowlet` once the switch has seen the set "
         "(the first 128 sets it sees); 0 with `none`, before the set's first packet, or past "
         "the 128th set",
         UETSIM_CELL(lb_stats_row, r.flow_table_slots)},
        {"bytes",
         "bytes admitted to the member's egress queue since the start: wire bytes as admitted "
         "(a packet trimmed at admission counts 62); dropped packets are not counted",
         UETSIM_CELL(lb_stats_row, r.bytes)},
        {"ivl_bytes", "`bytes` since the previous row", UETSIM_CELL(lb_stats_row, r.ivl_bytes)},
        {"packets",
         "packets admitted to the member's egress queue since the start (dropped packets are not "
         "counted)",
         UETSIM_CELL(lb_stats_row, r.packets)},
        {"ivl_packets", "`packets` since the previous row",
         UETSIM_CELL(lb_stats_row, r.ivl_packets)},
        {"assignments",
         "`flowlet`: flow slots given this member when they were empty, since the start "
         "(counted when the packet that filled the slot was admitted); 0 with `none`",
         UETSIM_CELL(lb_stats_row, r.assignments)},
        {"ivl_assignments", "`assignments` since the previous row",
         UETSIM_CELL(lb_stats_row, r.ivl_assignments)},
        {"movements_in",
         "`flowlet`: flow slots moved to this member at a gap of at least `Switch.Gap`, since the "
         "start; 0 with `none`",
         UETSIM_CELL(lb_stats_row, r.movements_in)},
        {"ivl_movements_in", "`movements_in` since the previous row",
         UETSIM_CELL(lb_stats_row, r.ivl_movements_in)},
        {"movements_out",
         "`flowlet`: flow slots moved away from this member, since the start; 0 with `none`",
         UETSIM_CELL(lb_stats_row, r.movements_out)},
        {"ivl_movements_out", "`movements_out` since the previous row",
         UETSIM_CELL(lb_stats_row, r.ivl_movements_out)},
        {"ivl_share",
         "the member's `ivl_bytes` divided by the set's total `ivl_bytes`; 0 when the set "
         "carried nothing in the interval",
         UETSIM_CELL(lb_stats_row, r.ivl_share)},
        {"paused_skips",
         "`flowlet` with `Switch.PFCAware`: selections that left this member out because PFC "
         "had paused it for the packet's class, since the start; 0 with `none`",
         UETSIM_CELL(lb_stats_row, r.paused_skips)},
        {"ivl_paused_skips", "`paused_skips` since the previous row",
         UETSIM_CELL(lb_stats_row, r.ivl_paused_skips)},
        {"paused_selections",
         "`flowlet`: selections that chose this member while PFC had paused it (every member "
         "paused, or `PFCAware: false`), since the start; 0 with `none`",
         UETSIM_CELL(lb_stats_row, r.paused_selections)},
        {"ivl_paused_selections", "`paused_selections` since the previous row",
         UETSIM_CELL(lb_stats_row, r.ivl_paused_selections)},
    };
    return c;
}

const record_def& lb_stats_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "scala-switch-load-balancing-stats";
        r.old_name = "switch-load-balancing-stats";  // read for one release after the rename
        r.enabled_position = 1;
        r.when = "unless `Switch.EnableLoadBalancingStats: false`";
        r.intro =
            "One row per member of every equal-cost set of each switch, sets with a single "
            "member included\n(a single-switch fabric has one such set per host), every\n"
            "`Switch.LoadBalancingStatsReportInterval` (default 1 ms, 10 µs to 10 s), and a last "
            "row per member\nwhen the run ends. Rows are ordered by switch, then set, then member "
            "port.";
        r.columns = column_docs(lb_stats_columns());
        r.notes =
            "### The flowlet columns\n\nWith `LoadBalancingMethod: none` the member is *flow "
            "hash mod set size* for every packet: there is\nno flow table, so `flow_table_slots`, "
            "`assignments`, `movements_*` and `paused_*` are 0. Under\n`flowlet` they count the "
            "flow table's decisions ([flowlet.md](flowlet.md)): a decision counts when\nthe "
            "packet it was taken for is admitted, since a dropped packet leaves its slot as it "
            "was. A\nselection at a gap that keeps the member is neither an assignment nor a "
            "movement. Flows that\nshare a slot move together and count once.";
        r.applies = [](const record_context& ctx) { return ctx.sc.sw.enable_load_balancing_stats; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<lb_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

lb_stats_record_module::lb_stats_record_module(const sc_core::sc_module_name& name,
                                               const scenario& sc, fabric& fab,
                                               const std::string& path, record_clock& clock)
    : sc_core::sc_module(name), m_sc(sc), m_fab(fab), m_csv(path, lb_stats_columns())
{
    for (uint32_t s = 0; s < fab.switch_count(); ++s) {
        const routing_table& rt = fab.switch_at(s).routes();
        for (int32_t set = 0; set < int32_t(rt.set_count()); ++set)
            // Every set, a single path included: the reference writes a row for each member.
            for (uint32_t m = 0; m < rt.set_size(set); ++m)
                m_members.push_back({s, set, m, 0, 0, {}});
    }
    clock.follow([this](double now) { write(now); });
}

void lb_stats_record_module::write(double now)
{
    const topology& t = m_fab.topo();
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    // Interval bytes per set first, for each member's share.
    std::vector<uint64_t> set_ivl(m_members.size(), 0);
    for (size_t i = 0; i < m_members.size();) {
        size_t j = i;
        uint64_t sum = 0;
        for (; j < m_members.size() && m_members[j].sw == m_members[i].sw &&
               m_members[j].set == m_members[i].set;
             ++j) {
            const auto& rt = m_fab.switch_at(m_members[j].sw).routes();
            sum += m_fab.switch_at(m_members[j].sw)
                       .member(rt.member_slot(m_members[j].set, m_members[j].member))
                       .bytes -
                   m_members[j].last_bytes;
        }
        for (size_t k = i; k < j; ++k) set_ivl[k] = sum;
        i = j;
    }
    for (size_t i = 0; i < m_members.size(); ++i) {
        auto& mr = m_members[i];
        fabric_switch& sw = m_fab.switch_at(mr.sw);
        const routing_table& rt = sw.routes();
        const device& dev = t.devices[sw.node_id()];
        const member_counters& c = sw.member(rt.member_slot(mr.set, mr.member));
        std::string ifids = "[";
        for (size_t m = 0; m < rt.set_size(mr.set); ++m)
            ifids += (m ? " " : "") + std::to_string(rt.member_port(mr.set, m));
        ifids += "]";
        const uint64_t ivl_b = c.bytes - mr.last_bytes, ivl_p = c.packets - mr.last_packets;
        mr.last_bytes = c.bytes, mr.last_packets = c.packets;
        const uint64_t formed = sw.set_formed_ps(mr.set);
        lb_stats_row r{utc,
                       now,
                       &dev,
                       rt.member_port(mr.set, mr.member),
                       mr.set,
                       ifids,
                       rt.set_size(mr.set),
                       formed == UINT64_MAX ? -1.0 : double(formed) / 1e3,
                       c.bytes,
                       ivl_b,
                       c.packets,
                       ivl_p,
                       set_ivl[i] ? double(ivl_b) / double(set_ivl[i]) : 0.0};
        if (const flowlet_selector* f = sw.flowlet()) {
            const auto& s = f->stats(rt.member_slot(mr.set, mr.member));
            auto& l = mr.last_flowlet;
            r.flow_table_slots = f->flow_table_slots(mr.set);
            r.assignments = s.assignments, r.ivl_assignments = s.assignments - l.assignments;
            r.movements_in = s.movements_in, r.ivl_movements_in = s.movements_in - l.movements_in;
            r.movements_out = s.movements_out;
            r.ivl_movements_out = s.movements_out - l.movements_out;
            r.paused_skips = s.paused_skips, r.ivl_paused_skips = s.paused_skips - l.paused_skips;
            r.paused_selections = s.paused_selections;
            r.ivl_paused_selections = s.paused_selections - l.paused_selections;
            l = s;
        }
        m_csv.write(r);
    }
}

void lb_stats_record_module::finish()
{
    write(to_seconds(sim_now()));  // the last row per member, always
    m_csv.close();
}

}  // namespace uetsim
