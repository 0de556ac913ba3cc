#include "rtl/library/rtl_contract.h"

#include "rtl/entropy_lb/entropy_lb_contract.h"
#include "rtl/flow_hash/flow_hash_contract.h"
#include "rtl/sack_tracker/sack_tracker_contract.h"

namespace uetsim {

namespace {

#define UETSIM_CONTRACT_PIN(dir, name, width, role, meaning) \
    rtl_contract_pin{rtl_pin_dir::dir, #name, width, rtl_pin_role::role, meaning},

std::string dir_text(rtl_pin_dir d, unsigned width)
{
    return std::string(to_string(d)) + ", " + std::to_string(width) +
           (width == 1 ? " bit" : " bits");
}

}  // namespace

const char* to_string(rtl_pin_dir d)
{
    return d == rtl_pin_dir::in ? "in" : d == rtl_pin_dir::out ? "out" : "inout";
}

const rtl_contract_pin* rtl_block_contract::find(std::string_view name) const
{
    for (const auto& p : pins)
        if (name == p.name) return &p;
    return nullptr;
}

const rtl_contract_pin* rtl_block_contract::latency_pin() const
{
    for (const auto& p : pins)
        if (p.role == rtl_pin_role::latency) return &p;
    return nullptr;
}

const std::vector<rtl_block_contract>& rtl_contracts()
{
    static const std::vector<rtl_block_contract> c = {
        {"FlowHash",
         "flow_hash",
         "rtl/flow_hash/flow_hash.sv",
         "The switch's ECMP flow hash: combinational, one `eval()` per hash (no clock, no reset).",
         {UETSIM_FLOW_HASH_PINS(UETSIM_CONTRACT_PIN)}},
        {"EntropyLoadBalancer",
         "entropy_lb",
         "rtl/entropy_lb/entropy_lb.sv",
         "The UET NIC's entropy load balancer: clocked, valid/ready, one response per request "
         "exactly `latency` cycles after acceptance; per-context state in `contexts` slots.",
         {UETSIM_ENTROPY_LB_PINS(UETSIM_CONTRACT_PIN)}},
        {"SackTracker",
         "sack_tracker",
         "rtl/sack_tracker/sack_tracker.sv",
         "The UET NIC receiver's SACK tracker: clocked, valid/ready, one response per request "
         "exactly `latency` cycles after acceptance; per-context state in `contexts` slots.",
         {UETSIM_SACK_TRACKER_PINS(UETSIM_CONTRACT_PIN)}},
    };
    return c;
}

#undef UETSIM_CONTRACT_PIN

const rtl_block_contract* find_rtl_contract(std::string_view key)
{
    for (const auto& c : rtl_contracts())
        if (key == c.key) return &c;
    return nullptr;
}

std::string rtl_contract_keys()
{
    std::string out;
    for (const auto& c : rtl_contracts()) out += (out.empty() ? "" : ", ") + std::string(c.key);
    return out;
}

std::optional<std::string> rtl_contract_mismatch(const rtl_block_contract& c,
                                                 const std::vector<rtl_port>& ports)
{
    const std::string contract = std::string("the ") + c.key + " contract's";
    for (const rtl_contract_pin& want : c.pins) {
        const rtl_port* got = nullptr;
        for (const rtl_port& p : ports)
            if (p.name == want.name) got = &p;
        if (!got)
            return "pin " + std::string(want.name) + " is missing (" + contract + ": " +
                   dir_text(want.dir, want.width) + ")";
        if (got->dir != want.dir || got->width != want.width)
            return "pin " + std::string(want.name) + ": " + dir_text(got->dir, got->width) + ", " +
                   contract + " is " + dir_text(want.dir, want.width);
    }
    for (const rtl_port& p : ports)
        if (!c.find(p.name))
            return "pin " + p.name + " (" + dir_text(p.dir, p.width) + ") is not in " + contract +
                   " pins";
    return std::nullopt;
}

std::string rtl_contract_markdown(const rtl_block_contract& c)
{
    std::string out = "| pin | dir | width | meaning |\n|---|---|---|---|\n";
    for (const auto& p : c.pins)
        out += "| `" + std::string(p.name) + "` | " + to_string(p.dir) + " | " +
               std::to_string(p.width) + " | " + p.meaning + " |\n";
    return out;
}

std::string rtl_contracts_markdown()
{
    std::string out;
    for (const auto& c : rtl_contracts())
        out += "#### " + std::string(c.key) + "\n\nThe built-in block: `" + c.module + "` (`" +
               c.source + "`). " + c.summary + "\n\n" + rtl_contract_markdown(c) + "\n";
    return out;
}

std::string rtl_contracts_text()
{
    std::string out;
    for (const auto& c : rtl_contracts()) {
        out += std::string(c.key) + " (" + c.module + ", " + c.source + ")\n";
        for (const auto& p : c.pins)
            out += "  " + std::string(to_string(p.dir)) + (p.dir == rtl_pin_dir::in ? "  " : " ") +
                   std::to_string(p.width) + (p.width < 10 ? "   " : "  ") + p.name + "\n";
    }
    return out;
}

}  // namespace uetsim
