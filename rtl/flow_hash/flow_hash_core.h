// One flow-hash request as the block's pins carry it, and the Verilated block behind the narrow
// interface the wrapper (flow_hash_rtl.h) uses: drive the pins, settle, read `hash`
// (flow_hash_block<V> in flow_hash_block.h). A block library built by `uetsim rtl-build --as
// FlowHash` hands uetsim one of these (rtl/library/rtl_library.h). No Verilator or SystemC header.
#pragma once

#include <cstdint>
#include <string>

#include "hw/switch/flow_hash.h"
#include "rtl/common/rtl_pins.h"

namespace uetsim {

struct flow_hash_request
{
    ecmp_hash_method method = ecmp_hash_method::crc32_with_salt;
    flow_key key;
    uint32_t salt = 0;
};

// "method=1 (crc32) protocol=17 src_ip=0x0a000001 ... salt=0x00000000" (mismatch reports).
std::string describe(const flow_hash_request& r);
std::string describe_hash(const uint16_t& h);  // "0x867a"

// The Verilated block: drives the pins, settles, returns `hash`; the pins for the waveform.
class rtl_flow_hash_core
{
public:
    virtual ~rtl_flow_hash_core() = default;
    virtual uint16_t hash(const flow_hash_request& r) = 0;
    virtual rtl_pin_set& pins() = 0;
    virtual void open_fst(const std::string& path) = 0;  // the block's own waves
};

}  // namespace uetsim
