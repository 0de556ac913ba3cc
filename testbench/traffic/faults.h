// The fault injector: at given times, takes links down, brings them up, degrades their rate, or
// makes them lose a share of their frames (the scenario's Faults list).
#pragma once

#include <string>
#include <vector>

#include <systemc>

#include "hw/common/random.h"
#include "hw/kernel/wakeup.h"
#include "testbench/elab/fabric.h"
#include "testbench/scenario.h"

namespace uetsim {

class fault_injector : public sc_core::sc_module
{
public:
    fault_injector(const sc_core::sc_module_name& name, const scenario& sc, fabric& fab);

    size_t applied() const { return m_next; }

private:
    void apply_due();

    struct resolved
    {
        fault_spec spec;
        size_t link;
    };
    fabric& m_fab;
    std::vector<resolved> m_events;         // sorted by time
    std::vector<random_stream> m_loss_rng;  // one stream per link
    size_t m_next = 0;
    wakeup m_due{[this] { apply_due(); }};
};

}  // namespace uetsim
