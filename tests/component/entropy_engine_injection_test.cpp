// An entropy engine injected through uet_nic_params (the seam an RTL load balancer uses) on the
// two-NIC bench (tests/support/uet_nic_pair.h): its answers are what the data packets carry on
// the wire and what path feedback brings back, and an answer ready as late as the EntropyLookup
// stage's completion moves nothing in time: the solo 1 MiB message completes at the analytic
// 21,828.72 ns of uet_nic_pair_test. An answer ready after the stage completes stops the run
// with an error naming UetNic.EntropyLookupCycles. Likewise an injected SACK tracker's answers
// are the fields the ACKs carry.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <systemc>

#include "hw/common/picoseconds.h"
#include "hw/nic/uet/entropy/entropy_engine.h"
#include "hw/nic/uet/sack_tracker.h"
#include "tests/support/uet_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

// The C++ model's value plus 1000, ready `latency_ps` after the request.
class shifted_engine : public entropy_engine
{
public:
    shifted_engine(uint32_t contexts, uint64_t latency_ps)
        : entropy_engine(contexts), m_latency_ps(latency_ps)
    {
    }
    entropy_answer next(uint32_t slot, uint64_t now_ps) override
    {
        const entropy_answer m = entropy_engine::next(slot, now_ps);
        return {uint16_t(m.value + 1000), now_ps + m_latency_ps};
    }
    void feedback(uint32_t slot, uint16_t entropy, path_feedback f, uint64_t now_ps) override
    {
        fed_back.push_back(entropy);
        entropy_engine::feedback(slot, entropy, f, now_ps);
    }
    std::vector<uint16_t> fed_back;
    std::string nic;
    uint64_t cycle_ps = 0;

private:
    uint64_t m_latency_ps;
};

// NIC A's parameters with the shifted engine; `made` is set to the engine the NIC built.
uet_nic_params with_engine(uint64_t latency_ps, shifted_engine** made)
{
    uet_nic_params p = pair_params();
    p.make_entropy_engine = [latency_ps, made](const nic_engine_context& c) {
        auto e = std::make_unique<shifted_engine>(c.contexts, latency_ps);
        e->nic = c.nic;
        e->cycle_ps = c.cycle_ps;
        *made = e.get();
        return e;
    };
    return p;
}

}  // namespace

TEST(entropy_engine_injection, the_packets_carry_the_engines_values_and_nothing_moves_in_time)
{
    shifted_engine* engine = nullptr;
    // Ready 1 ns (one cycle, the EntropyLookup stage's latency) after the pick: the stage
    // completes no earlier, so this is the latest answer allowed for the first packet.
    nic_pair n(with_engine(1000, &engine));
    ASSERT_NE(engine, nullptr);
    EXPECT_EQ(engine->nic, "nic_a");
    EXPECT_EQ(engine->cycle_ps, 1000u);  // 1 GHz
    EXPECT_EQ(engine->contexts(), 4096u);
    recording_monitor mon;
    n.a.set_monitor(&mon);
    std::vector<uint16_t> ports;
    n.to_b.edit = [&](packet& p) {
        if (p.kind == packet_kind::uet_data) ports.push_back(p.udp.src_port);
    };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_NEAR(double(n.dma_a.completed[1][0]), 21'828'720.0, 1.0);  // ps, as the model alone
    EXPECT_TRUE(n.dma_b.written_once(0, 1, 1 << 20));
    // Default Packet Spraying gives 256 + i mod 128 for the i-th packet; the engine adds 1000.
    ASSERT_EQ(ports.size(), 256u);
    for (size_t i = 0; i < ports.size(); ++i) ASSERT_EQ(ports[i], 1256 + i % 128) << i;
    // The uet-monitor rows of the data sent name the same values.
    size_t tx = 0;
    for (const uet_monitor_row& r : mon.rows)
        if (r.direction == uet_monitor_row::dir::tx &&
            r.packet_type == uet_monitor_row::type::rud_request) {
            ASSERT_TRUE(r.has_entropy);
            EXPECT_EQ(r.entropy_value, 1256 + tx % 128) << tx;
            ++tx;
        }
    EXPECT_EQ(tx, 256u);
    // Each ACK brings back the value its packet carried: the engine's own.
    ASSERT_EQ(engine->fed_back.size(), 256u);
    for (size_t i = 0; i < engine->fed_back.size(); ++i)
        ASSERT_EQ(engine->fed_back[i], 1256 + i % 128) << i;
    // The slot closed with the group when the message completed.
    EXPECT_EQ(engine->in_use(), 0u);
    EXPECT_EQ(engine->max_in_use(), 1u);
}

TEST(entropy_engine_injection, an_answer_after_the_entropy_lookup_stage_stops_the_run)
{
    shifted_engine* engine = nullptr;
    nic_pair n(with_engine(2000, &engine));  // 2 cycles; the stage takes 1
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 4096, 0, k_no_queue_pair);
    // The error leaves the kernel as a SystemC report; catch it here rather than fail on it.
    sc_core::sc_report_handler::set_handler(
        [](const sc_core::sc_report& r, const sc_core::sc_actions&) { throw r; });
    std::string message;
    try {
        sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    } catch (const sc_core::sc_report& r) {
        message = r.get_msg();
    }
    for (const char* part :
         {"nic_a", "after the EntropyLookup stage completed", "UetNic.EntropyLookupCycles (now 1)"})
        EXPECT_NE(message.find(part), std::string::npos) << part << " in: " << message;
    EXPECT_EQ(n.b.counters().write_pkts_rcvd, 0u);  // the packet never left
}

namespace {

// The C++ model's ACK fields but for the SACK base, moved by 1000 PSNs: with nothing out of order
// the bitmap is empty, so the sender reads only the cumulative ACK and nothing else changes.
class moved_base_tracker : public sack_tracker
{
public:
    using sack_tracker::sack_tracker;
    sack_ack_fields next_ack(uint32_t slot) override
    {
        sack_ack_fields f = sack_tracker::next_ack(slot);
        answers.push_back(f);
        f.sack_base += 1000;
        return f;
    }
    std::vector<sack_ack_fields> answers;
};

}  // namespace

TEST(entropy_engine_injection, the_acks_carry_an_injected_sack_trackers_fields)
{
    moved_base_tracker* tracker = nullptr;
    uet_nic_params pb = pair_params();
    pb.make_sack_tracker = [&tracker](const nic_engine_context& c) {
        auto t = std::make_unique<moved_base_tracker>(c.contexts);
        tracker = t.get();
        return t;
    };
    nic_pair n(pair_params(), pb);
    ASSERT_NE(tracker, nullptr);
    recording_monitor mon;
    n.a.set_monitor(&mon);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    n.a.post_message(1, 1, k_ip_b, 1 << 20, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    ASSERT_EQ(n.dma_a.completed[1].size(), 1u);
    EXPECT_NEAR(double(n.dma_a.completed[1][0]), 21'828'720.0, 1.0);  // ps: nothing moved
    EXPECT_EQ(tracker->in_use(), 1u);  // the receiving end keeps its slot
    ASSERT_EQ(tracker->answers.size(), 256u);
    size_t acks = 0;
    for (const uet_monitor_row& r : mon.rows)
        if (r.direction == uet_monitor_row::dir::rx &&
            r.packet_type == uet_monitor_row::type::ack_cc && r.has_ack) {  // not the probe's
            ASSERT_LT(acks, tracker->answers.size());
            const sack_ack_fields& f = tracker->answers[acks++];
            EXPECT_EQ(r.cack_psn, f.cack);
            EXPECT_EQ(f.sack_base, f.cack + 1);  // the model's: the PSN after the CACK
            EXPECT_EQ(r.sack_base_psn, f.sack_base + 1000);
        }
    EXPECT_EQ(acks, 256u);
}

// The engine hands the model the seconds the NIC always gave it: sc_time::to_seconds().
TEST(entropy_engine_injection, seconds_from_ps_is_the_kernels_to_seconds)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    std::mt19937_64 rng(5);
    for (int i = 0; i < 1000000; ++i) {
        const uint64_t ps = rng() >> (rng() % 40);
        ASSERT_EQ(seconds_from_ps(ps), sc_core::sc_time::from_value(ps).to_seconds()) << ps;
    }
}
