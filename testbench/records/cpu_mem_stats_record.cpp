// cpu-mem-stats: its column table, its registry declaration and the sampler that reads /proc.
#include "testbench/records/cpu_mem_stats_record.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "testbench/records/csv_writer.h"
#include "testbench/records/periodic_open_record.h"

namespace uetsim {

namespace {

std::string read_proc(const char* path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The process and the machine now; std::runtime_error naming the file /proc does not give.
cpu_mem_usage sample_usage()
{
    const auto stat = parse_proc_stat(read_proc("/proc/self/stat"));
    if (!stat) throw std::runtime_error("cpu-mem-stats: /proc/self/stat is not readable");
    const auto mem = parse_meminfo(read_proc("/proc/meminfo"));
    if (!mem) throw std::runtime_error("cpu-mem-stats: /proc/meminfo is not readable");
    double uptime_s = 0;
    std::istringstream(read_proc("/proc/uptime")) >> uptime_s;
    return cpu_mem_usage_of(*stat, *mem, uptime_s, uint64_t(sysconf(_SC_CLK_TCK)),
                            uint64_t(sysconf(_SC_PAGESIZE)));
}

std::string host_name()
{
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "localhost";
    return name;
}

class cpu_mem_stats_open : public periodic_open_record<cpu_mem_stats_row>
{
public:
    cpu_mem_stats_open(record_context& ctx, const std::string& path)
        : periodic_open_record(ctx.clocks.periodic, path, cpu_mem_stats_columns())
        , m_sc(ctx.sc)
        , m_host(host_name())
    {
    }

private:
    void write(double now) override
    {
        const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
        m_csv.write({m_sc.simulation.name, utc, now, m_host, int64_t(getpid()), sample_usage()});
    }

    const scenario& m_sc;
    std::string m_host;
};

}  // namespace

const column_table<cpu_mem_stats_row>& cpu_mem_stats_columns()
{
    static const column_table<cpu_mem_stats_row> c = {
        {"job_id", "`Simulation.Name`", UETSIM_CELL(cpu_mem_stats_row, r.job_id)},
        {"time_utc", "see above", UETSIM_CELL(cpu_mem_stats_row, r.time_utc)},
        {"sim_time_sec", "simulated time of the row", UETSIM_CELL(cpu_mem_stats_row, r.sim_time_s)},
        {"host_name", "the machine's name (`gethostname`)",
         UETSIM_CELL(cpu_mem_stats_row, r.host_name)},
        {"pid", "the simulator's process id", UETSIM_CELL(cpu_mem_stats_row, r.pid)},
        {"core_vm_usage_M", "the process's virtual memory size (`/proc/self/stat` vsize), MiB",
         UETSIM_CELL(cpu_mem_stats_row, r.u.vm_mib)},
        {"core_rss_M", "its resident set (rss × page size), MiB",
         UETSIM_CELL(cpu_mem_stats_row, r.u.rss_mib)},
        {"core_vm_usage_pct", "virtual size of the machine's memory, %",
         UETSIM_CELL(cpu_mem_stats_row, r.u.vm_pct)},
        {"core_rss_usage_pct", "resident set of the machine's memory, %",
         UETSIM_CELL(cpu_mem_stats_row, r.u.rss_pct)},
        {"sys_total_mem_M", "the machine's memory (`/proc/meminfo` MemTotal), MiB",
         UETSIM_CELL(cpu_mem_stats_row, r.u.sys_total_mib)},
        {"sys_free_mem_M", "its free memory (MemFree), MiB",
         UETSIM_CELL(cpu_mem_stats_row, r.u.sys_free_mib)},
        {"sys_used_mem_M", "total − free, MiB", UETSIM_CELL(cpu_mem_stats_row, r.u.sys_used_mib)},
        {"sys_mem_usage_pct", "used of total, %", UETSIM_CELL(cpu_mem_stats_row, r.u.sys_mem_pct)},
        {"sys_swap_usage_pct", "swap used (SwapTotal − SwapFree) of SwapTotal, %; 0 without swap",
         UETSIM_CELL(cpu_mem_stats_row, r.u.sys_swap_pct)},
        {"user_time_ticks", "CPU time in user mode since the process started, clock ticks",
         UETSIM_CELL(cpu_mem_stats_row, r.u.user_ticks)},
        {"kernel_time_ticks", "CPU time in the kernel, clock ticks",
         UETSIM_CELL(cpu_mem_stats_row, r.u.kernel_ticks)},
        {"total_time_ticks", "user + kernel", UETSIM_CELL(cpu_mem_stats_row, r.u.total_ticks)},
        {"elapse_time_ticks", "wall time since the process started, clock ticks",
         UETSIM_CELL(cpu_mem_stats_row, r.u.elapsed_ticks)},
        {"user_time_pct", "user time of the time since the process started, %",
         UETSIM_CELL(cpu_mem_stats_row, r.u.user_pct)},
        {"system_time_pct", "kernel time of the time since the process started, %",
         UETSIM_CELL(cpu_mem_stats_row, r.u.system_pct)},
        {"total_time_pct", "user + kernel time of the time since the process started, %",
         UETSIM_CELL(cpu_mem_stats_row, r.u.total_pct)},
    };
    return c;
}

const record_def& cpu_mem_stats_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "cpu-mem-stats";
        r.enabled_position = 14;
        r.on_by_default = false;
        r.when = "when `Records.Enabled` lists it (not by default)";
        r.intro =
            "The simulator process's CPU time and memory and the machine's memory, one row every\n"
            "`Simulation.NDStatsReportInterval` of simulated time (with nd-stats' timing and a "
            "last row when\nthe run ends), read from Linux's `/proc` at the moment the row is "
            "written. uetsim is one\nprocess on one core, so the row is that process; a clock "
            "tick is `sysconf(_SC_CLK_TCK)` (100\nper second on Linux).";
        r.columns = column_docs(cpu_mem_stats_columns());
        r.notes =
            "The one record whose numbers change from run to run of the same scenario: they "
            "measure the\nmachine, not the model. It is therefore off by default and left out of "
            "the determinism\nchecks; every other record stays byte-identical with it on.";
        r.applies = [](const record_context&) { return true; };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<cpu_mem_stats_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

}  // namespace uetsim
