// The pin contract of each built-in RTL block: the ports a Verilated block must have to stand in
// for it (names, directions, widths, what each one is for). Each block writes its list once, in
// rtl/<block>/<block>_contract.h; this gives them to the wrappers (static width checks), to
// `uetsim rtl-build` (a user's generated V*.h checked before anything is compiled), to the
// library loader (a library's recorded ports checked before a run) and to docs/rtl.md's tables
// (`uetsim rtl-contracts --markdown`). No Verilator or SystemC header here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace uetsim {

enum class rtl_pin_dir : uint8_t { in, out, inout };  // no contract has inout
const char* to_string(rtl_pin_dir d);

// What the wrapper does with a pin: the clock and reset it drives, the handshake, the payload
// (traced in the run's waveform), the constant latency pin, other constants it reads.
enum class rtl_pin_role : uint8_t { clock, reset, valid, ready, response, data, latency, constant };

struct rtl_contract_pin
{
    rtl_pin_dir dir;
    const char* name;
    unsigned width;  // bits
    rtl_pin_role role;
    const char* meaning;
};

struct rtl_block_contract
{
    const char* key;      // the registry's key: FlowHash (Rtl.FlowHash, Rtl.FlowHashLibrary)
    const char* module;   // the built-in top module: flow_hash
    const char* source;   // the built-in's source in the tree: rtl/flow_hash/flow_hash.sv
    const char* summary;  // one line: what the block is and how it is stepped
    std::vector<rtl_contract_pin> pins;
    const rtl_contract_pin* find(std::string_view name) const;
    const rtl_contract_pin* latency_pin() const;  // null: combinational
};

const std::vector<rtl_block_contract>& rtl_contracts();
const rtl_block_contract* find_rtl_contract(std::string_view key);
// "FlowHash, EntropyLoadBalancer, SackTracker".
std::string rtl_contract_keys();

// A port as a Verilated model (or a library's record of it) has it.
struct rtl_port
{
    std::string name;
    rtl_pin_dir dir = rtl_pin_dir::in;
    unsigned width = 0;
};

// The first difference between `ports` and the contract, naming the pin, both directions or
// widths ("pin req_op: 3 bits, the EntropyLoadBalancer contract's is 2"), a missing pin or one
// the contract lacks; nullopt when they agree (in any order).
std::optional<std::string> rtl_contract_mismatch(const rtl_block_contract& c,
                                                 const std::vector<rtl_port>& ports);

// The contract as a Markdown table (docs/rtl.md), and all of them with a heading each.
std::string rtl_contract_markdown(const rtl_block_contract& c);
std::string rtl_contracts_markdown();
std::string rtl_contracts_text();

// Verilator's C++ type for a port of `width` bits (CData, SData, IData, QData: 1, 2, 4, 8 bytes;
// wider ports are VlWide and not in any contract).
constexpr unsigned rtl_port_bytes(unsigned width)
{
    return width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
}

}  // namespace uetsim

// In a wrapper's constructor, expanded over a block's pin list (UETSIM_<BLOCK>_PINS): checks that
// the Verilated port `p.<name>` has the C++ type of the contract's width, and registers each
// payload pin for the run's waveform through `add_pin(name, width, port)` (both in scope).
#define UETSIM_RTL_CONTRACT_PIN(dir, name, width, role, meaning)                               \
    static_assert(sizeof(p.name) == ::uetsim::rtl_port_bytes(width),                           \
                  "the Verilated port " #name " does not have the contract's width, " #width); \
    if constexpr (::uetsim::rtl_pin_role::role == ::uetsim::rtl_pin_role::data)                \
        add_pin(#name, width, p.name);
