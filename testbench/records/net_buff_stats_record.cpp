// net-buff-stats: its column table, its registry declaration and the sampler that reads the NIC
// ports' pools at each tick of its clock.
#include "testbench/records/net_buff_stats_record.h"

#include <string_view>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "testbench/elab/fabric.h"

namespace uetsim {

namespace {

struct nb_row
{
    std::string_view job_id;
    std::string_view time_utc;
    double sim_time_s = 0;
    const device* dev = nullptr;
    std::string_view buffer_id;
    int tc = 0;
    nic_pool_sample s;
    uint64_t ivl_enq = 0, ivl_deq = 0, ivl_enq_bytes = 0, ivl_deq_bytes = 0;
    double interval_s = 0;
};

double gbps(uint64_t bytes, double interval_s)
{
    return interval_s > 0 ? double(bytes) * 8 / interval_s / 1e9 : 0.0;
}

const column_table<nb_row>& nb_columns()
{
    static const column_table<nb_row> c = {
        {"job_id", "`Simulation.Name`", UETSIM_CELL(nb_row, r.job_id)},
        {"time_utc", "`Simulation.EpochUtc` + simulated time", UETSIM_CELL(nb_row, r.time_utc)},
        {"sim_time_sec", "simulated time of the row: the end of the interval",
         UETSIM_CELL(nb_row, r.sim_time_s)},
        {"component_name", "the NIC's host: `host3`", UETSIM_CELL(nb_row, r.dev->name)},
        {"node_id", "the NIC's node id (its FEP id)", UETSIM_CELL(nb_row, r.dev->node_id)},
        {"buffer_id",
         "`RX_TC<n>_BUFFER`, the receive pool of class n, or `TX_TC<n>_BUFFER`, its transmit "
         "pool, one for each class with a pool",
         UETSIM_CELL(nb_row, r.buffer_id)},
        {"tc", "the traffic class", UETSIM_CELL(nb_row, r.tc)},
        {"occupancy_B",
         "bytes the pool holds at the row's time: a receive pool the packets charged at their "
         "size without Ethernet header and FCS (4,184 B for a full data packet), data until its "
         "write to the host is done and control until processed; a transmit pool the "
         "reservations of the frames waiting to be sent, each at its wire size (4,202 B for a "
         "full data packet) until its serialization ends",
         UETSIM_CELL(nb_row, r.s.occupancy)},
        {"max_occupancy_B", "the most bytes the pool has held since the start",
         UETSIM_CELL(nb_row, r.s.max_occupancy)},
        {"buffer_max_size_B",
         "the pool's size: `PoolAllocationVector[tc]` × `TotalBufferSize` of the receive "
         "(Ingress) or transmit (Egress) buffer",
         UETSIM_CELL(nb_row, r.s.pool_bytes)},
        {"num_enq", "packets charged to the pool since the start", UETSIM_CELL(nb_row, r.s.enq)},
        {"num_deq", "packets released from the pool since the start", UETSIM_CELL(nb_row, r.s.deq)},
        {"interval_num_enq", "packets charged since the previous row",
         UETSIM_CELL(nb_row, r.ivl_enq)},
        {"interval_num_deq", "packets released since the previous row",
         UETSIM_CELL(nb_row, r.ivl_deq)},
        {"interval_enq_B", "bytes charged since the previous row",
         UETSIM_CELL(nb_row, r.ivl_enq_bytes)},
        {"interval_deq_B", "bytes released since the previous row",
         UETSIM_CELL(nb_row, r.ivl_deq_bytes)},
        {"interval_max_occupancy_B",
         "the most bytes the pool held since the previous row (its occupancy then, if nothing "
         "was charged since)",
         UETSIM_CELL(nb_row, r.s.ivl_max_occupancy)},
        {"enq_Gbps", "`interval_enq_B` × 8 / the interval, Gb/s",
         UETSIM_CELL(nb_row, gbps(r.ivl_enq_bytes, r.interval_s))},
        {"deq_Gbps", "`interval_deq_B` × 8 / the interval, Gb/s",
         UETSIM_CELL(nb_row, gbps(r.ivl_deq_bytes, r.interval_s))},
        {"overflow",
         "packets the pool could not hold since the start: a receive pool's drops (counted in "
         "`nd-stats` `rx_drops`); 0 for a transmit pool, which never drops (a data packet "
         "without room waits)",
         UETSIM_CELL(nb_row, r.s.overflow)},
        {"percent_occupancy", "`occupancy_B` / `buffer_max_size_B` × 100",
         UETSIM_CELL(nb_row, r.s.pool_bytes ? 100.0 * double(r.s.occupancy) / double(r.s.pool_bytes)
                                            : 0.0)},
    };
    return c;
}

// The NIC's own EnableBufferStats, whatever its type.
bool buffer_stats_on(fabric& fab, size_t h)
{
    return fab.nic_at(h).buffer_stats_enabled();
}

class nb_open : public open_record
{
public:
    nb_open(record_context& ctx, const std::string& path)
        : m_sc(ctx.sc), m_fab(ctx.fab), m_csv(path, nb_columns())
    {
        const topology& t = m_fab.topo();
        for (uint32_t d = 0; d < t.devices.size(); ++d) {
            const device& dev = t.devices[d];
            if (dev.kind != device_kind::host || d >= m_fab.nic_count()) continue;
            if (!buffer_stats_on(m_fab, d)) continue;
            nic_port& port = m_fab.nic_at(d).port;
            port.keep_buffer_stats();
            for (bool rx : {true, false}) {
                const int classes = rx ? port.rx_buffer().classes() : port.tx_classes();
                for (int tc = 0; tc < classes; ++tc)
                    m_pools.push_back(
                        {d, rx, tc, (rx ? "RX_TC" : "TX_TC") + std::to_string(tc) + "_BUFFER"});
            }
        }
        ctx.clocks.network_buffer_stats.follow([this](double now) { write(now); });
    }
    void finish() override
    {
        const double now = to_seconds(sim_now());
        if (m_csv.rows() == 0 || now > m_last_s) write(now);
        m_csv.close();
    }

private:
    struct pool
    {
        uint32_t device;
        bool rx;
        int tc;
        std::string id;
        uint64_t last_enq = 0, last_deq = 0, last_enq_bytes = 0, last_deq_bytes = 0;
    };

    void write(double now)
    {
        const topology& t = m_fab.topo();
        const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
        const uint64_t now_ps = ps_from_seconds(now);
        for (pool& p : m_pools) {
            nic_port& port = m_fab.nic_at(p.device).port;
            nb_row r;
            r.job_id = m_sc.simulation.name;
            r.time_utc = utc;
            r.sim_time_s = now;
            r.dev = &t.devices[p.device];
            r.buffer_id = p.id;
            r.tc = p.tc;
            r.s = p.rx ? port.rx_buffer().sample(p.tc, now_ps) : port.tx_sample(p.tc);
            r.ivl_enq = r.s.enq - p.last_enq;
            r.ivl_deq = r.s.deq - p.last_deq;
            r.ivl_enq_bytes = r.s.enq_bytes - p.last_enq_bytes;
            r.ivl_deq_bytes = r.s.deq_bytes - p.last_deq_bytes;
            p.last_enq = r.s.enq, p.last_deq = r.s.deq;
            p.last_enq_bytes = r.s.enq_bytes, p.last_deq_bytes = r.s.deq_bytes;
            r.interval_s = now - m_last_s;
            m_csv.write(r);
        }
        // The next interval's maxima start from the occupancy now.
        for (size_t i = 0; i < m_pools.size(); ++i)
            if (i == 0 || m_pools[i].device != m_pools[i - 1].device)
                m_fab.nic_at(m_pools[i].device).port.start_buffer_stats_interval(now_ps);
        m_last_s = now;
    }

    const scenario& m_sc;
    fabric& m_fab;
    record_csv<nb_row> m_csv;
    std::vector<pool> m_pools;
    double m_last_s = 0;
};

}  // namespace

const record_def& net_buff_stats_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "net-buff-stats";
        r.enabled_position = 11;
        r.on_by_default = false;  // the reference's EnableNetworkBufferStatsReporting is false
        r.when =
            "when `Records.Enabled` lists it (the reference's global "
            "`EnableNetworkBufferStatsReporting`, default off), for the NICs whose "
            "`UetNic.EnableBufferStats` or `RoceNic.EnableBufferStats` is true (default false)";
        r.intro =
            "One row per pool of those NICs every `Simulation.NetworkBufferStatsReportingInterval` "
            "(default 1 ms,\nthe first at `StartTime` + `ClientStartOffset` + the interval with "
            "the "
            "RDMA application, as the\nother periodic records), and a last set when the run ends; "
            "in node id order, each NIC's receive\npools (`RX_TC0_BUFFER`, `RX_TC1_BUFFER` at the "
            "defaults) then its transmit pools (`TX_TC0_BUFFER`,\n`TX_TC1_BUFFER`). With only one "
            "of the two switches on, no row is written (no file without a NIC\nthat has "
            "`EnableBufferStats`). At the defaults `buffer_max_size_B` is 3,600,000, 400,000, "
            "230,400\nand 25,600 B.";
        r.columns = column_docs(nb_columns());
        r.notes =
            "`TX_TC0_BUFFER` is the egress data pool, which every data frame reserves in whatever "
            "its class\n([buffers-and-pfc.md](buffers-and-pfc.md#uet-nic-buffers)); a data frame "
            "reserves it from its payload\nfetch, or with `UetNic.PrefetchBufferEnable` from its "
            "commit to the wire, until serialized.\n`TX_TC1_BUFFER` holds the control frames "
            "(ACKs, NACKs, probes, their answers, connection\nmessages) from when they are queued "
            "at the port (an ACK after its hold) until serialized. PFC\nframes are never charged. "
            "The ports count their pools only while this record is written.";
        r.applies = [](const record_context& ctx) {
            for (size_t h = 0; h < ctx.fab.nic_count(); ++h)
                if (buffer_stats_on(ctx.fab, h)) return true;
            return false;
        };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<nb_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
