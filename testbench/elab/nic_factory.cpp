#include "testbench/elab/nic_factory.h"

#include <stdexcept>

#include "testbench/nics/roce_nic_entry.h"
#include "testbench/nics/uet_nic_entry.h"

namespace uetsim {

namespace {

struct nic_entry
{
    nic_kind kind;
    nic_builder build;
};

// One line per NIC type.
constexpr nic_entry k_nics[] = {
    {nic_kind::uet, &make_uet_nic},
    {nic_kind::roce, &make_roce_nic},
};

}  // namespace

nic_builder nic_builder_for(nic_kind kind)
{
    for (const nic_entry& e : k_nics)
        if (e.kind == kind) return e.build;
    return nullptr;
}

std::unique_ptr<host_nic> make_nic(const std::string& name, const nic_config& nic,
                                   const nic_context& ctx, double link_rate_bps)
{
    const nic_builder b = nic_builder_for(nic.type);
    if (!b) throw std::logic_error("no NIC is built for this Nic.Type");
    return b(name, nic, ctx, link_rate_bps);
}

}  // namespace uetsim
