#include "rtl/entropy_lb/entropy_lb_pins.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "hw/common/picoseconds.h"
#include "hw/nic/uet/entropy/entropy_factory.h"
#include "hw/nic/uet/entropy/entropy_random.h"
#include "hw/nic/uet/entropy/reps_policy.h"

namespace uetsim {

namespace {

const char* choice_name(uint8_t c)
{
    return c <= uint8_t(entropy_choice::frozen) ? entropy_choice_name(entropy_choice(c)) : "?";
}

}  // namespace

std::string describe(const entropy_lb_response& r)
{
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "op=%s slot=%u error=%d value=%u choice=%u (%s) freezing=%d in_window=%d "
                  "available=%u held=%u window_sent=%u",
                  entropy_lb_op_name(r.op), unsigned(r.slot), int(r.error), unsigned(r.value),
                  unsigned(r.choice), choice_name(r.choice), int(r.freezing), int(r.in_window),
                  unsigned(r.available), unsigned(r.held), unsigned(r.window_sent));
    return buf;
}

entropy_lb_request entropy_lb_open_request(uint16_t slot, const entropy_config& cfg, uint64_t seed)
{
    entropy_lb_request r;
    r.op = entropy_lb_op::open;
    r.slot = slot;
    r.cfg_type = uint8_t(cfg.type);
    r.cfg_base = cfg.type == packet_spraying_type::none ? cfg.local_udp_port
                                                        : uint16_t(cfg.starting_port_offset);
    if (cfg.type == packet_spraying_type::default_spraying)
        r.cfg_mask_bits = uint8_t(cfg.entropy_mask_bits);
    if (cfg.type == packet_spraying_type::reps) {
        r.cfg_cache_bits = uint8_t(cfg.reps_buffer_size_mask_bits);
        r.cfg_value_set_size = cfg.entropy_value_set_size;
        // The model ends freezing at now - start >= timeout - 0.5 ps (its tolerance); with whole
        // ps times that is now - start >= ceil(timeout - 0.5 ps). This is llround (D4) except
        // for a timeout of an exact half ps, where llround would round up and differ.
        r.cfg_timeout_ps = uint64_t(std::max(0.0, std::ceil(cfg.freezing_timeout_s * 1e12 - 0.5)));
        r.cfg_window = uint32_t(reps_exploration_window_packets(cfg));
        r.cfg_seed = entropy_random::seed_state(seed);
    }
    return r;
}

std::optional<std::string> entropy_lb_limit_error(const entropy_lb_limits& lim, uint32_t slot,
                                                  const entropy_config& cfg)
{
    if (slot >= lim.contexts)
        return "UetNic.EntropyContexts: context slot " + std::to_string(slot) +
               " is beyond the RTL entropy load balancer's " + std::to_string(lim.contexts) +
               " context slots (Rtl.EntropyLoadBalancer); allowed: 1 to " +
               std::to_string(lim.contexts);
    if (cfg.type != packet_spraying_type::reps) return std::nullopt;
    if (cfg.reps_buffer_size_mask_bits > lim.cache_bits)
        return "UetNic.REPSBufferSizeMaskBits " + std::to_string(cfg.reps_buffer_size_mask_bits) +
               " is beyond the RTL entropy load balancer's cache of 2^" +
               std::to_string(lim.cache_bits) +
               " entries (Rtl.EntropyLoadBalancer); allowed: 0 to " +
               std::to_string(lim.cache_bits);
    const uint64_t w = reps_exploration_window_packets(cfg);
    if (w > 0xFFFFFFFFull)
        return "UetNic.InitialBaseRTT: the REPS exploration window of " + std::to_string(w) +
               " packets is beyond the RTL entropy load balancer's 32-bit window counter "
               "(Rtl.EntropyLoadBalancer); allowed: up to 4294967295 packets";
    return std::nullopt;
}

entropy_lb_response entropy_lb_model_response(const entropy_lb_request& r, const entropy_policy* p,
                                              uint16_t value)
{
    entropy_lb_response s;
    s.op = r.op;
    s.slot = r.slot;
    if (!p) return s;
    s.value = r.op == entropy_lb_op::next ? value : 0;
    s.choice = uint8_t(p->last_choice());
    s.freezing = p->freezing();
    if (const auto* reps = dynamic_cast<const reps_policy*>(p)) {
        s.in_window = reps->in_exploration_window();
        s.available = reps->cache().available();
        s.held = reps->cache().held();
        s.window_sent = uint32_t(reps->window_packets_sent());
    }
    return s;
}

entropy_lb_response entropy_lb_apply(const entropy_lb_request& r, const entropy_config* open_cfg,
                                     uint64_t open_seed, std::unique_ptr<entropy_policy>& p)
{
    uint16_t value = 0;
    // As entropy_engine hands the policies their times.
    const double now_s = seconds_from_ps(r.now_ps);
    switch (r.op) {
        case entropy_lb_op::open:
            p = make_entropy_policy(*open_cfg, open_seed);
            break;
        case entropy_lb_op::next:
            value = p->next(now_s);
            break;
        case entropy_lb_op::feedback:
            p->feedback(r.entropy, path_feedback(r.feedback), now_s);
            break;
        case entropy_lb_op::close:
            p.reset();
            break;
    }
    return entropy_lb_model_response(r, p.get(), value);
}

}  // namespace uetsim
