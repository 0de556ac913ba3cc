// flow_hash_block<V>: a Verilated flow hash (Vflow_hash, or a test-only mutant with the same
// ports) as an rtl_flow_hash_core, on rtl/common's clocked_block; its pins are the contract's
// (flow_hash_contract.h). Include after the V*.h and
// before <systemc> (clocked_block.h includes Verilator's headers).
#pragma once

#include "rtl/common/clocked_block.h"
#include "rtl/flow_hash/flow_hash_contract.h"
#include "rtl/flow_hash/flow_hash_core.h"
#include "rtl/library/rtl_contract.h"

namespace uetsim {

template <class V>
class flow_hash_block final : public rtl_flow_hash_core
{
public:
    explicit flow_hash_block(const std::string& name) : m_block(name)
    {
        V& p = m_block.pins();
        auto add_pin = [this](const char* pin, unsigned width, const auto& port) {
            m_pins.add(pin, width, port);
        };
        UETSIM_FLOW_HASH_PINS(UETSIM_RTL_CONTRACT_PIN)
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
