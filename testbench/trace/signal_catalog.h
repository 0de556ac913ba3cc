// Every kind of component's waveform signals, in the order docs/waveforms.md lists them:
// `uetsim signals --markdown` prints them as that page's tables and a test checks the page. Each
// table lives beside its probe (a NIC type's in testbench/nics/, the others' in
// testbench/trace/<kind>_probe.h).
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

}  // namespace uetsim
