// flow-perf: its column table and its registry declaration.
#include "testbench/records/flow_perf_record.h"

#include "testbench/traffic/flows.h"

namespace uetsim {

namespace {

class flow_perf_open : public open_record
{
public:
    flow_perf_open(record_context& ctx, const std::string& path)
        : m_traffic(ctx.traffic), m_csv(path, flow_perf_columns())
    {
        m_traffic.record_to(&m_csv, ctx.sc.simulation.epoch_utc);
    }
    void finish() override
    {
        m_traffic.record_to(nullptr, {});
        m_csv.close();
    }

private:
    flows& m_traffic;
    flow_perf_csv m_csv;
};

}  // namespace

const column_table<flow_perf_row>& flow_perf_columns()
{
    static const column_table<flow_perf_row> c = {
        {"time_utc", "when the message completed", UETSIM_CELL(flow_perf_row, r.time_utc)},
        {"sim_time_sec", "when the message completed", UETSIM_CELL(flow_perf_row, r.sim_time_s)},
        {"flow_id", "the message's index in the `Flows` list, from 0",
         UETSIM_CELL(flow_perf_row, r.flow_id)},
        {"src_host", "sending and receiving host numbers", UETSIM_CELL(flow_perf_row, r.src_host)},
        {"dst_host", "sending and receiving host numbers", UETSIM_CELL(flow_perf_row, r.dst_host)},
        {"bytes", "message size", UETSIM_CELL(flow_perf_row, r.bytes)},
        {"packets",
         "packets the message was cut into: ⌈bytes / `UetNic.RdmaDataMSS`⌉, 1 for an empty "
         "message",
         UETSIM_CELL(flow_perf_row, r.packets)},
        {"start_time_sec", "the message's `Start`", UETSIM_CELL(flow_perf_row, r.start_s)},
        {"finish_time_sec",
         "with a UET NIC, when the sender learns that every byte was acknowledged (the WQE "
         "completes); with the entry's `CompletionAt: target`, when the receiving NIC's "
         "completion entry lands in the receiver's memory; with NIC-less raw hosts (`Nic.Type: "
         "raw`), when the last missing packet arrives at the receiver",
         UETSIM_CELL(flow_perf_row, r.finish_s)},
        {"fct_usec", "flow completion time: (`finish_time_sec` − `start_time_sec`) × 10⁶",
         UETSIM_CELL(flow_perf_row, (r.finish_s - r.start_s) * 1e6)},
    };
    return c;
}

const record_def& flow_perf_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "flow-perf";
        r.enabled_position = 2;
        r.when = "always (a header only without a `Flows` list)";
        r.intro = "One row per message of the `Flows` list that completes, in order of completion.";
        r.columns = column_docs(flow_perf_columns());
        r.notes =
            "A message misses its row when it does not complete before `Simulation.StopTime`, "
            "or, with\nNIC-less raw hosts, when one of its packets was dropped or trimmed (a raw "
            "host never\nretransmits; a NIC recovers the packet). The manifest's\n`scoreboard` "
            "then says which messages and how many bytes are missing.";
        r.applies = [](const record_context&) { return true; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<flow_perf_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
