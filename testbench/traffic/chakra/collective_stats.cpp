#include "testbench/traffic/chakra/collective_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "hw/common/nearest_rank.h"

namespace uetsim::chakra {

std::vector<collective_result> collective_results(
    const prepared_workload& w, const std::function<const collective_times&(uint32_t)>& times,
    bool use_max_start)
{
    std::vector<collective_result> out;
    out.reserve(w.collectives.size());
    for (const collective_instance& c : w.collectives) {
        const collective_times& t = times(c.id);
        collective_result r;
        r.id = c.id;
        r.type = c.type;
        r.alg = c.alg;
        r.comm_size = c.comm_size;
        r.pg_name = w.groups[c.group].name;
        r.pg_size = uint32_t(w.groups[c.group].ranks.size());
        r.start_s = std::max(0.0, use_max_start ? t.last_start_s : t.first_start_s);
        r.end_s = std::max(r.start_s, t.end_s);
        r.valid = t.participants_done > 0;
        out.push_back(r);
    }
    return out;
}

std::vector<percentile_row> percentile_rows(const std::vector<collective_result>& results,
                                            double link_bps)
{
    std::map<std::tuple<int, int, uint64_t, uint32_t>, std::vector<double>> groups;
    for (const auto& r : results)
        if (r.valid)
            groups[{int(r.type), int(r.alg), r.comm_size, r.pg_size}].push_back(r.run_s() * 1e6);
    std::vector<percentile_row> out;
    for (auto& [key, runs] : groups) {
        std::sort(runs.begin(), runs.end());
        percentile_row p;
        p.type = collective_type(std::get<0>(key));
        p.alg = algorithm(std::get<1>(key));
        p.comm_size = std::get<2>(key);
        p.pg_size = std::get<3>(key);
        p.count = runs.size();
        double sum = 0;
        for (double v : runs) sum += v;
        p.mean_us = sum / double(runs.size());
        p.p50_us = nearest_rank(runs, 50);
        p.p99_us = nearest_rank(runs, 99);
        p.p999_us = nearest_rank(runs, 99.9);
        p.p100_us = runs.back();
        p.ideal_us = p.type == collective_type::barrier
                         ? std::numeric_limits<double>::quiet_NaN()
                         : ideal_time_s(p.type, p.alg, p.pg_size, p.comm_size, link_bps) * 1e6;
        out.push_back(p);
    }
    return out;
}

busbw_row busbw_of(const collective_result& c, double link_bps)
{
    busbw_row b;
    b.c = c;
    b.run_us = c.run_s() * 1e6;
    b.ideal_us = c.type == collective_type::barrier
                     ? std::numeric_limits<double>::quiet_NaN()
                     : ideal_time_s(c.type, c.alg, c.pg_size, c.comm_size, link_bps) * 1e6;
    const bool every_rank_gets_all =
        c.type == collective_type::all_gather || c.type == collective_type::gather;
    const double data = double(c.comm_size) * (every_rank_gets_all ? c.pg_size : 1);
    b.algbw_gbps = c.run_s() > 0 ? data * 8 / c.run_s() / 1e9 : 0;
    b.busbw_gbps = b.algbw_gbps * busbw_factor(c.type, c.pg_size);
    b.link_gbps = link_bps / 1e9;
    b.link_fraction = b.link_gbps > 0 ? b.busbw_gbps / b.link_gbps : 0;
    return b;
}

std::string ratio_text(double value, double ideal)
{
    if (std::isnan(ideal) || ideal <= 0) return "NA";
    return fmt::format("{}", value / ideal);
}

}  // namespace uetsim::chakra
