// The scoreboard of the WQEs an embedding application posts through mmio: each WQE (of its own
// size) completes by the end of the run, with each of its bytes landed exactly once.
#include <gtest/gtest.h>

#include "hw/nic/common/host_commands.h"
#include "testbench/embed/driven_wqe_board.h"

namespace uetsim {
namespace {

constexpr uint32_t mss = 4096;

// `bytes` in MSS packets: ceil(bytes / 4096) writes.
void land_all(driven_wqe_board& b, uint64_t m, uint64_t bytes)
{
    for (uint64_t off = 0; off < bytes; off += mss)
        b.written(m, off, uint32_t(std::min<uint64_t>(mss, bytes - off)));
}

TEST(driven_wqe_board, wqes_of_different_sizes_complete_cleanly)
{
    driven_wqe_board b(mss);
    const uint64_t a = wqe_message_id(7, 1), c = wqe_message_id(7, 2);
    b.posted(0, a, 65536);  // 16 packets
    b.posted(0, c, 100);    // one short packet
    land_all(b, a, 65536);
    land_all(b, c, 100);
    b.completed(a);
    b.completed(c);
    EXPECT_EQ(b.report(), "");
    EXPECT_EQ(b.posted_count(), 2u);
    EXPECT_EQ(b.completed_count(), 2u);
    EXPECT_EQ(b.bytes_of(a), 65536u);
}

TEST(driven_wqe_board, a_wqe_that_never_completes_is_reported_with_its_host)
{
    driven_wqe_board b(mss);
    b.posted(0, wqe_message_id(7, 1), 4096);
    b.posted(3, wqe_message_id(9, 2), 8192);
    land_all(b, wqe_message_id(7, 1), 4096);
    b.completed(wqe_message_id(7, 1));
    EXPECT_EQ(b.report(),
              "1 problem(s) with the WQEs posted through mmio:\n"
              "  1 of 2 WQEs posted through mmio did not complete; first: host3: WQE 2 of queue "
              "pair 9 (8192 B)");
}

TEST(driven_wqe_board, bytes_that_land_twice_are_reported)
{
    driven_wqe_board b(mss);
    const uint64_t m = wqe_message_id(1, 1);
    b.posted(0, m, 8192);
    land_all(b, m, 8192);
    b.written(m, 4096, 4096);
    b.completed(m);
    EXPECT_NE(b.report().find("WQE 1 of queue pair 1: the bytes at offset 4096 landed twice"),
              std::string::npos)
        << b.report();
}

TEST(driven_wqe_board, completing_before_every_byte_landed_is_reported)
{
    driven_wqe_board b(mss);
    const uint64_t m = wqe_message_id(2, 5);
    b.posted(1, m, 10000);  // packets at 0, 4096, 8192 (1808 B)
    b.written(m, 0, 4096);
    b.written(m, 8192, 1808);
    b.completed(m);
    EXPECT_NE(b.report().find("WQE 5 of queue pair 2 completed with 5904 of 10000 B"),
              std::string::npos)
        << b.report();
}

TEST(driven_wqe_board, a_write_outside_the_wqe_or_of_an_unposted_wqe_is_reported)
{
    driven_wqe_board b(mss);
    const uint64_t m = wqe_message_id(2, 1);
    b.posted(1, m, 4096);
    b.written(m, 4096, 4096);                // past its end
    b.written(wqe_message_id(2, 9), 0, 64);  // never posted
    const std::string r = b.report();
    EXPECT_NE(r.find("write of 4096 B at offset 4096 is outside its 4096 B"), std::string::npos);
    EXPECT_NE(r.find("WQE 9 of queue pair 2: 64 B landed at offset 0, but it was never posted"),
              std::string::npos)
        << r;
}

}  // namespace
}  // namespace uetsim
