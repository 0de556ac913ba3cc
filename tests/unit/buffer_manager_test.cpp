// Switch buffer admission and occupancy (static mode), without the kernel. Numbers are the
// switch pages' defaults: PlaneBDP 300,000 B, QueueDropThreshold 5, a 4,096-byte UET data packet
// charged its 4,184-byte IP datagram.
#include <gtest/gtest.h>

#include "hw/switch/buffer_manager.h"

using namespace uetsim;

namespace {

constexpr uint64_t k_data = 4184;

// How many 4,184-byte packets (port 0, pool 0) admits before the first refusal.
int fill(buffer_manager& b, bool rtx = false)
{
    int n = 0;
    while (b.admit(0, 0, 0, 0, k_data, rtx)) {
        b.charge(0, 0, k_data);
        ++n;
    }
    return n;
}

}  // namespace

// Without trimming: 5 x PlaneBDP = 1,500,000 B per (port, pool); 358 x 4,184 = 1,497,872 fits,
// the 359th (1,502,056) does not; 2,128 B more fit exactly, 2,129 do not.
TEST(buffer_manager, static_limit_without_trimming_is_five_plane_bdp)
{
    switch_config sc;
    const buffer_config c = switch_buffer_config(sc);
    EXPECT_EQ(c.port_pool_limit_bytes, 1'500'000u);
    buffer_manager b(4, c);
    EXPECT_EQ(b.limit(false), 1'500'000u);
    EXPECT_EQ(fill(b), 358);
    EXPECT_EQ(b.port_pool_bytes(0, 0), 1'497'872u);
    EXPECT_FALSE(b.admit(0, 0, 0, 0, 2129, false));
    EXPECT_TRUE(b.admit(0, 0, 0, 0, 2128, false));
}

// With trimming: PlaneBDP = 300,000 B; 71 x 4,184 = 297,064 fits, 72 (301,248) does not.
TEST(buffer_manager, static_limit_with_trimming_is_one_plane_bdp)
{
    switch_config sc;
    sc.trimming_enabled = true;
    buffer_manager b(4, switch_buffer_config(sc));
    EXPECT_EQ(b.limit(false), 300'000u);
    EXPECT_EQ(fill(b), 71);
    EXPECT_EQ(b.port_pool_bytes(0, 0), 297'064u);
    EXPECT_FALSE(b.admit(0, 0, 0, 0, 2937, false));  // 300,001
    EXPECT_TRUE(b.admit(0, 0, 0, 0, 2936, false));   // 300,000
}

// A trimmable retransmission may use 1.5 x the limit: 450,000 B, 107 x 4,184 = 447,688 fits.
TEST(buffer_manager, trimmable_retransmission_allowance_is_one_and_a_half_limits)
{
    switch_config sc;
    sc.trimming_enabled = true;
    buffer_manager b(1, switch_buffer_config(sc));
    EXPECT_EQ(b.limit(true), 450'000u);
    EXPECT_EQ(fill(b), 71);
    EXPECT_EQ(fill(b, true), 107 - 71);  // retransmissions go on where new data stopped
    EXPECT_EQ(b.port_pool_bytes(0, 0), 447'688u);
    // The allowance rounds down: 1,001 + 500.
    buffer_config odd;
    odd.port_pool_limit_bytes = 1001;
    EXPECT_EQ(buffer_manager(1, odd).limit(true), 1501u);
}

// An explicit EgressQueueLimit overrides the PlaneBDP derivation.
TEST(buffer_manager, explicit_egress_queue_limit_wins)
{
    switch_config sc;
    sc.egress_queue_limit_bytes = 10 * k_data;
    buffer_manager b(1, switch_buffer_config(sc));
    EXPECT_EQ(fill(b), 10);
}

// Each (port, pool) has its own limit; the totals see across ports.
TEST(buffer_manager, occupancy_per_port_pool_port_pool_and_total)
{
    buffer_config c;
    c.port_pool_limit_bytes = 10'000;
    c.buffer_bytes = 50'000;
    buffer_manager b(3, c);
    EXPECT_EQ(b.ports(), 3u);
    EXPECT_EQ(b.free_bytes(), 50'000u);
    b.charge(0, 0, 9'000);
    b.charge(0, 1, 4'000);
    b.charge(2, 0, 6'000);
    EXPECT_FALSE(b.admit(1, 0, 0, 0, 1'001, false));  // port 0 pool 0: 9,000 + 1,001
    EXPECT_TRUE(b.admit(1, 0, 1, 1, 6'000, false));   // pool 1 of the same port
    EXPECT_TRUE(b.admit(1, 2, 0, 0, 4'000, false));   // pool 0 of another port
    EXPECT_EQ(b.port_pool_bytes(0, 0), 9'000u);
    EXPECT_EQ(b.port_bytes(0), 13'000u);
    EXPECT_EQ(b.port_bytes(1), 0u);
    EXPECT_EQ(b.pool_bytes(0), 15'000u);  // across ports 0 and 2
    EXPECT_EQ(b.pool_bytes(1), 4'000u);
    EXPECT_EQ(b.held_bytes(), 19'000u);
    EXPECT_EQ(b.free_bytes(), 31'000u);
    b.release(0, 0, 9'000);
    EXPECT_TRUE(b.admit(1, 0, 0, 0, 10'000, false));
    EXPECT_EQ(b.pool_bytes(0), 6'000u);
    EXPECT_EQ(b.held_bytes(), 10'000u);
    EXPECT_EQ(b.free_bytes(), 40'000u);
}

// Static mode does not bound the whole buffer: no free space is reported.
TEST(buffer_manager, unbounded_buffer_reports_no_free_space)
{
    buffer_manager b(2, buffer_config{});
    b.charge(1, 0, 100);
    EXPECT_EQ(b.free_bytes(), 0u);
    EXPECT_EQ(b.held_bytes(), 100u);
}

namespace {

// A policy of the shape the shared buffer takes: a (port, pool) may grow while it holds less
// than alpha x the free space of a bounded buffer (here alpha = 1, buffer 100,000 B).
class free_space_policy final : public admission_policy
{
public:
    bool admit(const buffer_manager& b, uint16_t, uint16_t out_port, uint8_t pool, uint8_t,
               uint64_t bytes, bool) const override
    {
        ++calls;
        return b.port_pool_bytes(out_port, pool) + bytes <= b.free_bytes();
    }
    mutable int calls = 0;
};

}  // namespace

// With a policy set, admission is the policy's: with 100,000 B and one port filling, the (port,
// pool) stops where its bytes + the next packet exceed the free rest. 11 x 4,184 = 46,024 held
// leaves 53,976 free, and 46,024 + 4,184 = 50,208 <= 53,976 admits a 12th; then 50,208 held
// leaves 49,792 free and 54,392 > 49,792 refuses the 13th. The static limit (1.5 MB) would take
// all of them. The occupancy the policy reads is the manager's, across ports.
TEST(buffer_manager, a_policy_behind_the_seam_decides_from_the_managers_occupancy)
{
    buffer_config c;
    c.buffer_bytes = 100'000;
    buffer_manager b(2, c);
    auto policy = std::make_unique<free_space_policy>();
    const free_space_policy* p = policy.get();
    b.set_policy(std::move(policy));
    EXPECT_EQ(fill(b), 12);
    EXPECT_EQ(b.held_bytes(), 12 * k_data);
    EXPECT_EQ(p->calls, 13);
    // Another port's bytes count against the free space too.
    b.charge(1, 0, 40'000);
    EXPECT_EQ(b.free_bytes(), 100'000 - 12 * k_data - 40'000);
    EXPECT_FALSE(b.admit(0, 1, 0, 0, 1, false));  // 40,001 > 9,792 free
}
