// rdma-perf and beacon: their column tables and registry declarations.
#include "testbench/records/rdma_records.h"

#include "testbench/traffic/app/rdma_application.h"

namespace uetsim {

namespace {

// An application record: the application writes the rows, the record owns the file.
template <typename Row>
class app_record : public open_record
{
public:
    app_record(const std::string& path, const column_table<Row>& columns) : m_csv(path, columns) {}
    record_csv<Row>& csv() { return m_csv; }
    // The application wrote its last row in rdma_application::finish.
    void finish() override { m_csv.close(); }

private:
    record_csv<Row> m_csv;
};

bool with_application(const record_context& ctx)
{
    return ctx.app != nullptr;
}

}  // namespace

const column_table<rdma_perf_row>& rdma_perf_columns()
{
    using row = rdma_perf_row;
    static const column_table<row> c = {
        {"job_id", "`Simulation.Name`", UETSIM_CELL(row, r.job_id)},
        {"time_utc",
         "when the completion reached the Initiator (`CompletionAt: target`: when the "
         "Responder NIC's receive completion reached the Responder)",
         UETSIM_CELL(row, r.time_utc)},
        {"sim_time_sec", "when the completion reached the Initiator (or the Responder, as above)",
         UETSIM_CELL(row, r.sim_time_s)},
        {"metric_name", "`RDMA-WRITE`", UETSIM_CELL(row, "RDMA-WRITE")},
        {"perf_metric_usec",
         "from the WQE's doorbell to its completion, in µs. It includes the doorbell's PCIe "
         "transfer, the wait at the NIC behind the connection's earlier WQEs, the payload fetch, "
         "the network, the acknowledgments' return and the completion entry's PCIe transfer; "
         "with `RdmaApplication.CompletionAt: target`, to the Responder's receive completion "
         "instead (the last payload's and the entry's PCIe writes at the Responder)",
         UETSIM_CELL(row, r.perf_metric_usec)},
        {"transfer_size", "the WQE's size in bytes (`RdmaApplication.WqeSize`, 250000)",
         UETSIM_CELL(row, r.transfer_size)},
        {"start_time_sec", "when the Initiator posted the WQE's doorbell",
         UETSIM_CELL(row, r.start_time_s)},
        {"application_name",
         "the connection's Initiator instance, `RdmaInitiator-{initiator host}-{responder "
         "host}-{k}`",
         UETSIM_CELL(row, r.application_name)},
        {"node_id", "node id of the Initiator's host", UETSIM_CELL(row, r.node_id)},
        {"rdma_verb", "`RDMA_VERB_POST_WRITE`", UETSIM_CELL(row, "RDMA_VERB_POST_WRITE")},
        {"wqe_id", "the WQE's number on its connection, from 1", UETSIM_CELL(row, r.wqe_id)},
        {"num_wqe_sent",
         "WQEs the connection had posted when this one completed (the replacement WQE not yet "
         "counted)",
         UETSIM_CELL(row, r.num_wqe_sent)},
        {"num_wqe_complete", "WQEs the connection has completed, this one included",
         UETSIM_CELL(row, r.num_wqe_complete)},
        {"responder_node_id", "node id of the Responder's host (an addition to the page's columns)",
         UETSIM_CELL(row, r.responder_node_id)},
    };
    return c;
}

const column_table<beacon_row>& beacon_columns()
{
    using row = beacon_row;
    // The application counts WQEs in tx_client and rx_client; the other columns belong to
    // applications uetsim does not model and stay 0.
    static const char* const other =
        "filled by other applications of the reference platform that uetsim does not model: "
        "always 0";
    static const column_table<row> c = {
        {"job_id", "`Simulation.Name`", UETSIM_CELL(row, r.job_id)},
        {"time_utc", "the end of the interval", UETSIM_CELL(row, r.time_utc)},
        {"sim_time_sec", "the end of the interval", UETSIM_CELL(row, r.sim_time_s)},
        {"interval_duration_sec", "the time since the previous row",
         UETSIM_CELL(row, r.interval_duration_s)},
        {"tx_client", "WQEs the Initiators have posted since the start of the run",
         UETSIM_CELL(row, r.tx_client)},
        {"rx_client", "WQEs the Initiators have had completed since the start of the run",
         UETSIM_CELL(row, r.rx_client)},
        {"tx_server", other, UETSIM_CELL(row, 0)},
        {"rx_server", other, UETSIM_CELL(row, 0)},
        {"rx_bytes_reader", other, UETSIM_CELL(row, 0)},
        {"rx_bytes_writer", other, UETSIM_CELL(row, 0)},
        {"goodput_reader_MB_per_sec", other, UETSIM_CELL(row, 0)},
        {"goodput_writer_MB_per_sec", other, UETSIM_CELL(row, 0)},
    };
    return c;
}

const record_def& rdma_perf_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "rdma-perf";
        r.enabled_position = 4;
        r.when = "with the RDMA application (`RdmaApplication.Enabled`) on NIC hosts";
        r.intro =
            "One row per WQE of the RDMA application that completes "
            "([rdma-application.md](rdma-application.md)),\nwritten by the connection's "
            "Initiator when the completion entry lands in its host memory, in\norder of "
            "completion. Rows run from the first completion to the stop time. They are not "
            "limited\nto the recording window: keep the rows whose `sim_time_sec` lies in it to "
            "study the steady state\n(0.005 s to 0.505 s with the default timeline; `uetsim "
            "inspect --json` prints the window). A WQE\nstill outstanding at the stop time has "
            "no row.";
        r.columns = column_docs(rdma_perf_columns());
        r.applies = with_application;
        r.reads_application = true;
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            auto rec = std::make_unique<app_record<rdma_perf_row>>(path, rdma_perf_columns());
            ctx.app->record_perf_to(&rec->csv());
            return rec;
        };
        return r;
    }();
    return d;
}

const record_def& beacon_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "beacon";
        r.enabled_position = 5;
        r.when = "with the RDMA application (`RdmaApplication.Enabled`) on NIC hosts";
        r.intro =
            "Running totals of the RDMA application, one row every "
            "`Simulation.BeaconReportInterval` (1 ms)\nfrom the first interval to the stop "
            "time, plus a last row at the stop time if that falls between\ntwo intervals.";
        r.columns = column_docs(beacon_columns());
        r.notes =
            "`tx_client` − `rx_client` is the number of WQEs outstanding: pairs × "
            "`NumConnections` ×\n`MaxPendingWQEs` once every connection has started (80 in the "
            "default run).";
        r.applies = with_application;
        r.reads_application = true;
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            auto rec = std::make_unique<app_record<beacon_row>>(path, beacon_columns());
            ctx.app->record_beacon_to(&rec->csv());
            return rec;
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
