// Two generic NIC ports back to back over one 400 Gbps link with 100 ns of propagation, each
// with a recording client and a stub host side, for the nic_port component tests: what each
// client received (PSN, time), what its port finished sending, its pool wake-ups, and the frames
// port A put on the link (from a tap: start, kind, size, class, PFC fields). Header-only.
#pragma once

#include <cstdint>
#include <vector>

#include <systemc>

#include "hw/kernel/model_scheduler.h"
#include "hw/kernel/sim_clock.h"
#include "hw/link/link.h"
#include "hw/nic/common/nic_port.h"
#include "tests/support/stub_host_dma.h"
#include "tlm/packet_pool.h"

namespace uetsim::test {

struct recording_port_client : nic_port_client
{
    struct arrival
    {
        uint32_t psn;
        uint64_t at_ps;
    };
    packet_pool* pool = nullptr;
    std::vector<arrival> received;
    std::vector<uint32_t> sent_psns;  // at the end of their serialization
    std::vector<packet_kind> sent_kinds;
    std::vector<uint64_t> pool_free_ps;
    // Says on_sent() does nothing for control frames (and then records none of them), as a
    // transport's does, so that their frame ends may be held back.
    bool silent_control = false;

    void on_receive(packet* p) override
    {
        received.push_back({p->pds.psn, sim_now_ps()});
        pool->release(p);
    }
    bool sent_is_silent(const sent_frame& f) const override { return silent_control && !f.data; }
    void on_sent(const sent_frame& f) override
    {
        if (sent_is_silent(f)) return;
        sent_psns.push_back(f.psn);
        sent_kinds.push_back(f.kind);
    }
    void on_pool_free(int) override { pool_free_ps.push_back(sim_now_ps()); }
};

// Runs the kernel for 1 us with the model allowed to run ahead through it, as a run's slice
// does (the model scheduler then holds work back); `lockstep`: no horizon, nothing held back.
inline void run_model_ahead(bool lockstep = false)
{
    model_scheduler& s = model_scheduler::instance();
    s.set_time_base(model_scheduler::time_base::decoupled);
    s.set_horizon_ps(lockstep ? 0 : 1'000'000);
    sc_core::sc_start(sc_core::sc_time::from_value(1'000'000));
    s.set_horizon_ps(0);
}

struct nic_port_pair
{
    struct wire_frame
    {
        uint64_t start_ps;
        packet_kind kind;
        uint32_t bytes;
        int tc;  // from the DSCP
        uint32_t psn;
        uint8_t class_enable;  // PFC frames
        uint16_t quanta0, quanta1;
    };
    struct time_resolution
    {
        time_resolution() { sc_core::sc_set_time_resolution(1, sc_core::SC_PS); }
    };
    static constexpr uint64_t ns = 1000;  // ps

    time_resolution resolution;
    packet_pool pool;
    stub_host_dma dma_a, dma_b;
    recording_port_client client_a, client_b;
    uetsim::link wire{"wire", 400e9, sc_core::sc_time(100, sc_core::SC_NS), pool};
    nic_port a, b;
    std::vector<wire_frame> a_to_b;
    uint32_t frame_bytes;  // frame()'s default size on the wire

    nic_port_pair(const nic_port_config& ca, const nic_port_config& cb, uint32_t default_bytes)
        : a("port_a", ca, pool, dma_a, client_a)
        , b("port_b", cb, pool, dma_b, client_b)
        , frame_bytes(default_bytes)
    {
        client_a.pool = client_b.pool = &pool;
        a.tx.out.bind(wire.from_a);
        wire.to_a.bind(a.in);
        b.tx.out.bind(wire.from_b);
        wire.to_b.bind(b.in);
        a.set_link({400e9, 100 * ns});
        b.set_link({400e9, 100 * ns});
        wire.add_tap([this](const packet& p, uetsim::link::direction d, const sc_core::sc_time& t) {
            if (d == uetsim::link::a_to_b)
                a_to_b.push_back({t.value(), p.kind, p.wire_bytes, dscp::traffic_class(p.ip.dscp),
                                  p.pds.psn, p.pfc.class_enable, p.pfc.quanta[0], p.pfc.quanta[1]});
        });
    }
    // A UET data frame of class `tc` (its DSCP), `wire_bytes` on the wire (0: frame_bytes).
    packet* frame(uint32_t psn, uint8_t tc = 0, uint32_t wire_bytes = 0)
    {
        packet* p = pool.acquire();
        p->kind = packet_kind::uet_data;
        p->wire_bytes = wire_bytes ? wire_bytes : frame_bytes;
        p->pds.psn = psn;
        p->ip.dscp = dscp::make(tc, dscp::role::no_trim);
        return p;
    }
    std::vector<uint64_t> pfc_starts() const
    {
        std::vector<uint64_t> r;
        for (const auto& f : a_to_b)
            if (f.kind == packet_kind::pfc) r.push_back(f.start_ps);
        return r;
    }
};

}  // namespace uetsim::test
