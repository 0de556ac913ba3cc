// perf: its column table and its registry declaration; the rows come from the sources.
#include "testbench/records/perf_record.h"

#include "testbench/traffic/app/rdma_application.h"
#include "testbench/traffic/flows.h"

namespace uetsim {

namespace {

class perf_open : public open_record
{
public:
    perf_open(record_context& ctx, const std::string& path)
        : m_traffic(ctx.traffic), m_app(ctx.app), m_csv(path, perf_columns())
    {
        m_traffic.record_transactions_to(&m_csv, ctx.sc.simulation.name);
        if (m_app) m_app->record_transactions_to(&m_csv);
    }
    void finish() override
    {
        m_traffic.record_transactions_to(nullptr, {});
        if (m_app) m_app->record_transactions_to(nullptr);
        m_csv.close();
    }

private:
    flows& m_traffic;
    rdma_application* m_app;
    perf_csv m_csv;
};

}  // namespace

const column_table<perf_row>& perf_columns()
{
    static const column_table<perf_row> c = {
        {"job_id", "`Simulation.Name`", UETSIM_CELL(perf_row, r.job_id)},
        {"time_utc", "when the transaction completed", UETSIM_CELL(perf_row, r.time_utc)},
        {"sim_time_sec", "when the transaction completed", UETSIM_CELL(perf_row, r.sim_time_s)},
        {"metric_name",
         "`RDMA-WRITE` for a WQE of the RDMA application, `Flow` for a message of the `Flows` "
         "list",
         UETSIM_CELL(perf_row, r.metric_name)},
        {"perf_metric_usec",
         "the transaction's latency, µs: a WQE's from its doorbell to its completion (rdma-perf's "
         "`perf_metric_usec`), a message's from its `Start` to its completion (flow-perf's "
         "`fct_usec`)",
         UETSIM_CELL(perf_row, r.latency_us)},
        {"metric_path", "`NAN` (uetsim's metrics have no hierarchy)", UETSIM_CELL(perf_row, "NAN")},
        {"metric_aggregation_id", "`NAN`", UETSIM_CELL(perf_row, "NAN")},
        {"node_id", "node id of the sending host (the Initiator, the message's `Src`)",
         UETSIM_CELL(perf_row, r.node_id)},
        {"transaction_number",
         "the WQE's number on its connection, from 1; the message's index in the `Flows` list, "
         "from 0",
         UETSIM_CELL(perf_row, r.transaction)},
        {"start_time_sec", "when the transaction started: the doorbell, the message's `Start`",
         UETSIM_CELL(perf_row, r.start_s)},
        {"transfer_size_b", "its size in bytes", UETSIM_CELL(perf_row, r.bytes)},
        {"application_name",
         "the instance, as application-report names it: `RdmaInitiator-{initiator}-{responder}-"
         "{k}`, `Flow-{index}`",
         UETSIM_CELL(perf_row, r.application_name)},
    };
    return c;
}

const record_def& perf_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "perf";
        r.enabled_position = 16;
        r.on_by_default = false;
        r.when =
            "with the RDMA application or a `Flows` list, when `Records.Enabled` lists it (not by "
            "default)";
        r.intro =
            "One row per application transaction that completes, in order of completion, in the "
            "output\nfiles page's common layout: the RDMA application's WQEs (as rdma-perf) and "
            "the messages of\nthe `Flows` list (as flow-perf) in one file.";
        r.columns = column_docs(perf_columns());
        r.applies = [](const record_context& ctx) {
            return ctx.app != nullptr || !ctx.sc.flows.messages.empty();
        };
        r.reads_application = true;
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<perf_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
