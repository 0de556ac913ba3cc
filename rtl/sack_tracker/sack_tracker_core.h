// One SACK tracker request and response as the block's pins carry them, and the Verilated block
// behind the narrow interface the engine (sack_tracker_rtl.h) uses (sack_tracker_block<V> in
// sack_tracker_block.h). A block library built by `uetsim rtl-build --as SackTracker` hands
// uetsim one of these (rtl/library/rtl_library.h). No Verilator or SystemC header.
#pragma once

#include <cstdint>
#include <string>

#include "rtl/common/rtl_pins.h"

namespace uetsim {

// One request as the pins carry it (req_op, req_slot, req_psn).
struct sack_tracker_request
{
    enum class op : uint8_t { open = 0, data = 1, ack = 2, close = 3 };
    op kind = op::data;
    uint32_t slot = 0;
    uint32_t psn = 0;  // open: the first PSN; data: the packet's PSN; else 0
};

// One answer: every rsp_ field (the lockstep checker compares them all, state summary included).
struct sack_tracker_response
{
    uint8_t arrival = 0;  // pdc_receiver::arrival (data), else 0
    uint32_t cack = 0;
    uint32_t sack_base = 0;    // ack, else 0
    uint64_t sack_bitmap = 0;  // ack, else 0
    uint32_t held = 0;         // PSNs held beyond the CACK after the request
    uint32_t span = 0;         // pdc_receiver::span() after the request
    bool out_of_window = false;
    bool slot_error = false;

    bool operator==(const sack_tracker_response& o) const
    {
        return arrival == o.arrival && cack == o.cack && sack_base == o.sack_base &&
               sack_bitmap == o.sack_bitmap && held == o.held && span == o.span &&
               out_of_window == o.out_of_window && slot_error == o.slot_error;
    }
    bool operator!=(const sack_tracker_response& o) const { return !(*this == o); }
};

// "data slot=3 psn=0xfffffff0 (4294967280)" / "arrival=out_of_order cack=0x... sack_base=...
// sack_bitmap=0x... held=.. span=.." (mismatch reports).
std::string describe(const sack_tracker_request& r);
std::string describe(const sack_tracker_response& r);

// The Verilated block: one request stepped to its answer; its parameters; the pins for waves.
class rtl_sack_tracker_core
{
public:
    virtual ~rtl_sack_tracker_core() = default;
    virtual sack_tracker_response transact(const sack_tracker_request& r) = 0;
    virtual uint32_t contexts() const = 0;        // CONTEXTS
    virtual uint32_t window() const = 0;          // WINDOW
    virtual uint32_t latency_cycles() const = 0;  // the `latency` pin
    virtual rtl_pin_set& pins() = 0;
    virtual void open_fst(const std::string& path) = 0;  // the block's own waves
};

}  // namespace uetsim
