// Nic.* keys: what sits at each host's network port. Nic.Type's spellings are the registered NIC
// types (testbench/elab/nic_factory.h), so a type added from outside is a choice too.
#include "sim/config/keys_common.h"

#include "testbench/elab/nic_factory.h"

namespace uetsim::config {

void add_nic_keys(scenario_schema& s)
{
    std::vector<std::pair<std::string, nic_kind>> values;
    std::string doc;
    for (const nic_type* t : nic_types()) {
        values.emplace_back(std::string(t->kind.name), t->kind);
        doc += (doc.empty() ? "" : "; ") + std::string(t->kind.name) + ": " + std::string(t->doc);
    }
    s.keys.choice("Nic.Type", UETSIM_FIELD(nic.type), std::move(values), doc + ".");
}

}  // namespace uetsim::config
