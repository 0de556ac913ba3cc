// flow_hash_block<V>: a Verilated flow hash (Vflow_hash, or a test-only mutant with the same
// ports) as an rtl_flow_hash_core, on rtl/common's clocked_block. Include after the V*.h and
// before <systemc> (clocked_block.h includes Verilator's headers).
#pragma once

#include "rtl/common/clocked_block.h"
#include "rtl/flow_hash/flow_hash_rtl.h"

namespace uetsim {

template <class V>
class flow_hash_block final : public rtl_flow_hash_core
{
public:
    explicit flow_hash_block(const std::string& name) : m_block(name)
    {
        V& p = m_block.pins();
        m_pins.add("method", 3, p.method);
        m_pins.add("protocol", 8, p.protocol);
        m_pins.add("src_ip", 32, p.src_ip);
        m_pins.add("dst_ip", 32, p.dst_ip);
        m_pins.add("src_port", 16, p.src_port);
        m_pins.add("dst_port", 16, p.dst_port);
        m_pins.add("salt", 32, p.salt);
        m_pins.add("hash", 16, p.hash);
    }

    uint16_t hash(const flow_hash_request& r) override
    {
        V& p = m_block.pins();
        p.method = static_cast<uint8_t>(r.method);
        p.protocol = r.key.protocol;
        p.src_ip = r.key.src_ip;
        p.dst_ip = r.key.dst_ip;
        p.src_port = r.key.src_port;
        p.dst_port = r.key.dst_port;
        p.salt = r.salt;
        m_block.settle();  // combinational: one eval
        m_pins.changed();
        return p.hash;
    }

    rtl_pin_set& pins() override { return m_pins; }
    void open_fst(const std::string& path) override { m_block.open_fst(path); }
    clocked_block<V>& block() { return m_block; }

private:
    clocked_block<V> m_block;
    rtl_pin_set m_pins;
};

}  // namespace uetsim
