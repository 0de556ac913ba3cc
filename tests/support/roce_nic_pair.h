// A component bench of two RoCE NICs back to back over one 400 Gb/s link with 100 ns of
// propagation and stubbed host DMA (no PCIe, no fabric): NIC A is host 0 on end A, NIC B host 1
// on end B. Every frame passes a hook on its way to either NIC, which sees it and may drop it
// (a loss on the wire), so a test can lose exactly the packet a worked example loses.
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>

#include "hw/link/link.h"
#include "hw/nic/roce/roce_nic.h"
#include "tests/support/stub_host_dma.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"

namespace uetsim::test {

constexpr double k_roce_rate_bps = 400e9;
constexpr uint32_t k_roce_ip_a = 0x0a000001, k_roce_ip_b = 0x0a000002;

// Between the link and a NIC's port: `see` returns false to lose the frame.
class lossy_hook : public sc_core::sc_module
{
public:
    packet_target_socket in{"in"};
    packet_initiator_socket out{"out"};
    std::function<bool(packet&)> see;

    lossy_hook(const sc_core::sc_module_name& name, packet_pool& pool)
        : sc_core::sc_module(name), m_pool(pool)
    {
        in.on_receive([this](packet& p) {
            if (see && !see(p)) {
                m_pool.release(&p);
                return sc_core::SC_ZERO_TIME;
            }
            return out.send(p);
        });
    }

private:
    packet_pool& m_pool;
};

struct roce_pair
{
    struct time_resolution
    {
        time_resolution() { sc_core::sc_set_time_resolution(1, sc_core::SC_PS); }
    };

    time_resolution resolution;
    packet_pool pool;
    stub_host_dma dma_a, dma_b;
    uetsim::link wire{"wire", k_roce_rate_bps, sc_core::sc_time(100, sc_core::SC_NS), pool};
    lossy_hook to_a{"to_a", pool}, to_b{"to_b", pool};
    roce_nic a, b;

    explicit roce_pair(const roce_nic_config& ca = {}, const roce_nic_config& cb = {})
        : a("nic_a", nic_context{0, 10, k_roce_ip_a, 18760, pool, dma_a}, ca, k_roce_rate_bps)
        , b("nic_b", nic_context{1, 11, k_roce_ip_b, 18760, pool, dma_b}, cb, k_roce_rate_bps)
    {
        a.port.tx.out.bind(wire.from_a);
        wire.to_a.bind(to_a.in);
        to_a.out.bind(a.port.in);
        b.port.tx.out.bind(wire.from_b);
        wire.to_b.bind(to_b.in);
        to_b.out.bind(b.port.in);
        const pfc_link l{k_roce_rate_bps, 100'000};
        a.port.set_link(l);
        b.port.set_link(l);
    }
};

}  // namespace uetsim::test
