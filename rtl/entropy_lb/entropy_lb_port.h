// The Verilated entropy_lb behind the narrow interface the engine (entropy_lb_rtl.h) uses: one
// request in, its response out (entropy_lb_block<V> in entropy_lb_block.h). A block library built
// by `uetsim rtl-build --as EntropyLoadBalancer` hands uetsim one of these
// (rtl/library/rtl_library.h). No Verilator or SystemC header.
#pragma once

#include <cstdint>
#include <string>

#include "rtl/common/rtl_pins.h"
#include "rtl/entropy_lb/entropy_lb_pins.h"

namespace uetsim {

class entropy_lb_port
{
public:
    virtual ~entropy_lb_port() = default;
    virtual entropy_lb_response transact(const entropy_lb_request& r) = 0;
    virtual entropy_lb_limits limits() const = 0;
    virtual uint32_t latency_cycles() const = 0;
    virtual uint64_t cycles() const = 0;
    virtual rtl_pin_set& pins() = 0;                     // for the run's waveform
    virtual void open_fst(const std::string& path) = 0;  // the block's own FST
};

}  // namespace uetsim
