#include "testbench/traffic/chakra/chakra_profiler.h"

#include <fmt/format.h>

#include "hw/kernel/sim_clock.h"

namespace uetsim::chakra {

namespace {

std::string id_list(const std::vector<uint64_t>& ids)
{
    std::string s = "[";
    for (size_t i = 0; i < ids.size(); ++i) s += (i ? "," : "") + std::to_string(ids[i]);
    return s + "]";
}

}  // namespace

chakra_profiler::chakra_profiler(const chakra_replay& replay, const std::string& out_dir,
                                 const std::string& sim_name, double interval_s)
    : m_replay(replay), m_clock("chakra_profiling", replay.start_s() + interval_s, interval_s)
{
    for (uint32_t r = 0; r < replay.ranks(); ++r) {
        m_paths.push_back(fmt::format("{}/{}-chakra-profiling-{}-0.txt", out_dir, sim_name, r));
        std::FILE* f = std::fopen(m_paths.back().c_str(), "w");
        if (!f) throw std::runtime_error("cannot write " + m_paths.back());
        std::fputs("CHAKRA PROFILING\n", f);
        m_files.push_back(f);
    }
    m_clock.follow([this](double now) { block(now); });
}

chakra_profiler::~chakra_profiler()
{
    finish();
}

void chakra_profiler::finish()
{
    for (std::FILE*& f : m_files)
        if (f) {
            std::fclose(f);
            f = nullptr;
        }
}

void chakra_profiler::block(double)
{
    const prepared_workload& w = m_replay.workload();
    for (uint32_t r = 0; r < m_replay.ranks(); ++r) {
        std::FILE* f = m_files[r];
        if (!f || m_replay.progress(r).ended) continue;  // the file stops growing at the end
        const prepared_rank& pr = w.ranks[r];
        std::string sends, recvs, comps, colls;
        for (uint32_t i = 0; i < pr.nodes.size(); ++i) {
            if (!m_replay.node_running(r, i)) continue;
            const prepared_node& n = pr.nodes[i];
            const std::string deps =
                id_list(pr.data_deps[i]) + "," + id_list(pr.ctrl_deps[i]) + ")\n";
            switch (n.kind) {
                case op_kind::send:
                    sends += fmt::format("    S({},{},{},", n.trace_id, n.peer, n.bytes) + deps;
                    break;
                case op_kind::recv:
                    recvs += fmt::format("    R({},{},{},", n.trace_id, n.peer, n.bytes) + deps;
                    break;
                case op_kind::collective: {
                    const collective_instance& c = w.collectives[n.collective];
                    colls += fmt::format("    K({},{},{},", n.trace_id, collective_name(c.type),
                                         c.comm_size) +
                             deps;
                    break;
                }
                default:
                    comps += fmt::format("    C({},", n.trace_id) + deps;
                    break;
            }
        }
        fmt::print(f,
                   "================================\nsim_time_sec: {}\nsend_nodes:\n{}"
                   "receive_nodes:\n{}computation_nodes:\n{}collective_nodes:\n{}",
                   double(sim_now_ps()) / 1e12, sends, recvs, comps, colls);
    }
}

}  // namespace uetsim::chakra
