// A UET NIC's job table: the JobIDs (24 bits, in the SES header) of the jobs it serves, which the
// job launcher installs at job start (seed 003, "Addressing jobs, not connections"). A request
// whose JobID the table does not hold is dropped and counted. An open table serves every job (no
// check). Pure logic.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace uetsim {

inline constexpr uint32_t k_max_job_id = (1u << 24) - 1;

class job_table
{
public:
    job_table() = default;  // open: every job
    explicit job_table(std::vector<uint32_t> jobs) : m_jobs(std::move(jobs)), m_open(false)
    {
        std::sort(m_jobs.begin(), m_jobs.end());
        m_jobs.erase(std::unique(m_jobs.begin(), m_jobs.end()), m_jobs.end());
    }

    bool open() const { return m_open; }
    bool serves(uint32_t job) const
    {
        return m_open || std::binary_search(m_jobs.begin(), m_jobs.end(), job);
    }
    const std::vector<uint32_t>& jobs() const { return m_jobs; }

private:
    std::vector<uint32_t> m_jobs;  // sorted, unique
    bool m_open = true;
};

}  // namespace uetsim
