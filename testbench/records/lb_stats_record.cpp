// scala-switch-load-balancing-stats: its column table, its registry declaration and the module that
// samples the equal-cost set members.
#include "testbench/records/lb_stats_record.h"

#include "hw/common/time.h"

namespace uetsim {

namespace {

using row = lb_stats_row;

constexpr uint32_t no_subtier = 4294967295u;

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
    static const char* const always0_assign =
        "flows given a member when their flow slot was empty: always 0";
    static const char* const always0_move = "flows moved to or away from the member: always 0";
    static const char* const always0_pause =
        "decisions that avoided, or chose, a member paused by PFC: always 0";
    static const char* const when = "when the row was written";
    static const char* const sw = "the switch";
    static const column_table<row> c = {
        {"time_utc", when, UETSIM_CELL(row, r.time_utc)},
        {"sim_time_sec", when, UETSIM_CELL(row, r.sim_time_s)},
        {"component_name", "switch name", UETSIM_CELL(row, r.dev->name)},
        {"component_type", "`Switch`", UETSIM_CELL(row, "Switch")},
        {"node_id", sw, UETSIM_CELL(row, r.dev->node_id)},
        {"tier", sw, UETSIM_CELL(row, r.dev->tier)},
        {"subtier", sw, UETSIM_CELL(row, no_subtier)},
        {"ifid", "the member: the egress port this row describes", UETSIM_CELL(row, r.ifid)},
        {"ecmp_group_id",
         "the switch's own index of the set. Sets are numbered as routes are built, by "
         "destination host, and single-member sets take numbers too, so the ids in this record "
         "can have gaps (in the default leaf-spine, `leaf0`'s set of uplinks is 8 and `leaf1`'s "
         "is 0)",
         UETSIM_CELL(row, r.group_id)},
        {"ecmp_group_ifids",
         "the set's member ports, ascending, in brackets and separated by spaces: `[8 9 10 11 12 "
         "13 14 15]`",
         UETSIM_CELL(row, r.group_ifids)},
        {"group_size", "number of members", UETSIM_CELL(row, r.group_size)},
        {"group_formed_ns",
         "simulated time, in ns, at which a packet was first admitted through this set; −1 if "
         "none has been",
         UETSIM_CELL(row, r.group_formed_ns)},
        {"flow_table_slots", "flow-table slots of the set: always 0 (see below)",
         UETSIM_CELL(row, 0)},
        {"bytes",
         "bytes admitted to the member's egress queue since the start: wire bytes as admitted "
         "(a packet trimmed at admission counts 62); dropped packets are not counted",
         UETSIM_CELL(row, r.bytes)},
        {"ivl_bytes", "`bytes` since the previous row", UETSIM_CELL(row, r.ivl_bytes)},
        {"packets",
         "packets admitted to the member's egress queue since the start (dropped packets are not "
         "counted)",
         UETSIM_CELL(row, r.packets)},
        {"ivl_packets", "`packets` since the previous row", UETSIM_CELL(row, r.ivl_packets)},
        {"assignments", always0_assign, UETSIM_CELL(row, 0)},
        {"ivl_assignments", always0_assign, UETSIM_CELL(row, 0)},
        {"movements_in", always0_move, UETSIM_CELL(row, 0)},
        {"ivl_movements_in", always0_move, UETSIM_CELL(row, 0)},
        {"movements_out", always0_move, UETSIM_CELL(row, 0)},
        {"ivl_movements_out", always0_move, UETSIM_CELL(row, 0)},
        {"ivl_share",
         "the member's `ivl_bytes` divided by the set's total `ivl_bytes`; 0 when the set "
         "carried nothing in the interval",
         UETSIM_CELL(row, r.ivl_share)},
        {"paused_skips", always0_pause, UETSIM_CELL(row, 0)},
        {"ivl_paused_skips", always0_pause, UETSIM_CELL(row, 0)},
        {"paused_selections", always0_pause, UETSIM_CELL(row, 0)},
        {"ivl_paused_selections", always0_pause, UETSIM_CELL(row, 0)},
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
            "### Columns that are always 0 with `LoadBalancingMethod: none`\n\n`none`, the only "
            "method modelled, chooses the member as *flow hash mod set size* for every packet.\n"
            "There is no flow table, so there are no slots (`flow_table_slots` 0), no slot is "
            "ever filled\n(`assignments` 0) and no flow is ever moved (`movements_in`, "
            "`movements_out` 0); those columns\ndescribe the flowlet method. The four `paused_*` "
            "columns count decisions influenced by PFC pauses;\nthere is no PFC in this version "
            "and `none` takes no such decisions anyway, so they are 0 too. All\nof them are kept "
            "so the record has the reference model's layout.";
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
            for (uint32_t m = 0; m < rt.set_size(set); ++m) m_members.push_back({s, set, m});
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
        m_csv.write({utc, now, &dev, rt.member_port(mr.set, mr.member), mr.set, ifids,
                     rt.set_size(mr.set), formed == UINT64_MAX ? -1.0 : double(formed) / 1e3,
                     c.bytes, ivl_b, c.packets, ivl_p,
                     set_ivl[i] ? double(ivl_b) / double(set_ivl[i]) : 0.0});
    }
}

void lb_stats_record_module::finish()
{
    write(to_seconds(sc_core::sc_time_stamp()));  // the last row per member, always
    m_csv.close();
}

}  // namespace uetsim
