// The echo NIC joins uetsim from outside, as a user's NIC type would: its registry row (one
// add_nic_type line) and its EchoNic section (its keys file, echo_nic_keys.cpp), both added
// before the scenario schema is first used, and nothing in uetsim's own tree.
#include "tests/seams/toy_nic/echo_nic_entry.h"

#include "sim/config/scenario_keys.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/elab/scale_estimate.h"
#include "tlm/header_sizes.h"

namespace uetsim::test {

namespace {

std::unique_ptr<host_nic> make_echo_nic(const std::string& name, const nic_config& nic,
                                        const nic_context& ctx, double link_rate_bps)
{
    (void)link_rate_bps;
    return std::make_unique<echo_nic>(name.c_str(), ctx, nic.section<echo_nic_config>());
}

nic_type echo_nic_type()
{
    nic_type t;
    t.kind = echo_nic_kind;
    t.doc = "the echo NIC of the seams test (tests/seams/toy_nic)";
    t.build = &make_echo_nic;
    t.data_mss = [](const nic_config& n) { return n.section<echo_nic_config>().mss; };
    t.data_overhead_bytes = wire::uet_data_overhead;
    t.framing = "uet";
    t.bytes_per_host = scale_bytes_nic_host;
    return t;
}

}  // namespace

void add_echo_nic()
{
    add_nic_type(echo_nic_type());
    config::add_schema_section({"EchoNic", false, "The echo NIC (Nic.Type: echo)."},
                               &add_echo_nic_keys);
}

}  // namespace uetsim::test
