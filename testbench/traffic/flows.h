// The Flows traffic source and its scoreboard: each message of the scenario's Flows list is sent
// as MSS-sized packets by its source host from its start time; each packet carries an entropy
// value (UDP source port) from the message's set. The receiving side checks that every byte
// arrives exactly once and records the message's completion (flow-perf).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "hw/kernel/wakeup.h"
#include "tlm/packet_pool.h"
#include "testbench/records/flow_perf_record.h"
#include "testbench/records/perf_record.h"
#include "testbench/scenario.h"

namespace uetsim {

class flow_host;

struct flow_message
{
    flow_spec spec;
    uint32_t id = 0;
    uint16_t entropy_base = 0;
    // The sender's data MSS (its NIC type's; on a mixed fabric, each host's own).
    uint32_t mss = 0;
    uint32_t packets_total = 0;
    uint32_t packets_sent = 0;
    uint32_t packets_received = 0;
    uint64_t bytes_received = 0;
    uint64_t duplicates = 0;
    uint64_t trimmed_arrivals = 0;
    std::vector<bool> received;  // per packet: exactly-once check
    double finish_s = -1;        // its completion (CompletionAt's end): its flow-perf row
    bool sender_done = false;    // the sender's completion (NIC-less: the last byte arrived)
    bool done() const { return finish_s >= 0; }
    // Done at both ends the run waits for: its completion and its sender's; a UUD message, done
    // at send, also waits for its last packet at the receiver (one it lost never comes: the run
    // then ends at its StopTime).
    bool finished() const
    {
        return done() && sender_done &&
               (spec.mode != delivery_mode::uud || packets_received == packets_total);
    }
    // A UUD message that is done and lost packets (not sent again: the loss is the
    // application's to see).
    bool unreliable_loss() const
    {
        return spec.mode == delivery_mode::uud && done() && packets_received < packets_total;
    }
};

class flows : public sc_core::sc_module
{
public:
    flows(const sc_core::sc_module_name& name, const scenario& sc, packet_pool& pool);

    // NIC-less hosts: the flows feed their packets and receive them back (deliver()).
    void attach(std::vector<flow_host*> hosts) { m_hosts = std::move(hosts); }
    // NIC hosts: a message is posted to the source NIC at its start time; the NIC reports each
    // payload written at the receiver (written()) and the sender's completion (completed()).
    using poster = std::function<void(const flow_message&)>;
    void attach(poster post) { m_post = std::move(post); }
    // NIC hosts: a deferrable send's receive buffer is posted at its receiver at RecvPostedAt.
    void attach_receive_poster(poster post) { m_post_receive = std::move(post); }
    // flow-perf: one row per completed message into `w` (null: none); the record owns `w`.
    void record_to(flow_perf_csv* w, std::string epoch)
    {
        m_perf = w;
        m_epoch = std::move(epoch);
    }
    // perf: one row per completed message into `w` (null: none), `job` its job_id; the record
    // owns `w`.
    void record_transactions_to(perf_csv* w, std::string job)
    {
        m_transactions = w;
        m_job = std::move(job);
    }
    // Called once every message has completed.
    void on_all_done(std::function<void()> f) { m_all_done = std::move(f); }

    // flow_host hooks.
    packet* next_packet(uint32_t m, bool& more);
    void deliver(packet& p);

    // NIC hooks.
    void written(uint64_t message, uint64_t offset, uint32_t bytes);
    void completed(uint64_t message, double time_s);
    // The receiving NIC's completion entry for `message` landed in the receiver's memory.
    void received(uint64_t message, double time_s);

    const std::vector<flow_message>& messages() const { return m_msgs; }
    uint32_t completed() const { return m_completed; }
    // Messages whose start time has come (posted to their sender).
    uint32_t started() const { return uint32_t(m_next_start); }
    uint64_t data_packets_sent() const { return m_sent; }
    // Empty when every message completed with every byte exactly once; a UUD message's lost
    // packets are not a fault of the run (losses_report).
    std::string scoreboard_report() const;
    // UUD messages that lost packets: how many, their packets lost, one line each.
    struct unreliable_losses
    {
        uint32_t messages = 0;
        uint64_t packets = 0;
        std::string report;
    };
    unreliable_losses losses_report() const;

private:
    void start_due();
    void receives_due();
    void receive_payload(flow_message& m, uint64_t offset, uint32_t bytes);
    void complete(flow_message& m, double now);
    void finish_if_done(const flow_message& m);

    packet_pool& m_pool;
    std::vector<flow_message> m_msgs;
    std::vector<uint32_t> m_start_order;
    size_t m_next_start = 0;
    std::vector<flow_host*> m_hosts;
    poster m_post;
    poster m_post_receive;
    std::vector<uint32_t> m_receive_order;  // deferrable sends by RecvPostedAt
    size_t m_next_receive = 0;
    flow_perf_csv* m_perf = nullptr;
    perf_csv* m_transactions = nullptr;
    std::string m_job;
    std::string m_epoch;
    std::function<void()> m_all_done;
    uint32_t m_completed = 0;
    uint32_t m_finished = 0;
    uint64_t m_sent = 0;
    wakeup m_due{[this] { start_due(); }};
    wakeup m_receive_due{[this] { receives_due(); }};
};

}  // namespace uetsim
