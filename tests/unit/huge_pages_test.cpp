// When uetsim starts itself again with glibc's huge-page heap (sim/huge_pages.h): the tunable is
// added to what GLIBC_TUNABLES holds, and nothing happens where it is already there, opted out,
// under valgrind, under MPI, or where the kernel gives no huge pages.
#include "sim/huge_pages.h"

#include <gtest/gtest.h>

namespace uetsim {
namespace {

const std::string madvise = "always [madvise] never\n";

TEST(huge_pages, a_plain_start_restarts_with_the_tunable)
{
    const huge_page_plan p = plan_huge_pages(nullptr, nullptr, nullptr, false, madvise);
    EXPECT_TRUE(p.restart);
    EXPECT_EQ(p.tunables, "glibc.malloc.hugetlb=1");
    EXPECT_TRUE(plan_huge_pages("1", "", "", false, "[always] madvise never").restart);
}

TEST(huge_pages, the_tunable_joins_those_already_set)
{
    const huge_page_plan p =
        plan_huge_pages(nullptr, "glibc.malloc.arena_max=2", nullptr, false, madvise);
    EXPECT_TRUE(p.restart);
    EXPECT_EQ(p.tunables, "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
}

TEST(huge_pages, no_restart_where_it_would_change_nothing_or_escape_a_tool)
{
    // The restarted process (or a user's own choice, even hugetlb=0) sees the tunable: no loop.
    EXPECT_FALSE(
        plan_huge_pages(nullptr, "glibc.malloc.hugetlb=1", nullptr, false, madvise).restart);
    EXPECT_FALSE(
        plan_huge_pages(nullptr, "glibc.malloc.hugetlb=0", nullptr, false, madvise).restart);
    EXPECT_FALSE(plan_huge_pages("0", nullptr, nullptr, false, madvise).restart);
    EXPECT_FALSE(plan_huge_pages(nullptr, nullptr,
                                 "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so", false,
                                 madvise)
                     .restart);
    EXPECT_FALSE(plan_huge_pages(nullptr, nullptr, nullptr, true, madvise).restart);
    EXPECT_FALSE(
        plan_huge_pages(nullptr, nullptr, nullptr, false, "always madvise [never]\n").restart);
    EXPECT_FALSE(plan_huge_pages(nullptr, nullptr, nullptr, false, "").restart);
}

}  // namespace
}  // namespace uetsim
