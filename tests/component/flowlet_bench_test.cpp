// One fabric_switch with LoadBalancingMethod flowlet, elaborated alone with stub ports (as in
// switch_bench_test): the flowlet selector reads the pause state of a member from the port's
// scheduler, where PFC pauses a port's classes. Host 9 is reached through ports 1, 2 and 3.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "hw/kernel/time.h"
#include "hw/switch/fabric_switch.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"
#include "tests/support/switch_bench.h"

using namespace uetsim;

namespace {

constexpr uint64_t k_latency_ps = 500'000;

using bench = test::switch_bench;
using test::simulate;
using test::wait_until_ps;

// Host 0 behind port 0; host 9 behind ports 1, 2 and 3 (one set of three members).
bench& make_bench(const switch_config& cfg, size_t ports = 3, bool nic_facing = false)
{
    routing_table t;
    t.add_route(0, {0});
    t.add_route(9, {1, 2, 3});
    fabric_switch::port_spec s;
    s.nic_facing = nic_facing;
    return test::make_switch_bench(cfg, std::move(t),
                                   std::vector<fabric_switch::port_spec>(ports, s));
}

}  // namespace

// Ports 1 and 2 paused for TC0: flow A's first packet takes port 3, skipping both. Then port 3 is
// paused too: with every member paused all are candidates, and flow B takes the least occupied,
// port 1 or 2 (port 3 still holds A's frame), counted as a selection while paused.
TEST(flowlet_bench, paused_members_are_left_out_unless_all_are_paused)
{
    switch_config cfg;
    cfg.lb_method = load_balancing_method::flowlet;
    bench& b = make_bench(cfg, 4);
    const int32_t set = b.sw.routes().set_of(9);
    auto stats = [&](size_t m) -> const flowlet_selector::member_stats& {
        return b.sw.flowlet()->stats(b.sw.routes().member_slot(set, m));
    };
    simulate(b, [&] {
        b.sw.port(1).queue().scheduler().pause(1u << 0);
        b.sw.port(2).queue().scheduler().pause(1u << 0);
        b.sport = 1000;  // flow A
        b.data(0, 9);
        wait_until_ps(k_latency_ps + 1);  // A admitted, serialising on port 3
        b.sw.port(3).queue().scheduler().pause(1u << 0);
        b.sport = 2000;  // flow B
        b.data(0, 9);
        wait_until_ps(2 * k_latency_ps);
    });
    ASSERT_NE(b.sw.flowlet(), nullptr);
    EXPECT_EQ(b.sw.flowlet()->flow_table_slots(set), 512u);
    ASSERT_EQ(b.stubs[3]->got.size(), 1u);  // A, on the only member not paused
    EXPECT_EQ(stats(0).paused_skips, 1u);
    EXPECT_EQ(stats(1).paused_skips, 1u);
    EXPECT_EQ(stats(2).paused_skips, 0u);
    EXPECT_EQ(stats(2).assignments, 1u);
    EXPECT_EQ(stats(2).paused_selections, 0u);
    // B waits in a paused queue on port 1 or 2.
    EXPECT_EQ(stats(0).paused_selections + stats(1).paused_selections, 1u);
    EXPECT_EQ(stats(0).assignments + stats(1).assignments, 1u);
    EXPECT_EQ(b.sw.port(1).queue().packets_queued() + b.sw.port(2).queue().packets_queued(), 1u);
}
