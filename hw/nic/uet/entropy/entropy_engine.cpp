#include "hw/nic/uet/entropy/entropy_engine.h"

#include <algorithm>
#include <stdexcept>

#include "hw/common/picoseconds.h"
#include "hw/nic/uet/entropy/entropy_factory.h"

namespace uetsim {

entropy_engine::entropy_engine(uint32_t contexts) : m_contexts(contexts)
{
    if (contexts == 0) throw std::invalid_argument("entropy_engine: no context slots");
}

entropy_engine::~entropy_engine() = default;

std::optional<uint32_t> entropy_engine::open(const entropy_config& cfg, uint64_t seed)
{
    uint32_t slot;
    if (!m_free.empty()) {
        slot = m_free.top();
        m_free.pop();
    } else if (m_policies.size() < m_contexts) {
        slot = uint32_t(m_policies.size());
        m_policies.emplace_back();
    } else {
        return std::nullopt;
    }
    m_policies[slot] = make_entropy_policy(cfg, seed);
    ++m_in_use;
    m_max_in_use = std::max(m_max_in_use, m_in_use);
    on_open(slot, cfg, seed);
    return slot;
}

void entropy_engine::close(uint32_t slot)
{
    if (slot >= m_policies.size() || !m_policies[slot])
        throw std::logic_error("entropy_engine: closing a free slot");
    on_close(slot);
    m_policies[slot].reset();
    m_free.push(slot);
    --m_in_use;
}

entropy_answer entropy_engine::next(uint32_t slot, uint64_t now_ps)
{
    // The policies take seconds, exactly as the NIC gave them before the engine existed.
    return {m_policies[slot]->next(seconds_from_ps(now_ps)), now_ps};
}

void entropy_engine::feedback(uint32_t slot, uint16_t entropy, path_feedback f, uint64_t now_ps)
{
    m_policies[slot]->feedback(entropy, f, seconds_from_ps(now_ps));
}

}  // namespace uetsim
