// uet-events: its column table, registry declaration and writer.
#include "testbench/records/uet_events_record.h"

#include "hw/nic/uet/uet_nic.h"
#include "testbench/elab/fabric.h"
#include "testbench/nics/uet_nic_entry.h"
#include "testbench/records/uet_monitor_selection.h"

namespace uetsim {

namespace {

using ev = uet_event_cells;

#define UETSIM_EV_CELL(expr)            \
    [](std::string& out, const ev& c) { \
        const uet_event& e = *c.e;      \
        ::uetsim::cell(out, (expr));    \
    }

class events_open : public open_record
{
public:
    events_open(record_context& ctx, const std::string& path)
        : m_rec(path, ctx.fab.topo().names_by_node_id(), ctx.sc.simulation.epoch_utc)
    {
        for (size_t h = 0; h < ctx.fab.nic_count(); ++h)
            if (uet_nic* u = as_uet_nic(ctx.fab.nic_at(h))) u->set_event_sink(&m_rec);
    }
    void finish() override { m_rec.close(); }

private:
    uet_events_record m_rec;
};

}  // namespace

const column_table<uet_event_cells>& uet_event_columns()
{
    static const column_table<ev> c = {
        {"time_utc", "`Simulation.EpochUtc` plus the event's simulated time, to the second",
         [](std::string& out, const ev& c) { out += *c.time_utc; }},
        {"sim_time_ns", "when the event happened, ns", UETSIM_EV_CELL(double(e.sim_time_ps) / 1e3)},
        {"component_name", "the NIC: `host3`",
         [](std::string& out, const ev& c) { out += *c.component_name; }},
        {"FEP_ID", "the NIC's node id", UETSIM_EV_CELL(e.fep_id)},
        {"local_PDC_ID", "`<IPv4>:<PDC id>` of the PDC's end on this NIC",
         UETSIM_EV_CELL(ipv4_text(e.local_ip) + ":" + std::to_string(e.local_pdc))},
        {"remote_PDC_ID",
         "`<IPv4>:<PDC id>` of its end on the other NIC; on the sender the id reads 0 until "
         "the first ACK",
         UETSIM_EV_CELL(ipv4_text(e.remote_ip) + ":" + std::to_string(e.remote_pdc))},
        {"wqe_ID", "work-request events: the message (a `Flows` entry's `flow_id`, an RDMA WQE)",
         [](std::string& out, const ev& c) {
             if (c.e->has_wqe) cell(out, c.e->wqe_id);
         }},
        {"wqe_size_bytes", "work-request events: the message's bytes",
         [](std::string& out, const ev& c) {
             if (c.e->has_wqe) cell(out, c.e->wqe_bytes);
         }},
        {"ev_type",
         "`PDC_CREATED`, `WQE_CREATED`, `SEND_COMPLETE`, `WQE_COMPLETE`, `RECV_COMPLETE`, "
         "`PDC_TERMINATED`; with the close handshake also `CLOSE_CMD_SENT`, `CLOSE_CMD_RCVD`, "
         "`CLOSE_REQ_SENT`, `CLOSE_REQ_RCVD`, `NACK_NO_PDC_AVAIL_SENT`, "
         "`NACK_NO_PDC_AVAIL_RCVD`, `NACK_INV_DPDCID_SENT`, `NACK_INV_DPDCID_RCVD`",
         [](std::string& out, const ev& c) {
             static const char* const types[] = {"PDC_CREATED",
                                                 "WQE_CREATED",
                                                 "SEND_COMPLETE",
                                                 "WQE_COMPLETE",
                                                 "RECV_COMPLETE",
                                                 "PDC_TERMINATED",
                                                 "CLOSE_CMD_SENT",
                                                 "CLOSE_CMD_RCVD",
                                                 "CLOSE_REQ_SENT",
                                                 "CLOSE_REQ_RCVD",
                                                 "NACK_NO_PDC_AVAIL_SENT",
                                                 "NACK_NO_PDC_AVAIL_RCVD",
                                                 "NACK_INV_DPDCID_SENT",
                                                 "NACK_INV_DPDCID_RCVD"};
             out += types[int(c.e->ev)];
         }},
    };
    return c;
}

#undef UETSIM_EV_CELL

const record_def& uet_events_record_def()
{
    static const record_def d = [] {
        record_def r;
        r.name = "uet-events";
        r.when =
            "with UET NICs whose `UetNic.EnableEventLogging` is true (default off; "
            "`Records.Enabled` does not list it)";
        r.intro =
            "One row per PDC or work-request event of those NICs, as it happens, all NICs in "
            "one file;\n`ev_type` names the event (the table after the columns).";
        r.columns = column_docs(uet_event_columns());
        r.notes =
            "| `ev_type` | When |\n| --- | --- |\n"
            "| `PDC_CREATED` | the sender opens a PDC for a message (each `Flows` message, the "
            "first WQE of a queue pair); the receiver opens its end on the connection's first "
            "data packet |\n"
            "| `WQE_CREATED` | the host posts a message to the NIC |\n"
            "| `SEND_COMPLETE` | the NIC issues the payload fetch of the message's last packet "
            "(its data may not be sent yet) |\n"
            "| `WQE_COMPLETE` | every byte of the message is acknowledged |\n"
            "| `RECV_COMPLETE` | the receiver has the message's last packet and no gap below it "
            "(no work request) |\n"
            "| `PDC_TERMINATED` | the sender closes the PDC: a `Flows` message's PDC when the "
            "message completes; with `UetNic.PdcIdleCloseTimeout` above 0, when the ACK of its "
            "`CLOSE_CMD` arrives, and at the target when the `CLOSE_CMD` frees its end |\n"
            "| `CLOSE_CMD_SENT` | the initiator sends `CLOSE_CMD` (again after each "
            "retransmission timeout until it is acknowledged) |\n"
            "| `CLOSE_CMD_RCVD` | the target receives `CLOSE_CMD` (its end, if still there, "
            "is freed and the command acknowledged) |\n"
            "| `CLOSE_REQ_SENT`, `CLOSE_REQ_RCVD` | a target with every receiving end in use "
            "asks the initiator of an idle end to close it |\n"
            "| `NACK_NO_PDC_AVAIL_SENT`, `NACK_NO_PDC_AVAIL_RCVD` | a data packet needed a new "
            "receiving end and none was free (`UetNic.SackContexts`); the sender's "
            "retransmission timer retries it |\n"
            "| `NACK_INV_DPDCID_SENT`, `NACK_INV_DPDCID_RCVD` | a data packet without SYN "
            "information for an end the close handshake has freed (a late copy) |"
            "\n\n"
            "Without the close handshake a queue pair's PDC (the RDMA application) stays open for "
            "the run, and a receiving end is\nnever closed: neither writes `PDC_TERMINATED`. "
            "Trim and `ROD_OOO` NACKs are rows of `uet-monitor`, not of this record. "
            "`SEND_COMPLETE` carries the\ntime the fetch is issued, which can be a little "
            "after the row before it in the file.";
        r.applies = [](const record_context& ctx) {
            for (size_t h = 0; h < ctx.fab.nic_count(); ++h)
                if (uet_nic* u = as_uet_nic(ctx.fab.nic_at(h)))
                    if (u->event_logging()) return true;
            return false;
        };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<events_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

uet_events_record::uet_events_record(const std::string& path,
                                     const std::vector<std::string>& nic_names,
                                     const std::string& epoch_utc)
    : m_csv(path, uet_event_columns()), m_names(nic_names), m_epoch(epoch_utc)
{
}

void uet_events_record::event(const uet_event& e)
{
    const uint64_t second = e.sim_time_ps / 1'000'000'000'000ull;
    if (second != m_utc_second) {
        m_utc_second = second;
        m_utc = utc_after(m_epoch, double(second));
    }
    m_csv.write({&e, &m_names.at(e.fep_id), &m_utc});
}

}  // namespace uetsim
