// The pin contracts (rtl/library/rtl_contract.h): the built-in blocks meet their own contracts,
// read from the headers Verilator generated for them (as rtl-build reads a user's), the check
// names the pin and both sides of a difference, and docs/rtl.md's tables are the contracts'.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "rtl/library/rtl_contract.h"
#include "rtl/library/verilated_ports.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

std::string text_of(const std::string& path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::vector<rtl_port> generated_ports(const std::string& prefix)
{
    return verilated_ports(
        text_of(std::string(UETSIM_RTL_GENERATED_DIR) + "/" + prefix + ".dir/" + prefix + ".h"));
}

}  // namespace

TEST(rtl_contract, the_builtin_blocks_meet_their_contracts)
{
    const std::pair<const char*, const char*> blocks[] = {{"FlowHash", "Vflow_hash"},
                                                          {"EntropyLoadBalancer", "Ventropy_lb"},
                                                          {"SackTracker", "Vsack_tracker"}};
    for (const auto& [key, prefix] : blocks) {
        const rtl_block_contract* c = find_rtl_contract(key);
        ASSERT_NE(c, nullptr) << key;
        const std::vector<rtl_port> ports = generated_ports(prefix);
        EXPECT_EQ(ports.size(), c->pins.size()) << key;
        EXPECT_EQ(rtl_contract_mismatch(*c, ports), std::nullopt) << key;
    }
    // The widths the blocks' pages give (docs/rtl.md): the flow hash's 8 ports, no clock; the
    // load balancer's 31 with its latency pin; the SACK tracker's 19.
    EXPECT_EQ(find_rtl_contract("FlowHash")->pins.size(), 8u);
    EXPECT_EQ(find_rtl_contract("FlowHash")->latency_pin(), nullptr);
    EXPECT_EQ(find_rtl_contract("EntropyLoadBalancer")->pins.size(), 31u);
    EXPECT_EQ(find_rtl_contract("EntropyLoadBalancer")->find("req_cfg_value_set_size")->width, 17u);
    EXPECT_STREQ(find_rtl_contract("EntropyLoadBalancer")->latency_pin()->name, "latency");
    EXPECT_EQ(find_rtl_contract("SackTracker")->pins.size(), 19u);
    EXPECT_EQ(find_rtl_contract("SackTracker")->find("rsp_sack_bitmap")->width, 64u);
    EXPECT_EQ(find_rtl_contract("Nothing"), nullptr);
}

TEST(rtl_contract, a_difference_names_the_pin_and_both_sides)
{
    const rtl_block_contract& c = *find_rtl_contract("FlowHash");
    // Verilator declares the ports grouped by C++ type, not in the .sv's order.
    const std::vector<rtl_port> ports = generated_ports("Vflow_hash");
    auto with = [&](const std::string& pin, auto change) {
        std::vector<rtl_port> p = ports;
        for (rtl_port& x : p)
            if (x.name == pin) change(x);
        return rtl_contract_mismatch(c, p).value_or("(none)");
    };
    EXPECT_EQ(with("hash", [](rtl_port& p) { p.width = 15; }),
              "pin hash: out, 15 bits, the FlowHash contract's is out, 16 bits");
    EXPECT_EQ(with("method", [](rtl_port& p) { p.dir = rtl_pin_dir::out; }),
              "pin method: out, 3 bits, the FlowHash contract's is in, 3 bits");
    EXPECT_EQ(with("salt", [](rtl_port& p) { p.name = "seed"; }),
              "pin salt is missing (the FlowHash contract's: in, 32 bits)");
    std::vector<rtl_port> extra = ports;
    extra.push_back({"busy", rtl_pin_dir::out, 1});
    EXPECT_EQ(rtl_contract_mismatch(c, extra).value_or("(none)"),
              "pin busy (out, 1 bit) is not in the FlowHash contract's pins");
    const std::vector<rtl_port> reversed(ports.rbegin(), ports.rend());
    EXPECT_EQ(rtl_contract_mismatch(c, reversed), std::nullopt) << "order does not matter";
}

TEST(rtl_contract, verilated_ports_reads_every_port_kind)
{
    const std::vector<rtl_port> p = verilated_ports(
        "    VL_IN8(&clk,0,0);\n    VL_OUT16(&rsp_slot,15,0);\n    VL_IN(&req_window,31,0);\n"
        "    VL_OUT64(&rsp_bitmap,63,0);\n    VL_INW(&wide,99,0,4);\n    VL_INOUT8(&pad,3,0);\n"
        "    // VL_IN8(&not_a_port,0,0) in a comment\n");
    ASSERT_EQ(p.size(), 6u);
    EXPECT_EQ(p[0].name, "clk");
    EXPECT_EQ(p[1].width, 16u);
    EXPECT_EQ(p[1].dir, rtl_pin_dir::out);
    EXPECT_EQ(p[2].width, 32u);
    EXPECT_EQ(p[3].width, 64u);
    EXPECT_EQ(p[4].width, 100u);
    EXPECT_EQ(p[5].dir, rtl_pin_dir::inout);
}

TEST(rtl_contract, docs_rtl_md_holds_every_contract_table)
{
    const std::string page = text_of(test::source_dir() + "/docs/rtl.md");
    for (const rtl_block_contract& c : rtl_contracts())
        EXPECT_NE(page.find(rtl_contract_markdown(c)), std::string::npos)
            << c.key << ": docs/rtl.md's table differs from `uetsim rtl-contracts --markdown`";
}
