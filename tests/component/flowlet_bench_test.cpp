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

using namespace uetsim;

namespace {

constexpr double k_rate_bps = 400e9;
constexpr uint64_t k_latency_ps = 500'000;

// The far end of one switch port: `out` feeds the port's input, `in` takes its output.
struct stub_port : sc_core::sc_module
{
    struct frame
    {
        uint64_t id;
        uint64_t first_bit_ps;  // when the switch started sending it
        uint32_t wire_bytes;
        uint8_t dscp;
        bool trimmed;
    };

    packet_initiator_socket out;
    packet_target_socket in;
    std::vector<frame> got;

    stub_port(const sc_core::sc_module_name& n, packet_pool& pool)
        : sc_core::sc_module(n), out("out"), in("in")
    {
        in.on_receive([this, &pool](packet& p) {
            got.push_back(
                {p.id, to_ps(sc_core::sc_time_stamp()), p.wire_bytes, p.ip.dscp, p.trimmed});
            const sc_core::sc_time busy = serialization(p.wire_bytes, k_rate_bps);
            pool.release(&p);
            return busy;  // the switch port may not start its next frame before then
        });
    }
};

// A switch with `ports` stub ports; host h is reached through port h.
struct bench : sc_core::sc_module
{
    packet_pool pool;
    fabric_switch sw;
    std::vector<std::unique_ptr<stub_port>> stubs;
    std::function<void()> body;
    uint16_t sport = 0;  // UDP source port of the next packet injected

    // Host 0 behind port 0; host 9 behind ports 1, 2 and 3 (one set of three members).
    static routing_table routes(size_t)
    {
        routing_table t;
        t.add_route(0, {0});
        t.add_route(9, {1, 2, 3});
        return t;
    }

    bench(const sc_core::sc_module_name& n, const switch_config& cfg, size_t ports, bool nic_facing)
        : sc_core::sc_module(n)
        , sw("switch", 100, cfg, routes(ports),
             std::vector<fabric_switch::port_spec>(ports, {nic_facing}), 1, pool)
    {
        SC_HAS_PROCESS(bench);
        for (size_t i = 0; i < ports; ++i) {
            stubs.push_back(
                std::make_unique<stub_port>(("stub" + std::to_string(i)).c_str(), pool));
            stubs.back()->out.bind(sw.port(i).in);
            sw.port(i).tx.out.bind(stubs.back()->in);
        }
        SC_THREAD(run);
    }

    void run()
    {
        if (body) body();
    }

    // A packet arrives on `port` for host `dst` now.
    packet& inject(size_t port, uint16_t dst, packet_kind kind, uint32_t payload, uint8_t tc,
                   dscp::role role = dscp::role::no_trim)
    {
        packet& p = *pool.acquire();
        p.kind = kind;
        p.payload_bytes = payload;
        p.wire_bytes = wire_size(kind, payload);
        p.dst_node = dst;
        p.ip.dscp = dscp::make(tc, role);
        p.ip.ecn = ecn::not_ect;
        p.udp.src_port = sport;  // the flow
        stubs[port]->out.send(p);
        return p;
    }
    packet& data(size_t port, uint16_t dst, uint8_t tc = 0, dscp::role r = dscp::role::no_trim)
    {
        return inject(port, dst, packet_kind::uet_data, 4096, tc, r);
    }
};

bench& make_bench(const switch_config& cfg, size_t ports = 3, bool nic_facing = false)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    static bench* b = new bench("bench", cfg, ports, nic_facing);  // one per process
    return *b;
}

void simulate(bench& b, std::function<void()> body)
{
    b.body = std::move(body);
    sc_core::sc_start();
}

void wait_until_ps(uint64_t ps)
{
    sc_core::wait(picoseconds(ps) - sc_core::sc_time_stamp());
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
