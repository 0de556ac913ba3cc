#include "testbench/records/process_usage.h"

#include <sstream>
#include <vector>

namespace uetsim {

std::optional<proc_stat> parse_proc_stat(const std::string& text)
{
    // The command (field 2) is in parentheses and may hold spaces and parentheses itself: the
    // fields resume after the last ')'.
    const size_t close = text.rfind(')');
    if (close == std::string::npos || text.find('(') > close) return std::nullopt;
    std::istringstream in(text.substr(close + 1));
    std::vector<std::string> f;  // f[0] is field 3 (state)
    for (std::string w; in >> w;) f.push_back(w);
    if (f.size() < 22) return std::nullopt;
    auto field = [&f](int n) { return std::stoull(f[size_t(n - 3)]); };
    try {
        return proc_stat{field(14), field(15), field(22), field(23), field(24)};
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::optional<mem_info> parse_meminfo(const std::string& text)
{
    mem_info m;
    bool total = false;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream l(line);
        std::string name;
        uint64_t kb = 0;
        if (!(l >> name >> kb)) continue;
        if (name == "MemTotal:") m.total_kb = kb, total = true;
        if (name == "MemFree:") m.free_kb = kb;
        if (name == "SwapTotal:") m.swap_total_kb = kb;
        if (name == "SwapFree:") m.swap_free_kb = kb;
    }
    if (!total) return std::nullopt;
    return m;
}

cpu_mem_usage cpu_mem_usage_of(const proc_stat& p, const mem_info& m, double uptime_s,
                               uint64_t ticks_per_s, uint64_t page_bytes)
{
    constexpr double mib = 1024.0 * 1024.0;
    auto pct = [](double part, double whole) { return whole > 0 ? part / whole * 100.0 : 0.0; };
    cpu_mem_usage u;
    u.vm_mib = double(p.vsize_bytes) / mib;
    u.rss_mib = double(p.rss_pages) * double(page_bytes) / mib;
    u.sys_total_mib = double(m.total_kb) / 1024.0;
    u.sys_free_mib = double(m.free_kb) / 1024.0;
    u.sys_used_mib = u.sys_total_mib - u.sys_free_mib;
    u.vm_pct = pct(u.vm_mib, u.sys_total_mib);
    u.rss_pct = pct(u.rss_mib, u.sys_total_mib);
    u.sys_mem_pct = pct(u.sys_used_mib, u.sys_total_mib);
    u.sys_swap_pct = pct(double(m.swap_total_kb - m.swap_free_kb), double(m.swap_total_kb));
    u.user_ticks = p.utime_ticks;
    u.kernel_ticks = p.stime_ticks;
    u.total_ticks = p.utime_ticks + p.stime_ticks;
    const double now_ticks = uptime_s * double(ticks_per_s);
    u.elapsed_ticks = now_ticks > double(p.start_ticks) ? uint64_t(now_ticks) - p.start_ticks : 0;
    u.user_pct = pct(double(u.user_ticks), double(u.elapsed_ticks));
    u.system_pct = pct(double(u.kernel_ticks), double(u.elapsed_ticks));
    u.total_pct = pct(double(u.total_ticks), double(u.elapsed_ticks));
    return u;
}

}  // namespace uetsim
