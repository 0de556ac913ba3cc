// Stage 4 of the shared-buffer page: how far a lossy egress queue may fill in its pool before
// the switch drops (or trims) what arrives. Each of the page's four forms is a class behind
// admission_policy, chosen once per switch at elaboration (derive_shared_buffer_layout): at
// start it fixes each pool's limits (size), then bounds every lossy packet at egress
// (egress_limit). The layout holds the chosen form in a variant, so the built-in forms are
// called directly on the hot path (they are final); a policy from outside the tree (a test's,
// a user's: shared_buffer_config::admission) is the variant's last alternative and the only one
// reached through a virtual call. Pure logic.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <type_traits>
#include <variant>

#include "hw/switch/shared_buffer_pool.h"

namespace uetsim {

class admission_policy
{
public:
    virtual ~admission_policy() = default;
    // The form's name (inspect, docs): dynamic, even_split, fixed_cap, uet_policy.
    virtual std::string_view name() const = 0;
    // At start, for every pool: its fixed egress limit (0 where the limit moves with the
    // occupancy) and the static limit the ECN band is a fraction of.
    virtual void size(shared_buffer_pool& p) const = 0;
    // Per lossy packet at egress: the queue limit in pool `p` while the pool holds
    // `pool_egress_bytes` at egress across all ports; `trimmable_rtx`: the packet carries the
    // trimmable-retransmit codepoint.
    virtual double egress_limit(const shared_buffer_pool& p, uint64_t pool_egress_bytes,
                                bool trimmable_rtx) const = 0;
};

// LossyAlpha > 0: LossyAlpha x the pool's free egress bytes, per packet; ECN reads the pool's
// nominal size.
class dynamic_egress_limit final : public admission_policy
{
public:
    explicit dynamic_egress_limit(double lossy_alpha = 1.0) : m_alpha(lossy_alpha) {}
    std::string_view name() const override { return "dynamic"; }
    void size(shared_buffer_pool& p) const override
    {
        p.static_egress_limit_bytes = p.nominal_bytes;
        p.fixed_egress_limit_bytes = 0;
    }
    double egress_limit(const shared_buffer_pool& p, uint64_t pool_egress_bytes,
                        bool) const override
    {
        const uint64_t free = p.bytes > pool_egress_bytes ? p.bytes - pool_egress_bytes : 0;
        return m_alpha * double(free);
    }

private:
    double m_alpha;
};

// The fixed forms share the per-packet bound: the pool's fixed limit.
class fixed_egress_limit : public admission_policy
{
public:
    double egress_limit(const shared_buffer_pool& p, uint64_t, bool) const override
    {
        return double(p.fixed_egress_limit_bytes);
    }

protected:
    static void fix(shared_buffer_pool& p, uint64_t limit)
    {
        p.fixed_egress_limit_bytes = limit;
        p.static_egress_limit_bytes = limit;
    }
};

// LossyAlpha 0, QueueDropThresholdEnable false: the pool split evenly over the connected ports.
class even_split_egress_limit final : public fixed_egress_limit
{
public:
    explicit even_split_egress_limit(uint32_t connected_ports) : m_ports(connected_ports) {}
    std::string_view name() const override { return "even_split"; }
    void size(shared_buffer_pool& p) const override
    {
        fix(p, m_ports ? p.nominal_bytes / m_ports : p.nominal_bytes);
    }

private:
    uint32_t m_ports;
};

// LossyAlpha 0, QueueDropThresholdEnable true: QueueDropThreshold x PlaneBDP in every pool.
class fixed_cap_egress_limit final : public fixed_egress_limit
{
public:
    explicit fixed_cap_egress_limit(uint64_t cap_bytes) : m_cap(cap_bytes) {}
    std::string_view name() const override { return "fixed_cap"; }
    void size(shared_buffer_pool& p) const override { fix(p, m_cap); }

private:
    uint64_t m_cap;
};

// UETPolicyEnabled: PlaneBDP with trimming, QueueDropThreshold x PlaneBDP without, and a
// trimmable retransmission may fill 1.5 times that.
class uet_policy_egress_limit final : public fixed_egress_limit
{
public:
    explicit uet_policy_egress_limit(uint64_t limit_bytes) : m_limit(limit_bytes) {}
    std::string_view name() const override { return "uet_policy"; }
    void size(shared_buffer_pool& p) const override { fix(p, m_limit); }
    double egress_limit(const shared_buffer_pool& p, uint64_t, bool trimmable_rtx) const override
    {
        const uint64_t limit = p.fixed_egress_limit_bytes;
        return double(trimmable_rtx ? limit + limit / 2 : limit);
    }

private:
    uint64_t m_limit;
};

// The form a switch runs: a built-in one by value, or one from outside.
using admission_form =
    std::variant<dynamic_egress_limit, even_split_egress_limit, fixed_cap_egress_limit,
                 uet_policy_egress_limit, std::shared_ptr<const admission_policy>>;

inline const admission_policy& policy_of(const admission_form& f)
{
    return std::visit(
        [](const auto& form) -> const admission_policy& {
            if constexpr (std::is_same_v<std::decay_t<decltype(form)>,
                                         std::shared_ptr<const admission_policy>>)
                return *form;
            else
                return form;
        },
        f);
}

// Per lossy packet: the built-in forms' bounds are called on their final class (no virtual
// call; a switch on the index, which the compiler keeps smaller than std::visit's), a policy
// from outside through its interface.
inline double egress_limit_of(const admission_form& f, const shared_buffer_pool& p,
                              uint64_t pool_egress_bytes, bool trimmable_rtx)
{
    switch (f.index()) {
        case 0:
            return std::get_if<0>(&f)->egress_limit(p, pool_egress_bytes, trimmable_rtx);
        case 1:
            return std::get_if<1>(&f)->egress_limit(p, pool_egress_bytes, trimmable_rtx);
        case 2:
            return std::get_if<2>(&f)->egress_limit(p, pool_egress_bytes, trimmable_rtx);
        case 3:
            return std::get_if<3>(&f)->egress_limit(p, pool_egress_bytes, trimmable_rtx);
        default:
            return (*std::get_if<4>(&f))->egress_limit(p, pool_egress_bytes, trimmable_rtx);
    }
}

}  // namespace uetsim
