// The text of an entropy_lb request (mismatch and protocol reports). A file of its own, with no
// hw/ code behind it, because a block library built by `uetsim rtl-build` compiles it too: the
// wrapper (entropy_lb_block.h) names the request in its protocol errors.
#include <cstdio>

#include "rtl/entropy_lb/entropy_lb_pins.h"

namespace uetsim {

const char* entropy_lb_op_name(entropy_lb_op op)
{
    switch (op) {
        case entropy_lb_op::open:
            return "open";
        case entropy_lb_op::next:
            return "next";
        case entropy_lb_op::feedback:
            return "feedback";
        case entropy_lb_op::close:
            return "close";
    }
    return "?";
}

namespace {

const char* feedback_name(uint8_t f)
{
    static const char* names[] = {
        "ack", "ack_ecn", "nack_trimmed", "nack_trimmed_last_hop", "timeout", "failure_detected"};
    return f < 6 ? names[f] : "?";
}

}  // namespace

std::string describe(const entropy_lb_request& r)
{
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "op=%s slot=%u cfg_type=%u cfg_base=%u cfg_mask_bits=%u cfg_cache_bits=%u "
                  "cfg_value_set_size=%u cfg_timeout_ps=%llu cfg_window=%u cfg_seed=0x%08x "
                  "entropy=%u feedback=%u (%s) now_ps=%llu",
                  entropy_lb_op_name(r.op), unsigned(r.slot), unsigned(r.cfg_type),
                  unsigned(r.cfg_base), unsigned(r.cfg_mask_bits), unsigned(r.cfg_cache_bits),
                  unsigned(r.cfg_value_set_size), static_cast<unsigned long long>(r.cfg_timeout_ps),
                  unsigned(r.cfg_window), unsigned(r.cfg_seed), unsigned(r.entropy),
                  unsigned(r.feedback), feedback_name(r.feedback),
                  static_cast<unsigned long long>(r.now_ps));
    return buf;
}

}  // namespace uetsim
