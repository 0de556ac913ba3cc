// application-report: its column table, its registry declaration and the rows it writes at
// open, from the RDMA application's connections and the Flows list.
#include "testbench/records/application_report_record.h"

#include "testbench/elab/fabric.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/records/csv_writer.h"
#include "testbench/traffic/app/rdma_application.h"
#include "tlm/dscp.h"

namespace uetsim {

namespace {

constexpr std::string_view rdma_typeid = "uetsim::rdma_application";
constexpr std::string_view flows_typeid = "uetsim::flows";

class application_report_open : public open_record
{
public:
    application_report_open(record_context& ctx, const std::string& path)
        : m_sc(ctx.sc), m_topo(ctx.fab.topo()), m_csv(path, application_report_columns())
    {
        m_utc = utc_after(m_sc.simulation.epoch_utc, 0);
        if (ctx.app) {
            const uint8_t tc = m_sc.rdma.data_tc;
            for (uint32_t i = 0; i < ctx.app->connections(); ++i) {
                const auto e = ctx.app->connection_endpoints(i);
                // The Responder's instance: the Initiator's name with the roles swapped.
                const std::string suffix = e.initiator_name.substr(e.initiator_name.find('-'));
                write(e.initiator, e.responder, true, rdma_typeid, e.initiator_name, tc);
                write(e.responder, e.initiator, false, rdma_typeid, "RdmaResponder" + suffix, tc);
            }
        }
        const auto& flows = m_sc.flows.messages;
        for (size_t k = 0; k < flows.size(); ++k) {
            const std::string name = "Flow-" + std::to_string(k);
            write(flows[k].src, flows[k].dst, true, flows_typeid, name, flows[k].traffic_class);
            write(flows[k].dst, flows[k].src, false, flows_typeid, name, flows[k].traffic_class);
        }
    }
    void finish() override { m_csv.close(); }

private:
    // The data the CLIENT sends is marked by its host's NIC; a SERVER row shows the marking of
    // the data it receives, its peer's.
    void write(uint32_t host, uint32_t peer, bool client, std::string_view type, std::string name,
               uint8_t tc)
    {
        const device& d = m_topo.host(host);
        const nic_config nic = nic_for(m_sc, m_topo.host(client ? host : peer).name);
        const nic_type& t = nic_type_of(nic);
        const ip_marking m =
            t.data_marking ? t.data_marking(nic, tc) : ip_marking{uint8_t(tc << 3), ecn::not_ect};
        m_csv.write({m_sc.simulation.name, m_utc, d.name, d.node_id, client, type, std::move(name),
                     m.dscp, m.ecn != ecn::not_ect, m_topo.host(peer).node_id});
    }

    const scenario& m_sc;
    const topology& m_topo;
    record_csv<application_report_row> m_csv;
    std::string m_utc;
};

}  // namespace

const column_table<application_report_row>& application_report_columns()
{
    static const column_table<application_report_row> c = {
        {"job_id", "`Simulation.Name`", UETSIM_CELL(application_report_row, r.job_id)},
        {"time_utc", "the run's start (`Simulation.EpochUtc`)",
         UETSIM_CELL(application_report_row, r.time_utc)},
        {"component_name", "the instance's host: `host3`",
         UETSIM_CELL(application_report_row, r.host)},
        {"node_id", "its node id", UETSIM_CELL(application_report_row, r.node_id)},
        {"socket_type",
         "`CLIENT` for the side that sends the data (an Initiator, a message's `Src`), `SERVER` "
         "for the side that receives it",
         UETSIM_CELL(application_report_row, r.client ? "CLIENT" : "SERVER")},
        {"app_typeid", "`uetsim::rdma_application` or `uetsim::flows`",
         UETSIM_CELL(application_report_row, r.app_typeid)},
        {"app_name",
         "the instance: `RdmaInitiator-{initiator}-{responder}-{k}` (rdma-perf's "
         "`application_name`) and `RdmaResponder-{initiator}-{responder}-{k}` for the k-th "
         "connection of a pair; `Flow-{index}` on both ends of a message of the `Flows` list",
         UETSIM_CELL(application_report_row, r.app_name)},
        {"dscp",
         "the DSCP of the data's first transmissions (retransmissions may differ, "
         "`UetNic.UseDistinctDSCPForRetransmits`): the class × 8 plus the trimming role "
         "([packet.md](packet.md)), as the sending NIC marks it",
         UETSIM_CELL(application_report_row, r.dscp)},
        {"ect", "1 when the data is ECN-capable (ECT(0) or ECT(1)), else 0",
         UETSIM_CELL(application_report_row, r.ect ? 1 : 0)},
        {"peer_node_id", "node id of the other end",
         UETSIM_CELL(application_report_row, r.peer_node_id)},
    };
    return c;
}

const record_def& application_report_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "application-report";
        r.enabled_position = 15;
        r.on_by_default = false;
        r.when =
            "with the RDMA application or a `Flows` list, when `Records.Enabled` lists it (not by "
            "default)";
        r.intro =
            "One row per end of every application instance, written when the run starts: the "
            "RDMA\napplication's connections in connection order (the Initiator's row, then the "
            "Responder's),\nthen the messages of the `Flows` list in list order (the sender's row, "
            "then the receiver's).\nA Chakra workload's ranks are listed by chakra-apps.";
        r.columns = column_docs(application_report_columns());
        r.applies = [](const record_context& ctx) {
            return ctx.app != nullptr || !ctx.sc.flows.messages.empty();
        };
        r.reads_application = true;
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<application_report_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
