// The scoreboard of the RDMA application: every WQE's bytes land in the Responder's host memory
// exactly once, and a WQE completes only once all of them have landed. Pure logic.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace uetsim {

class wqe_scoreboard
{
public:
    // `wqe_bytes`: the size of every WQE; `mss`: the payload of a full packet (writes start at
    // multiples of it).
    wqe_scoreboard(uint64_t wqe_bytes, uint32_t mss) : m_wqe_bytes(wqe_bytes), m_mss(mss) {}

    // A payload write of WQE `message` reached the Responder's host memory.
    void written(uint64_t message, uint64_t offset, uint32_t bytes);
    // The Initiator got the completion of WQE `message`.
    void completed(uint64_t message);

    // Any other inconsistency the application finds.
    void report_problem(std::string p) { problem(std::move(p)); }

    uint64_t completed_count() const { return m_completed; }
    uint64_t duplicate_writes() const { return m_duplicates; }
    // Empty when nothing went wrong; otherwise the first few problems, one per line.
    std::string report() const;

private:
    struct progress
    {
        uint64_t bytes = 0;
        std::vector<bool> packets;
    };
    void problem(std::string p);

    uint64_t m_wqe_bytes;
    uint32_t m_mss;
    std::unordered_map<uint64_t, progress> m_open;  // WQEs with bytes landed, not completed
    uint64_t m_completed = 0;
    uint64_t m_duplicates = 0;
    uint64_t m_problems = 0;
    std::vector<std::string> m_first_problems;
};

}  // namespace uetsim
