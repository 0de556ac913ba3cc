// The UET NIC's prefetch buffer, kernel-free, on the transport page's numbers: the default
// 262,144 B holds 62 full data packets of 4,202 B, a little more than half (0.58) of one group's
// 450,000 B maximum window; a fetch reserves the packet's wire size and its commit releases it;
// a fetch that does not fit blocks the transmit process until the buffer is at half or less; the
// payloads of a PDC are committed in PSN order and only once arrived; and the configuration
// rule (with the buffer on it holds one RdmaDataMSS + 106 B packet).
#include <gtest/gtest.h>

#include <string>

#include "hw/nic/uet/prefetch_buffer.h"

using namespace uetsim;

namespace {
const uint32_t k_full_wire = 4'202;  // RdmaDataMSS 4096 + 106
bool has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}
}  // namespace

TEST(prefetch_buffer, default_size_holds_62_full_packets_and_058_of_the_max_window)
{
    EXPECT_EQ(prefetch_buffer::full_packets(262'144, 4096), 62u);
    EXPECT_EQ(262'144u / k_full_wire, 62u);
    // Bandwidth-delay product 400 Gbps x InitialBaseRTT 6 us / 8, the maximum window 1.5 x BDP.
    const double bdp = 400e9 * 6e-6 / 8;
    EXPECT_DOUBLE_EQ(bdp, 300'000.0);
    EXPECT_DOUBLE_EQ(1.5 * bdp, 450'000.0);
    EXPECT_NEAR(262'144.0 / (1.5 * bdp), 0.58, 0.005);
    EXPECT_EQ(prefetch_buffer::min_size_bytes, 4'202u);
    EXPECT_EQ(prefetch_buffer::full_packets(prefetch_buffer::min_size_bytes, 4096), 1u);

    // The default buffer takes exactly 62 fetches of full packets, not a 63rd.
    prefetch_buffer b(262'144);
    pdc_prefetch q;
    uint32_t n = 0;
    while (b.fits(k_full_wire)) b.issue(q, n++, k_full_wire);
    EXPECT_EQ(n, 62u);
    EXPECT_EQ(b.occupancy(), 62u * k_full_wire);  // 260,524 B
    EXPECT_EQ(b.size() - b.occupancy(), 1'620u);
    EXPECT_EQ(q.bytes(), 62u * k_full_wire);
}

TEST(prefetch_buffer, a_fetch_reserves_its_wire_size_and_the_commit_releases_it_in_psn_order)
{
    prefetch_buffer b(3 * k_full_wire);
    pdc_prefetch p1, p2;  // two PDCs share the buffer
    b.issue(p1, 100, k_full_wire);
    b.issue(p2, 7, k_full_wire);
    b.issue(p1, 101, 1'106);  // a last segment of 1,000 B
    EXPECT_EQ(b.occupancy(), 2u * k_full_wire + 1'106);
    EXPECT_EQ(p1.bytes(), k_full_wire + 1'106u);
    EXPECT_EQ(p2.bytes(), k_full_wire);
    EXPECT_FALSE(b.fits(k_full_wire));
    EXPECT_TRUE(b.fits(k_full_wire - 1'106));

    // Nothing can be committed before its payload is in.
    EXPECT_FALSE(p1.ready());
    bool restart = false;
    EXPECT_THROW(b.commit(p1, restart), std::logic_error);
    b.arrive(p1);
    EXPECT_TRUE(p1.ready());
    EXPECT_EQ(p1.arrived(), 1u);
    EXPECT_EQ(p1.oldest().psn, 100u);

    const pdc_prefetch::entry e = b.commit(p1, restart);
    EXPECT_EQ(e.psn, 100u);
    EXPECT_EQ(e.wire_bytes, k_full_wire);
    EXPECT_FALSE(restart);  // not blocked
    EXPECT_EQ(b.occupancy(), k_full_wire + 1'106u);
    EXPECT_FALSE(p1.ready());  // PSN 101 is still crossing PCIe
    b.arrive(p1);
    EXPECT_EQ(b.commit(p1, restart).psn, 101u);
    EXPECT_TRUE(p1.empty());
    EXPECT_EQ(p1.bytes(), 0u);
    EXPECT_EQ(b.occupancy(), k_full_wire);
    EXPECT_EQ(b.max_occupancy(), 2u * k_full_wire + 1'106);
    EXPECT_EQ(b.fetches_issued(), 3u);
    EXPECT_EQ(b.commits(), 2u);
    EXPECT_THROW(b.arrive(p1), std::logic_error);
}

TEST(prefetch_buffer, a_blocked_transmit_process_restarts_at_half_the_size_or_less)
{
    // 10 full packets of room: 42,020 B, half 21,010 B.
    prefetch_buffer b(10 * k_full_wire);
    pdc_prefetch q;
    for (uint32_t i = 0; i < 10; ++i) b.issue(q, i, k_full_wire);
    ASSERT_FALSE(b.fits(k_full_wire));
    b.block();
    for (uint32_t i = 0; i < 10; ++i) b.arrive(q);
    bool restart = false;
    // 9, 8, 7, 6 packets left: above half.
    for (int i = 0; i < 4; ++i) {
        b.commit(q, restart);
        EXPECT_FALSE(restart) << "after commit " << i + 1;
        EXPECT_TRUE(b.blocked());
    }
    b.commit(q, restart);  // 5 packets = 21,010 B: half exactly
    EXPECT_EQ(b.occupancy(), 21'010u);
    EXPECT_TRUE(restart);
    EXPECT_FALSE(b.blocked());
    b.commit(q, restart);  // once only
    EXPECT_FALSE(restart);
}

TEST(prefetch_buffer, issuing_without_room_is_a_logic_error)
{
    prefetch_buffer b(prefetch_buffer::min_size_bytes);
    pdc_prefetch q;
    b.issue(q, 1, k_full_wire);
    EXPECT_THROW(b.issue(q, 2, 1), std::logic_error);
}

TEST(prefetch_buffer, the_rule_with_the_buffer_on_is_one_data_packet_on_the_wire)
{
    // Off: any size passes the run-time rule (4,202 is enforced when the key is written).
    EXPECT_EQ(prefetch_buffer_error(false, 4'202, 9000, "UetNic."), "");
    EXPECT_EQ(prefetch_buffer_error(true, 4'202, 4096, "UetNic."), "");
    EXPECT_EQ(prefetch_buffer_error(true, 9'106, 9000, "UetNic."), "");
    const std::string e = prefetch_buffer_error(true, 9'105, 9000, "UetNic.");
    EXPECT_TRUE(has(e, "UetNic.PrefetchBufferSize")) << e;
    EXPECT_TRUE(has(e, "9105")) << e;
    EXPECT_TRUE(has(e, "UetNic.PrefetchBufferEnable")) << e;
    EXPECT_TRUE(has(e, "UetNic.RdmaDataMSS")) << e;
    EXPECT_TRUE(has(e, "9106")) << e;
}
