// The RDMA application: Initiators and Responders placed on the hosts and paired (placement.h),
// NumConnections connections per pair, each with its own Initiator and Responder instance and
// its own queue pair on both NICs. Each connection is set up with three messages across the
// network at its start time (StartType), then keeps MaxPendingWQEs RDMA WRITEs outstanding:
// a doorbell over PCIe per WQE, one more WQE each time the NIC's completion lands in host
// memory, until the stop time. Writes rdma-perf (one row per completed WQE) and beacon.
//
// Event-driven: one agenda of timed actions behind a single wake-up, so thousands of
// connections cost no processes.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "hw/common/deadline_heap.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/wakeup.h"
#include "testbench/traffic/app/placement.h"
#include "testbench/traffic/app/timeline.h"
#include "testbench/traffic/app/wqe_scoreboard.h"
#include "testbench/elab/fabric.h"
#include "testbench/traffic/host_software.h"
#include "testbench/records/perf_record.h"
#include "testbench/records/rdma_records.h"
#include "testbench/scenario.h"

namespace uetsim {

class rdma_application : public sc_core::sc_module, public host_software
{
public:
    // A connection's Initiator retries its request when no response came within this time.
    static constexpr double k_connect_retry_s = 100e-6;

    rdma_application(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab);

    // rdma-perf and beacon rows go to these (null: none); the records own them.
    void record_perf_to(rdma_perf_csv* w) { m_perf = w; }
    void record_beacon_to(beacon_csv* w) { m_beacon = w; }
    // perf: one row per completed WQE into `w` (null: none); the record owns `w`.
    void record_transactions_to(perf_csv* w) { m_transactions = w; }
    // The last beacon row at the end of the run (before the records close).
    void finish();

    void host_memory_written(uint32_t host, const pcie_tag& tag, const unsigned char* data,
                             uint32_t bytes, const sc_core::sc_time& at) override;

    const placement& hosts() const { return m_placement; }
    const run_timeline& timeline() const { return m_timeline; }
    uint64_t wqes_posted() const { return m_posted; }
    uint64_t wqes_completed() const { return m_completed; }
    uint32_t connections() const { return uint32_t(m_conns.size()); }
    // Connection `i`'s two hosts and its Initiator instance's name (application-report).
    struct endpoints
    {
        uint32_t initiator, responder;
        const std::string& initiator_name;
    };
    endpoints connection_endpoints(uint32_t i) const
    {
        return {m_conns[i].initiator, m_conns[i].responder, m_conns[i].name};
    }
    uint32_t connections_set_up() const;
    // Empty when every byte of every WQE landed exactly once, every completed WQE had all of
    // its bytes, and every connection was set up and kept completing WQEs.
    std::string scoreboard_report() const;

private:
    struct connection
    {
        uint32_t id = 0;  // also its queue pair number on both NICs
        uint32_t initiator = 0, responder = 0;
        std::string name;  // the Initiator instance: rdma-perf application_name
        double request_s = 0;
        double setup_done_s = -1;      // the response reached the Initiator
        bool responder_acked = false;  // the acknowledgment reached the Responder
        uint32_t posted = 0, completed = 0;
        std::deque<uint64_t> doorbell_ps;  // posting times of the outstanding WQEs, in order
        // CompletionAt target: posting times of the WQEs whose receive completion is to come,
        // and the receive completions so far.
        std::deque<uint64_t> target_doorbell_ps;
        uint32_t target_completed = 0;
        double data_start_s = -1;
        double last_completion_s = -1;
    };
    enum class action_kind {
        request,
        retry,
        connection_message,
        data_start,
        completion,
        target_completion
    };
    struct action
    {
        uint64_t at_ps;
        uint64_t seq;  // ties in insertion order: deterministic
        action_kind kind;
        uint32_t conn;
        uint32_t host = 0;
        cm_fields cm{};
        uint32_t wqe_id = 0;
        uint64_t deadline() const { return at_ps; }
        bool operator>(const action& o) const
        {
            return at_ps != o.at_ps ? at_ps > o.at_ps : seq > o.seq;
        }
    };

    void schedule(action a);
    void run_agenda();
    void perform(const action& a);
    void send_cm(uint32_t from_host, cm_type type, const connection& c);
    void on_connection_message(uint32_t host, const cm_fields& m);
    void post_wqe(connection& c);
    void on_completion(connection& c, uint32_t wqe_id);
    void on_target_completion(connection& c, uint32_t wqe_id);
    // rdma-perf and perf rows of WQE `wqe_id` posted at `posted_ps`, complete now; `completed`
    // is the connection's count of WQEs completed at the measured end.
    void record_wqe(const connection& c, uint32_t wqe_id, uint64_t posted_ps, uint32_t completed);
    bool at_target() const { return m_sc.rdma.completion_at == completion_point::target; }
    void beacon_tick();
    void write_beacon(double now);
    double now_s() const { return sim_now().to_seconds(); }

    const scenario& m_sc;
    fabric& m_fab;
    placement m_placement;
    run_timeline m_timeline;
    std::vector<connection> m_conns;
    wqe_scoreboard m_board;
    deadline_heap<action> m_agenda;
    uint64_t m_seq = 0;
    wakeup m_agenda_wake{[this] { run_agenda(); }};
    wakeup m_beacon_wake{[this] { beacon_tick(); }, wakeup::phase::sample};
    rdma_perf_csv* m_perf = nullptr;
    beacon_csv* m_beacon = nullptr;
    perf_csv* m_transactions = nullptr;
    bool m_beacon_started = false;
    double m_last_beacon_s = 0;
    uint64_t m_posted = 0, m_completed = 0;
    double m_longest_wqe_s = 0;  // the largest perf_metric so far
    std::vector<unsigned char> m_scratch;
};

}  // namespace uetsim
