#include "testbench/traffic/app/wqe_scoreboard.h"

#include <fmt/format.h>

namespace uetsim {

namespace {

std::string hex(uint64_t v)
{
    return fmt::format("{:#x}", v);
}

}  // namespace

void wqe_scoreboard::problem(std::string p)
{
    ++m_problems;
    if (m_first_problems.size() < 8) m_first_problems.push_back(std::move(p));
}

void wqe_scoreboard::written(uint64_t message, uint64_t offset, uint32_t bytes)
{
    if (offset % m_mss != 0 || offset + bytes > m_wqe_bytes) {
        problem("WQE " + hex(message) + ": write of " + std::to_string(bytes) + " B at offset " +
                std::to_string(offset) + " is outside its " + std::to_string(m_wqe_bytes) + " B");
        return;
    }
    progress& p = m_open[message];
    if (p.packets.empty()) p.packets.assign(size_t((m_wqe_bytes + m_mss - 1) / m_mss), false);
    const size_t i = size_t(offset / m_mss);
    if (p.packets[i]) {
        ++m_duplicates;
        problem("WQE " + hex(message) + ": the bytes at offset " + std::to_string(offset) +
                " landed twice");
        return;
    }
    p.packets[i] = true;
    p.bytes += bytes;
}

void wqe_scoreboard::completed(uint64_t message)
{
    ++m_completed;
    auto it = m_open.find(message);
    const uint64_t landed = it == m_open.end() ? 0 : it->second.bytes;
    if (landed != m_wqe_bytes)
        problem("WQE " + hex(message) + " completed with " + std::to_string(landed) + " of " +
                std::to_string(m_wqe_bytes) + " B in the Responder's memory");
    if (it != m_open.end()) m_open.erase(it);
}

std::string wqe_scoreboard::report() const
{
    if (m_problems == 0) return {};
    std::string r = std::to_string(m_problems) + " WQE scoreboard problem(s):";
    for (const auto& p : m_first_problems) r += "\n  " + p;
    return r;
}

}  // namespace uetsim
