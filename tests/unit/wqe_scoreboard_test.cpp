// The RDMA application's scoreboard: each WQE's bytes land exactly once and a WQE completes
// only with all of them.
#include <gtest/gtest.h>

#include "testbench/traffic/app/wqe_scoreboard.h"

namespace uetsim {
namespace {

// 250,000 B in 4,096 B packets: 61 full packets and one of 144 B.
void write_all(wqe_scoreboard& b, uint64_t wqe)
{
    for (uint64_t off = 0; off < 250000; off += 4096)
        b.written(wqe, off, uint32_t(std::min<uint64_t>(4096, 250000 - off)));
}

TEST(wqe_scoreboard, every_byte_once_then_completion_is_clean)
{
    wqe_scoreboard b(250000, 4096);
    write_all(b, 7);
    b.completed(7);
    EXPECT_EQ(b.report(), "");
    EXPECT_EQ(b.completed_count(), 1u);
}

TEST(wqe_scoreboard, out_of_order_writes_are_fine)
{
    wqe_scoreboard b(250000, 4096);
    b.written(1, 61 * 4096, 144);
    for (int p = 60; p >= 0; --p) b.written(1, uint64_t(p) * 4096, 4096);
    b.completed(1);
    EXPECT_EQ(b.report(), "");
}

TEST(wqe_scoreboard, a_duplicate_write_is_a_problem)
{
    wqe_scoreboard b(250000, 4096);
    write_all(b, 3);
    b.written(3, 8192, 4096);
    b.completed(3);
    EXPECT_EQ(b.duplicate_writes(), 1u);
    EXPECT_NE(b.report().find("WQE 0x3: the bytes at offset 8192 landed twice"), std::string::npos)
        << b.report();
}

TEST(wqe_scoreboard, completion_with_a_missing_packet_is_a_problem)
{
    wqe_scoreboard b(250000, 4096);
    for (uint64_t off = 4096; off < 250000; off += 4096)
        b.written(9, off, uint32_t(std::min<uint64_t>(4096, 250000 - off)));
    b.completed(9);
    EXPECT_NE(b.report().find("WQE 0x9 completed with 245904 of 250000 B"), std::string::npos)
        << b.report();
}

TEST(wqe_scoreboard, a_write_outside_the_wqe_is_a_problem)
{
    wqe_scoreboard b(250000, 4096);
    b.written(2, 249856, 4096);  // the last packet carries 144 B, not 4,096
    b.written(2, 100, 10);       // not at a packet boundary
    EXPECT_NE(b.report().find("2 WQE scoreboard problem(s)"), std::string::npos) << b.report();
}

}  // namespace
}  // namespace uetsim
