// The NIC registry: Nic.Type uet builds a UET NIC behind host_nic with the context it was given;
// raw builds none; each type says its MSS and framing; a type added from outside is found by its
// name and a name cannot be taken twice.
#include <gtest/gtest.h>

#include <systemc>

#include "hw/nic/uet/uet_nic.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/nics/roce_nic_entry.h"
#include "testbench/nics/uet_nic_entry.h"
#include "tests/support/stub_host_dma.h"

using namespace uetsim;

TEST(nic_factory, uet_builds_a_uet_nic_raw_builds_none)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    EXPECT_EQ(find_nic_type(nic_kind::raw)->build, nullptr);
    ASSERT_NE(find_nic_type(nic_kind::uet)->build, nullptr);
    scenario sc;
    packet_pool pool;
    test::stub_host_dma dma;
    const nic_context ctx{3, 21, 0x0a000004, 1, pool, dma};
    std::unique_ptr<host_nic> nic = make_nic("host3", sc.nic, ctx, 200e9);
    ASSERT_NE(nic, nullptr);
    EXPECT_STREQ(nic->kind_name(), "uet");
    EXPECT_NE(as_uet_nic(*nic), nullptr);
    EXPECT_EQ(as_roce_nic(*nic), nullptr);
    EXPECT_EQ(nic->host(), 3u);
    EXPECT_EQ(nic->node_id(), 21u);
    EXPECT_EQ(nic->ip(), 0x0a000004u);
    EXPECT_STREQ(nic->basename(), "host3");
    EXPECT_EQ(nic->data_packets_sent(), 0u);
}

// What the testbench learns of a type without building one: MSS and framing by its own keys.
TEST(nic_factory, each_type_frames_its_data_by_its_own_keys)
{
    nic_config n;
    n.uet.rdma_data_mss = 2048;
    n.roce.mss = 1024;
    n.type = nic_kind::uet;
    EXPECT_EQ(nic_data_mss(n), 2048u);
    EXPECT_EQ(nic_framing_of(n).overhead_bytes, 106u);
    EXPECT_EQ(nic_framing_of(n).name, "uet");
    n.type = nic_kind::raw;  // UET data framing without a transport
    EXPECT_EQ(nic_data_mss(n), 2048u);
    EXPECT_EQ(nic_framing_of(n).name, "uet");
    n.type = nic_kind::roce;
    EXPECT_EQ(nic_data_mss(n), 1024u);
    EXPECT_EQ(nic_framing_of(n).overhead_bytes, 58u);
    EXPECT_EQ(nic_framing_of(n).name, "roce");
    std::vector<std::string_view> names;
    for (const nic_type* t : nic_types()) names.push_back(t->kind.name);
    EXPECT_EQ(names, (std::vector<std::string_view>{"uet", "raw", "roce"}));
}

TEST(nic_factory, a_type_added_from_outside_is_found_and_a_name_is_taken_once)
{
    static const std::string name = "echo";
    nic_type t;
    t.kind = nic_kind{name};
    t.doc = "a test's NIC";
    t.data_mss = [](const nic_config&) { return 512u; };
    add_nic_type(t);
    nic_config n;
    n.type = nic_kind{name};
    EXPECT_EQ(nic_data_mss(n), 512u);
    EXPECT_EQ(nic_types().back()->kind, nic_kind{"echo"});
    EXPECT_THROW(add_nic_type(t), std::logic_error);
    n.type = nic_kind{"nosuch"};
    EXPECT_THROW(nic_type_of(n), std::logic_error);
}
