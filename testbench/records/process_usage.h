// The simulator process's CPU and memory use, as Linux reports it in /proc: parsing and the
// arithmetic of cpu-mem-stats' columns, kernel-free and testable on fixed text. The record
// (cpu_mem_stats_record.cpp) reads the files and the clock tick.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace uetsim {

// The fields of /proc/self/stat that cpu-mem-stats uses (proc(5): 14 utime, 15 stime,
// 22 starttime, all in clock ticks; 23 vsize in bytes; 24 rss in pages).
struct proc_stat
{
    uint64_t utime_ticks = 0;
    uint64_t stime_ticks = 0;
    uint64_t start_ticks = 0;  // after boot
    uint64_t vsize_bytes = 0;
    uint64_t rss_pages = 0;
};
// nullopt when the text is not a stat line (too few fields, no command in parentheses).
std::optional<proc_stat> parse_proc_stat(const std::string& text);

// /proc/meminfo's totals, in kB.
struct mem_info
{
    uint64_t total_kb = 0;
    uint64_t free_kb = 0;
    uint64_t swap_total_kb = 0;
    uint64_t swap_free_kb = 0;
};
// nullopt without a MemTotal line.
std::optional<mem_info> parse_meminfo(const std::string& text);

// One cpu-mem-stats row's numbers. M is MiB (2^20 bytes); percentages are of the machine's
// memory and of the time since the process started.
struct cpu_mem_usage
{
    double vm_mib = 0, rss_mib = 0;
    double vm_pct = 0, rss_pct = 0;
    double sys_total_mib = 0, sys_free_mib = 0, sys_used_mib = 0;
    double sys_mem_pct = 0, sys_swap_pct = 0;
    uint64_t user_ticks = 0, kernel_ticks = 0, total_ticks = 0, elapsed_ticks = 0;
    double user_pct = 0, system_pct = 0, total_pct = 0;
};
// `uptime_s`: the first number of /proc/uptime; `ticks_per_s`: sysconf(_SC_CLK_TCK).
cpu_mem_usage cpu_mem_usage_of(const proc_stat& p, const mem_info& m, double uptime_s,
                               uint64_t ticks_per_s, uint64_t page_bytes);

}  // namespace uetsim
