// A component bench of two UET NICs back to back over one 400 Gb/s link with 100 ns of
// propagation and stubbed host DMA (no PCIe, no fabric): NIC A is host 0 (node 10) on end A,
// NIC B host 1 (node 11) on end B. Frames that reach B pass a hook first, so a test can trim
// or alter them as a switch on the last hop would (frames that reach A pass one too); a recording
// uet-monitor sink collects the rows of both NICs when a test attaches it.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

#include "hw/link/link.h"
#include "hw/nic/uet/uet_monitor_sink.h"
#include "hw/nic/uet/uet_nic.h"
#include "hw/nic/uet/uet_nic_params.h"
#include "tests/support/stub_host_dma.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"

namespace uetsim::test {

constexpr double k_pair_rate_bps = 400e9;
constexpr uint32_t k_ip_a = 0x0a000001, k_ip_b = 0x0a000002;
constexpr uint32_t k_node_a = 10, k_node_b = 11;

inline uet_nic_params pair_params(const uet_nic_config& uet = {}, const nscc_config& cc = {})
{
    return derive_uet_nic_params(uet, cc, entropy_config{}, k_pair_rate_bps);
}

// Between the link and NIC B's port: `edit` sees each frame as it arrives.
class frame_hook : public sc_core::sc_module
{
public:
    packet_target_socket in{"in"};
    packet_initiator_socket out{"out"};
    std::function<void(packet&)> edit;
    // A frame for which `drop` says true is lost here (back to `pool`), as on a lossy hop.
    std::function<bool(const packet&)> drop;
    packet_pool* pool = nullptr;

    explicit frame_hook(const sc_core::sc_module_name& name) : sc_core::sc_module(name)
    {
        in.on_receive([this](packet& p) {
            if (drop && drop(p)) {
                pool->release(&p);
                return sc_core::SC_ZERO_TIME;
            }
            if (edit) edit(p);
            return out.send(p);
        });
    }
};

class recording_monitor : public uet_monitor_sink
{
public:
    bool row(const uet_monitor_row& r) override
    {
        rows.push_back(r);
        return false;
    }
    std::vector<uet_monitor_row> rows;
};

struct nic_pair
{
    struct time_resolution
    {
        time_resolution() { sc_core::sc_set_time_resolution(1, sc_core::SC_PS); }
    };

    time_resolution resolution;
    packet_pool pool;
    stub_host_dma dma_a, dma_b;
    uetsim::link wire{"wire", k_pair_rate_bps, sc_core::sc_time(100, sc_core::SC_NS), pool};
    frame_hook to_b{"to_b"};
    frame_hook to_a{"to_a"};
    uet_nic a, b;

    explicit nic_pair(const uet_nic_params& pa = pair_params(),
                      const uet_nic_params& pb = pair_params())
        : a("nic_a", nic_context{0, k_node_a, k_ip_a, 18760, pool, dma_a}, pa)
        , b("nic_b", nic_context{1, k_node_b, k_ip_b, 18760, pool, dma_b}, pb)
    {
        to_a.pool = to_b.pool = &pool;
        a.port.tx.out.bind(wire.from_a);
        wire.to_a.bind(to_a.in);
        to_a.out.bind(a.port.in);
        b.port.tx.out.bind(wire.from_b);
        wire.to_b.bind(to_b.in);
        to_b.out.bind(b.port.in);
    }
};

// A frame as it reached an end of the pair: when, what, its size, its entropy value (the UDP
// source port) and its PDS and SES headers.
struct seen_frame
{
    uint64_t at_ps;
    packet_kind kind;
    uint32_t wire_bytes;
    uint16_t entropy;
    pds_fields pds;
    ses_fields ses;
};

// Records every frame that reaches A and B (a bench derives from it and calls record(n)).
struct frame_recorder
{
    std::vector<seen_frame> at_a, at_b;

    void record(nic_pair& n)
    {
        n.to_a.edit = [this](packet& p) { at_a.push_back(capture(p)); };
        n.to_b.edit = [this](packet& p) { at_b.push_back(capture(p)); };
    }
    // The frames of `v` of kind `k` and, for control packets, of control type `ctl` (0xFF: any).
    static std::vector<seen_frame> of(const std::vector<seen_frame>& v, packet_kind k,
                                      uint8_t ctl = 0xFF)
    {
        std::vector<seen_frame> out;
        for (const seen_frame& s : v)
            if (s.kind == k && (ctl == 0xFF || s.pds.ctl_type == ctl)) out.push_back(s);
        return out;
    }
    // What is recorded of `p` now (for a test's own hook).
    static seen_frame capture(const packet& p)
    {
        return {
            sc_core::sc_time_stamp().value(), p.kind, p.wire_bytes, p.udp.src_port, p.pds, p.ses};
    }
};

}  // namespace uetsim::test
