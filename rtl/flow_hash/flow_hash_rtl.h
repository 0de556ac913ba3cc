// The flow-hash RTL block (flow_hash.sv) behind the switch's flow_hasher seam
// (hw/switch/flow_hasher.h), for Rtl.FlowHash rtl|both (docs/rtl.md).
//
//   rtl_flow_hasher h("leaf0.flow_hash", rtl_mode::both);
//   sw.use_hasher(&h);   // every ECMP hash of the switch now goes through h.hash16()
//
//   rtl   hash16() returns the RTL's hash
//   both  hash16() returns flow_hash16 (the model is the reference) and checks the RTL's hash
//         against it (lockstep_checker): the first mismatch goes to the mismatch handler
//
// The block is combinational: a request is drive the pins, settle (one eval), sample `hash`,
// inside the switch's wake-up at the model's time, sim_now_ps() (C++-mode stepping, D1).
//
// This header includes no Verilator header (the block sits behind rtl_flow_hash_core), so the
// testbench can include it anywhere. A different Verilated flow hash (the tests' mutant) comes in
// as a core built by flow_hash_block<V> (flow_hash_block.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "hw/switch/flow_hash.h"
#include "hw/switch/flow_hasher.h"
#include "rtl/flow_hash/flow_hash_core.h"
#include "rtl/common/lockstep_checker.h"
#include "rtl/common/rtl_mode.h"
#include "rtl/common/rtl_pins.h"

namespace uetsim {

// The product block, Vflow_hash (rtl/flow_hash/flow_hash.sv).
std::unique_ptr<rtl_flow_hash_core> make_rtl_flow_hash_core(const std::string& name);

class rtl_flow_hasher final : public flow_hasher
{
public:
    // `component` names the block in reports ("leaf0.flow_hash"); mode rtl or both. Null core:
    // the product block.
    rtl_flow_hasher(const std::string& component, rtl_mode mode,
                    std::unique_ptr<rtl_flow_hash_core> core = nullptr);

    uint16_t hash16(ecmp_hash_method m, const flow_key& k, uint32_t salt) override;

    rtl_mode mode() const { return m_mode; }
    const std::string& component() const { return m_checker.component(); }
    uint64_t requests() const { return m_requests; }          // hashes the RTL computed
    uint64_t checked() const { return m_checker.checked(); }  // of which compared (both)
    uint64_t mismatches() const { return m_checker.mismatches(); }
    rtl_pin_set& pins() { return m_core->pins(); }
    rtl_flow_hash_core& core() { return *m_core; }

private:
    rtl_mode m_mode;
    std::unique_ptr<rtl_flow_hash_core> m_core;
    lockstep_checker<flow_hash_request, uint16_t> m_checker;
    uint64_t m_requests = 0;
};

}  // namespace uetsim
