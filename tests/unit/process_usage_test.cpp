// cpu-mem-stats' arithmetic on fixed /proc text (testbench/records/process_usage.h), with numbers
// worked by hand.
#include <gtest/gtest.h>

#include "testbench/records/process_usage.h"

using namespace uetsim;

namespace {

// proc(5)'s stat line: pid (comm) state, then fields 4.. ; utime 2500 (14), stime 500 (15),
// starttime 90000 (22), vsize 104857600 (23), rss 2560 (24). The command holds a space and a
// parenthesis, as a process may name itself.
const char* const stat_line =
    "4332 (uetsim (run) x) R 1 4332 4332 0 -1 4194304 100 0 0 0 2500 500 0 0 20 0 1 0 90000 "
    "104857600 2560 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";

const char* const meminfo =
    "MemTotal:        1048576 kB\n"
    "MemFree:          262144 kB\n"
    "MemAvailable:     524288 kB\n"
    "SwapTotal:        200000 kB\n"
    "SwapFree:         150000 kB\n";

}  // namespace

TEST(process_usage, the_stat_fields_after_a_command_with_spaces_and_parentheses)
{
    const auto p = parse_proc_stat(stat_line);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->utime_ticks, 2500u);
    EXPECT_EQ(p->stime_ticks, 500u);
    EXPECT_EQ(p->start_ticks, 90000u);
    EXPECT_EQ(p->vsize_bytes, 104857600u);
    EXPECT_EQ(p->rss_pages, 2560u);
}

TEST(process_usage, text_that_is_not_a_stat_line_is_refused)
{
    EXPECT_FALSE(parse_proc_stat("").has_value());
    EXPECT_FALSE(parse_proc_stat("4332 uetsim R 1 2 3").has_value());
    EXPECT_FALSE(parse_proc_stat("4332 (uetsim) R 1 2 3 4 5").has_value());
    EXPECT_FALSE(parse_meminfo("MemFree: 1 kB\n").has_value());
}

TEST(process_usage, every_column_worked_by_hand)
{
    const cpu_mem_usage u =
        cpu_mem_usage_of(*parse_proc_stat(stat_line), *parse_meminfo(meminfo), 1000.0, 100, 4096);
    EXPECT_DOUBLE_EQ(u.vm_mib, 100.0);          // 104,857,600 B
    EXPECT_DOUBLE_EQ(u.rss_mib, 10.0);          // 2,560 x 4,096 B
    EXPECT_DOUBLE_EQ(u.sys_total_mib, 1024.0);  // 1,048,576 kB
    EXPECT_DOUBLE_EQ(u.sys_free_mib, 256.0);    // MemFree, not MemAvailable
    EXPECT_DOUBLE_EQ(u.sys_used_mib, 768.0);
    EXPECT_DOUBLE_EQ(u.vm_pct, 100.0 / 1024.0 * 100.0);  // 9.765625 %
    EXPECT_DOUBLE_EQ(u.rss_pct, 10.0 / 1024.0 * 100.0);
    EXPECT_DOUBLE_EQ(u.sys_mem_pct, 75.0);
    EXPECT_DOUBLE_EQ(u.sys_swap_pct, 25.0);  // 50,000 of 200,000 kB
    EXPECT_EQ(u.user_ticks, 2500u);
    EXPECT_EQ(u.kernel_ticks, 500u);
    EXPECT_EQ(u.total_ticks, 3000u);
    EXPECT_EQ(u.elapsed_ticks, 10000u);  // 1,000 s x 100 - 90,000
    EXPECT_DOUBLE_EQ(u.user_pct, 25.0);
    EXPECT_DOUBLE_EQ(u.system_pct, 5.0);
    EXPECT_DOUBLE_EQ(u.total_pct, 30.0);
}

TEST(process_usage, no_swap_and_no_elapsed_time_give_zero_not_a_division_by_zero)
{
    mem_info m{1024, 512, 0, 0};
    proc_stat p{10, 0, 100000, 0, 0};
    const cpu_mem_usage u = cpu_mem_usage_of(p, m, 500.0, 100, 4096);  // uptime before start
    EXPECT_EQ(u.sys_swap_pct, 0.0);
    EXPECT_EQ(u.elapsed_ticks, 0u);
    EXPECT_EQ(u.user_pct, 0.0);
}
