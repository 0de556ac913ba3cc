// Progress of a sweep on stderr: runs done of the total, failed, and an estimate of the time
// left from the pace of the runs finished so far in this invocation. Pure logic (the caller
// passes wall time in).
#pragma once

#include <cstddef>
#include <string>

namespace uetsim::sweep {

class sweep_progress
{
public:
    // `total` runs, of which `skipped` were complete before this invocation started.
    sweep_progress(size_t total, size_t skipped) : m_total(total), m_done(skipped) {}

    void finished(bool ok)
    {
        ++m_done;
        ++m_ran;
        if (!ok) ++m_failed;
    }
    size_t done() const { return m_done; }
    size_t failed() const { return m_failed; }

    // Seconds left at the pace so far (`elapsed_s` since this invocation started); -1 before
    // the first run of this invocation has finished.
    double eta_s(double elapsed_s) const
    {
        if (m_ran == 0) return -1;
        return elapsed_s / double(m_ran) * double(m_total - m_done);
    }

    // "sweep: 12/60 done, 1 failed, eta 35 s: <what>"
    std::string line(double elapsed_s, const std::string& what) const;

private:
    size_t m_total;
    size_t m_done;
    size_t m_ran = 0;
    size_t m_failed = 0;
};

}  // namespace uetsim::sweep
