// Every kind of component's waveform signals, in the order docs/waveforms.md lists them:
// `uetsim signals --markdown` prints them as that page's tables and a test checks the page. Each
// table lives beside its probe (a NIC type's in testbench/nics/).
#pragma once

#include <string>
#include <vector>

#include "testbench/trace/signal_table.h"

namespace uetsim {

const std::vector<const signal_table*>& signal_catalog();

// The tables as Markdown (### title, the intro, | signal | bits | unit | meaning |).
std::string signals_markdown();
// One line per signal: scope, name, bits, unit, meaning.
std::string signals_text();

// The tables of the components the trace writer probes itself (waveforms.cpp).
const signal_table& pcie_signals();
const signal_table& chakra_signals();
const signal_table& switch_port_signals();
const signal_table& pfc_signals();
const signal_table& link_signals();

}  // namespace uetsim
