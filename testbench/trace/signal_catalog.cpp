#include "testbench/trace/signal_catalog.h"

#include "testbench/nics/roce_nic_probe.h"
#include "testbench/nics/uet_nic_probe.h"
#include "testbench/trace/chakra_probe.h"
#include "testbench/trace/link_probe.h"
#include "testbench/trace/pcie_probe.h"
#include "testbench/trace/cbfc_probe.h"
#include "testbench/trace/pfc_probe.h"
#include "testbench/trace/switch_port_probe.h"

namespace uetsim {

namespace {

const char* trigger_name(trace_trigger_kind k)
{
    switch (k) {
        case trace_trigger_kind::none:
            return "";
        case trace_trigger_kind::rto:
            return "rto";
        case trace_trigger_kind::nack:
            return "nack";
        case trace_trigger_kind::trim:
            return "trim";
        case trace_trigger_kind::drop:
            return "drop";
        case trace_trigger_kind::freeze:
            return "freeze";
        case trace_trigger_kind::pause:
            return "pause";
        case trace_trigger_kind::queue:
            return "queue";
        case trace_trigger_kind::monitor:
            return "monitor";
    }
    return "";
}

}  // namespace

const std::vector<const signal_table*>& signal_catalog()
{
    // One line per kind of component, in the page's order.
    static const std::vector<const signal_table*> tables = {
        &uet_group_signals(), &uet_nic_signals(), &roce_qp_signals(),     &roce_nic_signals(),
        &pcie_signals(),      &chakra_signals(),  &switch_port_signals(), &pfc_signals(),
        &cbfc_signals(),      &link_signals(),    &llr_link_signals(),
    };
    return tables;
}

std::string signals_markdown()
{
    std::string out;
    for (const signal_table* t : signal_catalog()) {
        out += "### " + std::string(t->title) + " (`" + std::string(t->scope) + "`)\n\n";
        if (!t->intro.empty()) out += std::string(t->intro) + "\n\n";
        out += "| signal | bits | unit | meaning |\n|---|---:|---|---|\n";
        for (const signal_def& d : t->signals) {
            out += "| `" + std::string(d.name) + "` | " + std::to_string(d.bits) + " | " +
                   std::string(d.unit) + " | " + std::string(d.meaning);
            if (d.fires == trace_trigger_kind::queue)
                out +=
                    " (`Trace.Trigger` `On: queue` fires when it reaches the trigger's "
                    "`Threshold`)";
            else if (d.fires != trace_trigger_kind::none)
                out += std::string(" (`Trace.Trigger` `On: ") + trigger_name(d.fires) +
                       "` fires when it rises)";
            out += " |\n";
        }
        out += "\n";
    }
    return out;
}

std::string signals_text()
{
    std::string out;
    for (const signal_table* t : signal_catalog()) {
        out += std::string(t->title) + " (" + std::string(t->scope) + ")\n";
        for (const signal_def& d : t->signals)
            out += "  " + std::string(d.name) + "  " + std::to_string(d.bits) + " b  " +
                   std::string(d.unit) + "  " + std::string(d.meaning) + "\n";
    }
    return out;
}

}  // namespace uetsim
