// Deferrable sends (UET 1.0 DEFERRABLE_SEND / DEFERRABLE_RTR) on the two-NIC bench
// (tests/support/uet_nic_pair.h: 400 Gb/s, 100 ns of propagation, stubbed host DMA that fetches
// and writes in no time). NIC A sends a 16 KiB message (4 packets of 4,096 B) to NIC B as a
// deferrable send.
//
// Posted late: B's host posts the buffer at T = 10 us, long after the first transfer arrived
// (and was discarded). B then sends its RTR, a 0-byte request (106 B frame: 2.12 ns) to A; A
// sends the 4 packets again (4 x 4,202 B = 336.16 ns on the wire); B acknowledges the last one
// (78 B ACK: 1.56 ns). Each crossing adds 100 ns, so the message completes at A no earlier than
//   T + (2.12 + 100) + (336.16 + 100) + (1.56 + 100) = T + 639.84 ns,
// the post time plus the resume's round trip and the message's serialization; the NIC's stage
// latencies and B's ACK hold (the last packet's service time at the stub's 400 Gbps: 4,184 B =
// 83.68 ns) add less than 300 ns more. B's host gets every byte once, from the restarted
// transfer only; the first transfer's packets are acknowledged (A's window empties) but not
// written.
//
// Posted early: a buffer posted before the first packet arrives makes the send eager, as fast
// as an ordinary message (compared with one sent the same way).
#include <gtest/gtest.h>

#include <cstdint>

#include <systemc>

#include "hw/kernel/wakeup.h"
#include "tests/support/uet_nic_pair.h"

using namespace uetsim;
using namespace uetsim::test;

namespace {

constexpr uint64_t k_message = 7;
constexpr uint64_t k_bytes = 4 * 4096;
constexpr uint64_t k_post_ps = 10'000'000;                                            // T = 10 us
constexpr double k_resume_ps = 2120 + 100'000 + 336'160 + 100'000 + 1'560 + 100'000;  // 639.84 ns

uint64_t completion_ps(const nic_pair& n, uint64_t message)
{
    auto it = n.dma_a.completed.find(message);
    return it == n.dma_a.completed.end() || it->second.empty() ? 0 : it->second.front();
}

}  // namespace

TEST(uet_deferrable, a_send_before_its_buffer_is_deferred_and_completes_after_the_resume)
{
    nic_pair n;
    wakeup post{[&] { n.b.receive_posted(0, k_message); }};
    post.notify_at_ps(k_post_ps);
    n.a.post_deferrable_message(k_message, 1, k_ip_b, k_bytes, 0);
    // Before the post: the first transfer arrived and was discarded, nothing completed.
    sc_core::sc_start(sc_core::sc_time(k_post_ps, sc_core::SC_PS));
    EXPECT_TRUE(n.dma_b.writes.empty());
    EXPECT_TRUE(n.dma_a.completed.empty());
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    const uint64_t done = completion_ps(n, k_message);
    ASSERT_GT(done, 0u);
    EXPECT_EQ(n.dma_a.completed.at(k_message).size(), 1u);
    EXPECT_GE(double(done), double(k_post_ps) + k_resume_ps);
    EXPECT_LT(double(done), double(k_post_ps) + k_resume_ps + 300'000);
    EXPECT_TRUE(n.dma_b.written_once(0, k_message, k_bytes));
    // The RTR is B's own message to A: it reaches neither host's software as data.
    EXPECT_TRUE(n.dma_a.writes.empty());
}

TEST(uet_deferrable, a_buffer_posted_before_the_first_packet_makes_the_send_eager)
{
    nic_pair n;
    n.b.receive_posted(0, k_message);
    n.a.post_deferrable_message(k_message, 1, k_ip_b, k_bytes, 0);
    sc_core::sc_start(sc_core::sc_time(50, sc_core::SC_US));
    const uint64_t deferrable = completion_ps(n, k_message);
    ASSERT_GT(deferrable, 0u);
    EXPECT_TRUE(n.dma_b.written_once(0, k_message, k_bytes));
    // An ordinary message of the same size, sent the same way once the first is done.
    const uint64_t start = uint64_t(sc_core::sc_time_stamp().value());
    n.a.post_message(k_message + 1, 1, k_ip_b, k_bytes, 0, k_no_queue_pair);
    sc_core::sc_start(sc_core::sc_time(50, sc_core::SC_US));
    const uint64_t ordinary = completion_ps(n, k_message + 1);
    ASSERT_GT(ordinary, start);
    EXPECT_EQ(deferrable, ordinary - start);
}

TEST(uet_deferrable, a_buffer_posted_while_the_first_transfer_arrives_still_restarts_it)
{
    // Posted 300 ns in: the first packet (arriving at about 215 ns) has deferred the message;
    // later ones still on the wire are discarded too; the restarted transfer alone is written,
    // once.
    nic_pair n;
    wakeup post{[&] { n.b.receive_posted(0, k_message); }};
    post.notify_at_ps(300'000);
    n.a.post_deferrable_message(k_message, 1, k_ip_b, k_bytes, 0);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
    const uint64_t done = completion_ps(n, k_message);
    ASSERT_GT(done, 0u);
    EXPECT_GE(double(done), 300'000 + k_resume_ps);
    EXPECT_TRUE(n.dma_b.written_once(0, k_message, k_bytes));
}
