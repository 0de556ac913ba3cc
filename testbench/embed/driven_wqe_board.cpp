#include "testbench/embed/driven_wqe_board.h"

#include <fmt/format.h>

namespace uetsim {

namespace {

// The WQE's name as the application posted it (wqe_message_id: the top bit, qp, wqe id).
std::string wqe_name(uint64_t message)
{
    return fmt::format("WQE {} of queue pair {}", uint32_t(message),
                       uint32_t((message >> 32) & 0x7fffffff));
}

}  // namespace

void driven_wqe_board::problem(std::string p)
{
    ++m_problems;
    if (m_first_problems.size() < 8) m_first_problems.push_back(std::move(p));
}

void driven_wqe_board::posted(uint32_t host, uint64_t message, uint64_t bytes)
{
    ++m_posted;
    auto [it, fresh] = m_wqes.try_emplace(message);
    if (!fresh) {
        problem(fmt::format("host{}: {} was posted twice", host, wqe_name(message)));
        return;
    }
    it->second.host = host;
    it->second.bytes = bytes;
    it->second.packets.assign(size_t(bytes ? (bytes + m_mss - 1) / m_mss : 1), false);
}

uint64_t driven_wqe_board::bytes_of(uint64_t message) const
{
    const auto it = m_wqes.find(message);
    return it == m_wqes.end() ? 0 : it->second.bytes;
}

void driven_wqe_board::written(uint64_t message, uint64_t offset, uint32_t bytes)
{
    const auto it = m_wqes.find(message);
    if (it == m_wqes.end()) {
        problem(fmt::format("{}: {} B landed at offset {}, but it was never posted",
                            wqe_name(message), bytes, offset));
        return;
    }
    wqe& w = it->second;
    if (offset % m_mss != 0 || offset + bytes > w.bytes) {
        problem(fmt::format("{}: write of {} B at offset {} is outside its {} B", wqe_name(message),
                            bytes, offset, w.bytes));
        return;
    }
    const size_t i = size_t(offset / m_mss);
    if (w.packets[i]) {
        problem(fmt::format("{}: the bytes at offset {} landed twice", wqe_name(message), offset));
        return;
    }
    w.packets[i] = true;
    w.landed += bytes;
}

void driven_wqe_board::completed(uint64_t message)
{
    const auto it = m_wqes.find(message);
    if (it == m_wqes.end()) {
        problem(fmt::format("{} completed, but it was never posted", wqe_name(message)));
        return;
    }
    wqe& w = it->second;
    if (w.completed) {
        problem(fmt::format("{} completed twice", wqe_name(message)));
        return;
    }
    w.completed = true;
    ++m_completed;
    if (w.landed != w.bytes)
        problem(fmt::format("{} completed with {} of {} B in the Responder's memory",
                            wqe_name(message), w.landed, w.bytes));
}

std::string driven_wqe_board::report() const
{
    std::vector<std::string> lines = m_first_problems;
    uint64_t problems = m_problems;
    uint64_t outstanding = 0;
    std::string first;
    for (const auto& [message, w] : m_wqes)
        if (!w.completed && ++outstanding == 1)
            first = fmt::format("host{}: {} ({} B)", w.host, wqe_name(message), w.bytes);
    if (outstanding) {
        ++problems;
        lines.push_back(fmt::format("{} of {} WQEs posted through mmio did not complete; first: {}",
                                    outstanding, m_posted, first));
    }
    if (problems == 0) return {};
    std::string r = fmt::format("{} problem(s) with the WQEs posted through mmio:", problems);
    for (const auto& p : lines) r += "\n  " + p;
    return r;
}

}  // namespace uetsim
