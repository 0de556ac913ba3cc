// An open record with nd-stats' timing: a set of rows at every tick of its record clock, and a
// last set for the partial interval when the run ends (a first set if it ended before the first
// tick). A record derives from it and writes its rows in write().
#pragma once

#include <string>

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "testbench/records/column_table.h"
#include "testbench/records/record_clock.h"
#include "testbench/records/record_registry.h"

namespace uetsim {

template <class Row>
class periodic_open_record : public open_record
{
public:
    periodic_open_record(record_clock& clock, const std::string& path,
                         const column_table<Row>& columns)
        : m_csv(path, columns)
    {
        clock.follow([this](double now) {
            write(now);
            m_last_s = now;
        });
    }
    void finish() override
    {
        const double now = to_seconds(sim_now());
        if (m_csv.rows() == 0 || now > m_last_s) write(now);
        m_csv.close();
    }

protected:
    // The rows at simulated time `now`, s.
    virtual void write(double now) = 0;
    record_csv<Row> m_csv;

private:
    double m_last_s = 0;
};

}  // namespace uetsim
