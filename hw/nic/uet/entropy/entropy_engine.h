// The NIC's entropy load balancer as an engine with a fixed number of context slots, shaped like
// the hardware: the NIC owns one from construction, a PDC group opens a slot and closes it when
// it dies, and each data packet asks its group's slot for the value at issue (split phase: the
// answer says when the value is ready, which the EntropyLookup stage checks). This base class is
// the C++ model, one entropy_policy per slot with today's policies unchanged; an RTL engine
// derives from it and overrides the virtuals. Kernel-free.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "hw/nic/uet/entropy/entropy_config.h"
#include "hw/nic/uet/entropy/entropy_policy.h"

namespace uetsim {

struct entropy_answer
{
    uint16_t value;     // the entropy value (UDP source port)
    uint64_t ready_ps;  // when the lookup has it (now_ps for the C++ model)
};

// The NIC's entropy load balancer: a fixed number of context slots, one per open PDC group
// (UetNic.EntropyContexts). This base class is the C++ model: one entropy_policy per slot,
// today's policies unchanged. An RTL engine derives from it and overrides the virtuals.
class entropy_engine
{
public:
    explicit entropy_engine(uint32_t contexts);
    virtual ~entropy_engine();
    uint32_t contexts() const { return m_contexts; }
    uint32_t in_use() const { return m_in_use; }
    // The most slots in use at once so far.
    uint32_t max_in_use() const { return m_max_in_use; }
    // The lowest free slot for a new PDC group, configured with `cfg` and `seed`
    // (entropy_seed(...)); nullopt when every slot is in use.
    std::optional<uint32_t> open(const entropy_config& cfg, uint64_t seed);
    void close(uint32_t slot);
    // Split phase: asked at issue (now_ps), the answer says when the value is ready.
    virtual entropy_answer next(uint32_t slot, uint64_t now_ps);
    virtual void feedback(uint32_t slot, uint16_t entropy, path_feedback f, uint64_t now_ps);
    // The C++ model's state of a slot (observers, records, monitor).
    const entropy_policy& policy(uint32_t slot) const { return *m_policies[slot]; }

protected:
    virtual void on_open(uint32_t slot, const entropy_config& cfg, uint64_t seed) {}
    virtual void on_close(uint32_t slot) {}
    entropy_policy& model(uint32_t slot) { return *m_policies[slot]; }

private:
    uint32_t m_contexts;
    uint32_t m_in_use = 0;
    uint32_t m_max_in_use = 0;
    // Storage grows with the highest slot used, not with the capacity: a large fabric's NICs
    // pay only for the groups they open. Null: a free slot.
    std::vector<std::unique_ptr<entropy_policy>> m_policies;
    // Freed slots below m_policies.size(), lowest first.
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> m_free;
};

}  // namespace uetsim
