// topology-report: its column table, its registry declaration and the rows it writes at open.
#include "testbench/records/topology_report_record.h"

#include "testbench/elab/fabric.h"
#include "testbench/records/no_subtier.h"

namespace uetsim {

namespace {

const char* component_type(const device& d)
{
    return d.kind == device_kind::host ? "NIC" : "Switch";
}

const char* net_device(const device& d)
{
    return d.kind == device_kind::host ? "uetsim::host_port" : "uetsim::switch_port";
}

// Every link, in link order, with its upper end first: the rows are complete at open.
class topology_report_open : public open_record
{
public:
    topology_report_open(record_context& ctx, const std::string& path)
        : m_csv(path, topology_report_columns())
    {
        const topology& t = ctx.fab.topo();
        for (size_t i = 0; i < t.links.size(); ++i) {
            const link_spec& l = t.links[i];
            const link& live = ctx.fab.link_at(i);
            m_csv.write({&t.devices[l.b_device], l.b_port, &t.devices[l.a_device], l.a_port,
                         live.nominal_rate_bps() / 1e9, double(live.delay().value()) / 1e3,
                         &l.name});
        }
    }
    void finish() override { m_csv.close(); }

private:
    record_csv<topology_report_row> m_csv;
};

}  // namespace

const column_table<topology_report_row>& topology_report_columns()
{
    static const column_table<topology_report_row> c = {
        {"component_name", "the link's upper device (nearer the spines): `leaf0`, `spine2`",
         UETSIM_CELL(topology_report_row, r.dev->name)},
        {"component_type", "`Switch`, or `NIC` for a host",
         UETSIM_CELL(topology_report_row, component_type(*r.dev))},
        {"tier", "its tier, as in nd-stats", UETSIM_CELL(topology_report_row, r.dev->tier)},
        {"subtier", "4294967295", UETSIM_CELL(topology_report_row, no_subtier)},
        {"node_id", "its node id (hosts first)", UETSIM_CELL(topology_report_row, r.dev->node_id)},
        {"net_device", "its port model, as nd-stats' `nd_name`",
         UETSIM_CELL(topology_report_row, net_device(*r.dev))},
        {"dev_id", "its port number on the link (nd-stats' `ifid`)",
         UETSIM_CELL(topology_report_row, r.dev_port)},
        {"peer_component_name", "the link's lower device: `host3`, `leaf0`",
         UETSIM_CELL(topology_report_row, r.peer->name)},
        {"peer_component_type", "as `component_type`",
         UETSIM_CELL(topology_report_row, component_type(*r.peer))},
        {"peer_tier", "as `tier`", UETSIM_CELL(topology_report_row, r.peer->tier)},
        {"peer_subtier", "4294967295", UETSIM_CELL(topology_report_row, no_subtier)},
        {"peer_node_id", "as `node_id`", UETSIM_CELL(topology_report_row, r.peer->node_id)},
        {"peer_net_device", "as `net_device`",
         UETSIM_CELL(topology_report_row, net_device(*r.peer))},
        {"peer_dev_id", "its port number on the link",
         UETSIM_CELL(topology_report_row, r.peer_port)},
        {"linkspeed_Gbps", "the link's nominal rate (`Topology.LinkRate`), Gbps",
         UETSIM_CELL(topology_report_row, r.rate_gbps)},
        {"prop_delay_ns",
         "the link's propagation delay (`Link.NicDelay` to a host, `Link.SwitchDelay` between "
         "switches), ns",
         UETSIM_CELL(topology_report_row, r.delay_ns)},
        {"link_name", "the link, e.g. `leaf0-spine2` (uetsim addition, as in nd-stats)",
         UETSIM_CELL(topology_report_row, *r.link_name)},
    };
    return c;
}

const record_def& topology_report_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "topology-report";
        r.enabled_position = 12;
        r.on_by_default = false;
        r.when = "when `Records.Enabled` lists it (not by default)";
        r.intro =
            "The fabric as built: one row per link, in link order (the hosts' links first, then "
            "the\nswitches' from the lowest tier up), written when the run starts. The upper end "
            "of the link\n(nearer the spines) is the component, the lower end the peer, as in the "
            "output files page's\nexample.";
        r.columns = column_docs(topology_report_columns());
        r.notes =
            "A fault that degrades a link's rate or takes it down does not change its row: the "
            "row is the\nlink as built (nd-stats' `link_rate_Gbps` is the same nominal rate).";
        r.applies = [](const record_context&) { return true; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<topology_report_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
