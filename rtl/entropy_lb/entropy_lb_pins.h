// The entropy_lb block's requests and responses as C++ values, how they map onto its pins
// (rtl/entropy_lb/entropy_lb.sv), and the model's answer for the same request, so the engine
// and the tests drive and compare every variant (product, test sizes, mutants) the same way.
//
// No Verilator header here: drive()/sample() are templates over the Verilated class, which the
// caller includes, or over any bundle with the pins' names (sc_signals of a SystemC-mode block:
// examples/embedding/rtl_engine).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "hw/nic/uet/entropy/entropy_config.h"
#include "hw/nic/uet/entropy/entropy_policy.h"

namespace uetsim {

enum class entropy_lb_op : uint8_t { open = 0, next = 1, feedback = 2, close = 3 };
const char* entropy_lb_op_name(entropy_lb_op op);

// Every field of the request pins; an op reads only its own (open: cfg_*; feedback: entropy,
// feedback, now_ps; next: now_ps).
struct entropy_lb_request
{
    entropy_lb_op op = entropy_lb_op::next;
    uint16_t slot = 0;
    uint8_t cfg_type = 0;   // packet_spraying_type: 0 None, 1 Default, 2 REPS
    uint16_t cfg_base = 0;  // None: local_udp_port; Default: StartingPortOffset
    uint8_t cfg_mask_bits = 0;
    uint8_t cfg_cache_bits = 0;
    uint32_t cfg_value_set_size = 0;
    uint64_t cfg_timeout_ps = 0;
    uint32_t cfg_window = 0;
    uint32_t cfg_seed = 0;  // entropy_random::seed_state(seed)
    uint16_t entropy = 0;
    uint8_t feedback = 0;  // path_feedback
    uint64_t now_ps = 0;
};

// The response pins: the value (next) and the context's state summary after the op.
struct entropy_lb_response
{
    entropy_lb_op op = entropy_lb_op::next;
    uint16_t slot = 0;
    bool error = false;
    uint16_t value = 0;
    uint8_t choice = 0;  // entropy_choice
    bool freezing = false;
    bool in_window = false;
    uint32_t available = 0;
    uint32_t held = 0;
    uint32_t window_sent = 0;

    bool operator==(const entropy_lb_response& o) const
    {
        return op == o.op && slot == o.slot && error == o.error && value == o.value &&
               choice == o.choice && freezing == o.freezing && in_window == o.in_window &&
               available == o.available && held == o.held && window_sent == o.window_sent;
    }
    bool operator!=(const entropy_lb_response& o) const { return !(*this == o); }
};

std::string describe(const entropy_lb_request& r);
std::string describe(const entropy_lb_response& r);

// What the C++ side loads at open: FreezingTimeout as integer ps (llround), the window's packet
// count and the 32-bit seed state. `cfg` must pass entropy_config_error().
entropy_lb_request entropy_lb_open_request(uint16_t slot, const entropy_config& cfg, uint64_t seed);

// The sizes of one Verilated variant (its constant outputs), and the first limit `cfg` exceeds
// for a context in `slot`, as an error naming the scenario key; nullopt when it fits.
struct entropy_lb_limits
{
    uint32_t contexts = 0;
    uint32_t cache_bits = 0;
};
std::optional<std::string> entropy_lb_limit_error(const entropy_lb_limits& lim, uint32_t slot,
                                                  const entropy_config& cfg);

// The model's response for a request it has just applied: `p` is the slot's policy after the
// op (null after close), `value` what next() returned.
entropy_lb_response entropy_lb_model_response(const entropy_lb_request& r, const entropy_policy* p,
                                              uint16_t value);

// Applies `r` to a model policy, as the engine base class does: open builds it, close drops it.
// Returns the model's response.
entropy_lb_response entropy_lb_apply(const entropy_lb_request& r, const entropy_config* open_cfg,
                                     uint64_t open_seed, std::unique_ptr<entropy_policy>& p);

// ---- pins (V: a Verilated entropy_lb variant) ----

template <class V>
void entropy_lb_drive(V& m, const entropy_lb_request& r)
{
    m.req_op = uint8_t(r.op);
    m.req_slot = r.slot;
    m.req_cfg_type = r.cfg_type;
    m.req_cfg_base = r.cfg_base;
    m.req_cfg_mask_bits = r.cfg_mask_bits;
    m.req_cfg_cache_bits = r.cfg_cache_bits;
    m.req_cfg_value_set_size = r.cfg_value_set_size;
    m.req_cfg_timeout_ps = r.cfg_timeout_ps;
    m.req_cfg_window = r.cfg_window;
    m.req_cfg_seed = r.cfg_seed;
    m.req_entropy = r.entropy;
    m.req_feedback = r.feedback;
    m.req_now_ps = r.now_ps;
}

template <class V>
entropy_lb_response entropy_lb_sample(const V& m)
{
    entropy_lb_response s;
    s.op = entropy_lb_op(uint8_t(m.rsp_op));
    s.slot = m.rsp_slot;
    s.error = m.rsp_error;
    s.value = m.rsp_value;
    s.choice = m.rsp_choice;
    s.freezing = m.rsp_freezing;
    s.in_window = m.rsp_in_window;
    s.available = m.rsp_available;
    s.held = m.rsp_held;
    s.window_sent = m.rsp_window_sent;
    return s;
}

template <class V>
entropy_lb_limits entropy_lb_limits_of(const V& m)
{
    return {uint32_t(m.contexts), uint32_t(m.cache_bits)};
}

}  // namespace uetsim
