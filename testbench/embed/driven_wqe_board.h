// The scoreboard of the WQEs an embedding application posts through a host's MMIO
// (docs/embedding.md): every WQE posted completes by the end of the run, its bytes land in the
// Responder's host memory exactly once, and it completes only once all of them have landed.
// Unlike the RDMA application's (wqe_scoreboard.h), WQEs have sizes of their own. Pure logic.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace uetsim {

class driven_wqe_board
{
public:
    // `mss`: the payload of a full packet (writes start at multiples of it).
    explicit driven_wqe_board(uint32_t mss) : m_mss(mss) {}

    // WQE `message` (wqe_message_id) of `bytes` was posted by host `host`'s driver.
    void posted(uint32_t host, uint64_t message, uint64_t bytes);
    // A payload write of `message` reached the Responder's host memory.
    void written(uint64_t message, uint64_t offset, uint32_t bytes);
    // The completion of `message` reached the Initiator's host memory.
    void completed(uint64_t message);
    bool knows(uint64_t message) const { return m_wqes.count(message) != 0; }
    // The size the doorbell gave (0 for a WQE never posted).
    uint64_t bytes_of(uint64_t message) const;

    uint64_t posted_count() const { return m_posted; }
    uint64_t completed_count() const { return m_completed; }
    // Empty when nothing went wrong and every posted WQE completed; otherwise the first few
    // problems, one per line.
    std::string report() const;

private:
    struct wqe
    {
        uint32_t host = 0;
        uint64_t bytes = 0;
        uint64_t landed = 0;
        bool completed = false;
        std::vector<bool> packets;
    };
    void problem(std::string p);

    uint32_t m_mss;
    std::map<uint64_t, wqe> m_wqes;  // ordered: the report names the first outstanding
    uint64_t m_posted = 0;
    uint64_t m_completed = 0;
    uint64_t m_problems = 0;
    std::vector<std::string> m_first_problems;
};

}  // namespace uetsim
