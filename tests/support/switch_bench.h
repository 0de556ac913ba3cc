// One fabric_switch elaborated alone with stub ports, for the switch's component tests: each stub
// injects packets into its switch port (as a link delivers them, last bit arrived) and records
// what the port sends, taking each frame at its own line rate. No links, fabric or NICs. The
// test body runs in the bench's SC_THREAD (simulate), so it can wait_until_ps between injections.
// Header-only: tests/support is kernel-free, the tests that include this are not.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "hw/kernel/time.h"
#include "hw/switch/fabric_switch.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"

namespace uetsim::test {

inline constexpr double k_stub_rate_bps = 400e9;

// The far end of one switch port: `out` feeds the port's input, `in` takes its output.
struct switch_stub_port : sc_core::sc_module
{
    struct frame
    {
        uint64_t id;
        uint64_t first_bit_ps;  // when the switch started sending it
        packet_kind kind;
        uint32_t wire_bytes;
        uint8_t dscp;
        uint8_t tc;  // the DSCP's traffic class
        bool trimmed;
        uint8_t class_enable;  // a PFC frame's classes
        uint16_t quanta;       // a PFC frame's quanta of its first named class
    };

    packet_initiator_socket out;
    packet_target_socket in;
    std::vector<frame> got;

    switch_stub_port(const sc_core::sc_module_name& n, packet_pool& pool)
        : sc_core::sc_module(n), out("out"), in("in")
    {
        in.on_receive([this, &pool](packet& p) {
            uint16_t q = 0;
            for (int t = 0; t < 8; ++t)
                if ((p.pfc.class_enable >> t) & 1u) {
                    q = p.pfc.quanta[t];
                    break;
                }
            got.push_back({p.id, to_ps(sc_core::sc_time_stamp()), p.kind, p.wire_bytes, p.ip.dscp,
                           dscp::traffic_class(p.ip.dscp), p.trimmed,
                           p.kind == packet_kind::pfc ? p.pfc.class_enable : uint8_t(0), q});
            const sc_core::sc_time busy = serialization(p.wire_bytes, k_stub_rate_bps);
            pool.release(&p);
            return busy;  // the switch port may not start its next frame before then
        });
    }

    std::vector<frame> of(packet_kind k) const
    {
        std::vector<frame> r;
        for (const auto& f : got)
            if (f.kind == k) r.push_back(f);
        return r;
    }
};

struct switch_bench : sc_core::sc_module
{
    packet_pool pool;
    fabric_switch sw;
    std::vector<std::unique_ptr<switch_stub_port>> stubs;
    std::function<void()> body;
    uint16_t sport = 0;  // UDP source port of the next packet injected (the flow)

    // Host h behind port h.
    static routing_table host_per_port(size_t ports)
    {
        routing_table t;
        for (uint16_t h = 0; h < ports; ++h) t.add_route(h, {h});
        return t;
    }

    switch_bench(const sc_core::sc_module_name& n, const switch_config& cfg, routing_table routes,
                 const std::vector<fabric_switch::port_spec>& ports)
        : sc_core::sc_module(n), sw("switch", 100, cfg, std::move(routes), ports, 1, pool)
    {
        SC_HAS_PROCESS(switch_bench);
        for (size_t i = 0; i < ports.size(); ++i) {
            stubs.push_back(
                std::make_unique<switch_stub_port>(("stub" + std::to_string(i)).c_str(), pool));
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
        p.udp.src_port = sport;
        stubs[port]->out.send(p);
        return p;
    }
    // A 4,096-byte UET data packet (4,202 B on the wire).
    packet& data(size_t port, uint16_t dst, uint8_t tc = 0, dscp::role r = dscp::role::no_trim)
    {
        return inject(port, dst, packet_kind::uet_data, 4096, tc, r);
    }
    // The peer on `port` sends a PFC frame for the classes of `mask` (arriving now).
    void pfc(size_t port, uint8_t mask, uint16_t quanta)
    {
        packet& p = *pool.acquire();
        p.kind = packet_kind::pfc;
        p.wire_bytes = wire::pfc_uet_bytes;
        p.pfc.class_enable = mask;
        for (int t = 0; t < 8; ++t)
            if ((mask >> t) & 1u) p.pfc.quanta[t] = quanta;
        stubs[port]->out.send(p);
    }
};

// The process's one bench (one elaboration per process).
inline switch_bench& make_switch_bench(const switch_config& cfg, routing_table routes,
                                       const std::vector<fabric_switch::port_spec>& ports)
{
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    static switch_bench* b = new switch_bench("bench", cfg, std::move(routes), ports);
    return *b;
}

inline void simulate(switch_bench& b, std::function<void()> body)
{
    b.body = std::move(body);
    sc_core::sc_start();
}

inline void wait_until_ps(uint64_t ps)
{
    sc_core::wait(picoseconds(ps) - sc_core::sc_time_stamp());
}

}  // namespace uetsim::test
