// A switch takes the frames coming to it as they start on a link (fabric_switch::take_ahead)
// when their admission can neither fail nor pause the sender (the pool holds them with all that
// can arrive first; a lossless class stays short of Xoff): the link schedules no wake-up for their
// arrival, and the switch applies it (port counters, the ingress charge) at its time, before
// anything that could see it; each frame leaves the forwarding pipeline at its arrival plus the
// latency, in the order the frames arrived, whichever link brought them and whenever they were
// taken.
//
// Hosts (stubs) on ports 0, 1 and 2 over 400 Gb/s links of 100 ns (host 0) and 10 ns (hosts 1
// and 2). A 4,202 B data frame is 84.04 ns on the wire; the forwarding latency is 500 ns. Host 0
// sends three frames to host 1 from 0 ns, back to back: they arrive at 184.04, 268.08 and
// 352.12 ns. Host 2 sends one to host 1 at 100 ns: taken after host 0's third, it arrives at
// 194.04 ns, second. Port 1 sends them in that order: 684.04, 768.08 (host 2's), 852.12 and
// 936.16 ns, and host 1 has each 94.04 ns later: the same times whether the three exits that
// find port 1 sending are held back or not.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

#include "hw/kernel/activity.h"
#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"
#include "hw/kernel/wakeup.h"
#include "hw/link/link.h"
#include "hw/switch/fabric_switch.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"

using namespace uetsim;

namespace {

constexpr uint64_t ns = 1000;  // ps
constexpr uint64_t k_data_ps = 84'040;
constexpr uint32_t k_ip_bytes = 4202 - 18;  // the ingress charge of a data frame

struct host_stub : sc_core::sc_module
{
    packet_initiator_socket out;
    packet_target_socket in;
    std::vector<std::pair<uint64_t, uint16_t>> got;  // (arrival time, source host)

    host_stub(const sc_core::sc_module_name& n, packet_pool& pool)
        : sc_core::sc_module(n), out("out"), in("in")
    {
        in.on_receive([this, &pool](packet& p) {
            got.push_back({sim_now_ps(), p.src_node});
            pool.release(&p);
            return sc_core::SC_ZERO_TIME;
        });
    }
};

struct time_resolution
{
    time_resolution() { sc_core::sc_set_time_resolution(1, sc_core::SC_PS); }
};

struct bench
{
    time_resolution resolution;
    packet_pool pool;
    fabric_switch sw;
    uetsim::link l0{"l0", 400e9, sc_core::sc_time(100, sc_core::SC_NS), pool};
    uetsim::link l1{"l1", 400e9, sc_core::sc_time(10, sc_core::SC_NS), pool};
    uetsim::link l2{"l2", 400e9, sc_core::sc_time(10, sc_core::SC_NS), pool};
    host_stub h0{"h0", pool}, h1{"h1", pool}, h2{"h2", pool};

    static routing_table routes()
    {
        routing_table t;
        for (uint16_t h = 0; h < 3; ++h) t.add_route(h, {h});
        return t;
    }
    static switch_config config(bool lossless)
    {
        switch_config c;
        if (!lossless) c.buffer.enable_pfc = {0, 0, 0, 0, 0, 0, 0, 0};
        return c;
    }

    explicit bench(bool ahead, bool lossless = true)
        : sw("sw", 100, config(lossless), routes(),
             std::vector<fabric_switch::port_spec>(3, fabric_switch::port_spec{}), 1, pool)
    {
        uetsim::link* links[3] = {&l0, &l1, &l2};
        host_stub* hosts[3] = {&h0, &h1, &h2};
        for (int i = 0; i < 3; ++i) {
            hosts[i]->out.bind(links[i]->from_a);
            links[i]->to_b.bind(sw.port(size_t(i)).in);
            sw.port(size_t(i)).tx.out.bind(links[i]->from_b);
            links[i]->to_a.bind(hosts[i]->in);
            if (ahead) links[i]->hand_ahead(uetsim::link::a_to_b, &sw.port(size_t(i)));
        }
    }
    packet& data(uint16_t src, uint16_t dst)
    {
        packet& p = *pool.acquire();
        p.kind = packet_kind::uet_data;
        p.payload_bytes = 4096;
        p.wire_bytes = wire_size(packet_kind::uet_data, 4096);
        p.src_node = src;
        p.dst_node = dst;
        p.ip.dscp = dscp::make(0, dscp::role::no_trim);
        return p;
    }
};

void run_ahead(bool lockstep = false)
{
    model_scheduler& s = model_scheduler::instance();
    s.set_time_base(model_scheduler::time_base::decoupled);
    s.set_horizon_ps(lockstep ? 0 : 10'000 * ns);
    sc_core::sc_start(picoseconds(10'000 * ns));
    s.set_horizon_ps(0);
}

// The traffic above; the switch's port 0 counters and ingress charge read at 184 and 185 ns.
struct traffic
{
    bench& b;
    std::vector<uint64_t> rx_packets, charged;
    int sent = 0;
    wakeup send0{[this] {
        b.h0.out.send(b.data(0, 1));
        if (++sent < 3) send0.notify_at_ps(sim_now_ps() + k_data_ps);
    }};
    wakeup send2{[this] { b.h2.out.send(b.data(2, 1)); }};
    wakeup r184{[this] { read(); }};
    wakeup r185{[this] { read(); }};
    void read()
    {
        rx_packets.push_back(b.sw.port(0).counters().rx_packets);
        charged.push_back(b.sw.buffers().accounting().ingress_occupancy(0, 0));
    }
    explicit traffic(bench& bb) : b(bb)
    {
        send0.notify_at_ps(0);
        send2.notify_at_ps(100 * ns);
        r184.notify_at_ps(184 * ns);
        r185.notify_at_ps(185 * ns);
    }
};

const std::vector<std::pair<uint64_t, uint16_t>> k_at_host1{{684'040 + k_data_ps + 10'000, 0},
                                                            {768'080 + k_data_ps + 10'000, 2},
                                                            {852'120 + k_data_ps + 10'000, 0},
                                                            {936'160 + k_data_ps + 10'000, 0}};

// The model's wake-ups of the traffic over the wire (the test's own are not counted): at the
// switch 4 arrivals and 4 pipeline exits (none at the same time), port 1's frame ends (3 with a
// frame to follow; the last held back) and host 1's link arrivals (4).
constexpr uint64_t k_wire_events = 4 + 4 + 3 + 4;
// Running ahead, the exits that find port 1 sending past them are held back and done by its
// frame ends (docs/performance.md, "Held-back pipeline exits"): host 2's (at 694.04 ns, port 1
// busy until 768.08), host 0's second and third (768.08 and 852.12 ns, held when port 1 starts
// the frame before each). Only the first exit wakes the pipeline.
constexpr uint64_t k_held_exits = 3;

}  // namespace

TEST(switch_ahead, frames_taken_ahead_leave_in_arrival_order_and_are_seen_from_their_arrival)
{
    bench b(true);
    traffic t(b);
    const uint64_t before = activity::count();
    run_ahead();
    EXPECT_EQ(b.h1.got, k_at_host1);
    // Not yet at 184 ns; at 185 ns host 0's first frame is counted and charged.
    EXPECT_EQ(t.rx_packets, (std::vector<uint64_t>{0, 1}));
    EXPECT_EQ(t.charged, (std::vector<uint64_t>{0, k_ip_bytes}));
    EXPECT_EQ(b.sw.port(0).counters().rx_packets, 3u);
    EXPECT_EQ(b.sw.port(2).counters().rx_packets, 1u);
    EXPECT_EQ(b.sw.buffers().accounting().ingress_occupancy(0, 0), 0u);  // all left
    // No arrival at the switch, and the held exits.
    EXPECT_EQ(activity::count() - before, k_wire_events - 4 - k_held_exits);
}

TEST(switch_ahead, over_the_wire_the_same_frames_take_a_wakeup_each_at_the_switch)
{
    bench b(false);
    traffic t(b);
    const uint64_t before = activity::count();
    run_ahead();
    EXPECT_EQ(b.h1.got, k_at_host1);
    EXPECT_EQ(t.rx_packets, (std::vector<uint64_t>{0, 1}));
    EXPECT_EQ(t.charged, (std::vector<uint64_t>{0, k_ip_bytes}));
    EXPECT_EQ(activity::count() - before, k_wire_events - k_held_exits);
}

TEST(switch_ahead, nothing_is_taken_ahead_in_lockstep)
{
    bench b(true);
    traffic t(b);
    const uint64_t before = activity::count();
    run_ahead(true);
    EXPECT_EQ(b.h1.got, k_at_host1);
    EXPECT_EQ(activity::count() - before, k_wire_events + 1);  // the last frame end too
}

TEST(switch_ahead, a_lossy_class_is_taken_ahead_while_its_pool_holds_what_can_arrive_first)
{
    // No Xoff to stay short of: the pool (90 % of 256 MB) holds far more than the three ports
    // can bring in while a frame is on its way.
    bench b(true, false);
    traffic t(b);
    const uint64_t before = activity::count();
    run_ahead();
    EXPECT_EQ(b.h1.got, k_at_host1);
    EXPECT_EQ(t.rx_packets, (std::vector<uint64_t>{0, 1}));
    EXPECT_EQ(activity::count() - before, k_wire_events - 4 - k_held_exits);
}

TEST(switch_ahead, a_link_that_goes_down_loses_the_frames_that_had_not_arrived)
{
    bench b(true);
    traffic t(b);
    wakeup down{[&] { b.l0.set_up(false); }};
    down.notify_at_ps(200 * ns);  // host 0's first arrived at 184.04; 268.08 and 352.12 to come
    run_ahead();
    // Host 0's first and host 2's frame only, as soon as port 1 is free for each.
    EXPECT_EQ(b.h1.got, (std::vector<std::pair<uint64_t, uint16_t>>{k_at_host1[0], k_at_host1[1]}));
    EXPECT_EQ(b.l0.frames_lost(uetsim::link::a_to_b), 2u);
    EXPECT_EQ(b.sw.port(0).counters().rx_packets, 1u);
    EXPECT_EQ(b.sw.buffers().accounting().ingress_occupancy(0, 0), 0u);
}
