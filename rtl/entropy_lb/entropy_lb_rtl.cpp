// Verilated headers first (STYLE.md P13).
#include "Ventropy_lb.h"
#include "rtl/verilated_includes.h"

#include "rtl/entropy_lb/entropy_lb_block.h"
#include "rtl/entropy_lb/entropy_lb_rtl.h"

#include <stdexcept>

namespace uetsim {

std::string entropy_lb_mismatch::text() const
{
    return "RTL mismatch in " + component + " at " + std::to_string(time_ps) + " ps, request #" +
           std::to_string(request_index) + ": " + request + "\n  model: " + model +
           "\n  rtl:   " + rtl;
}

entropy_lb_rtl::entropy_lb_rtl(std::string component, uint32_t contexts, rtl_mode mode,
                               uint64_t nic_cycle_ps)
    : entropy_lb_rtl(std::move(component), contexts, mode, nic_cycle_ps,
                     std::make_unique<entropy_lb_block<Ventropy_lb>>())
{
}

entropy_lb_rtl::entropy_lb_rtl(std::string component, uint32_t contexts, rtl_mode mode,
                               uint64_t nic_cycle_ps, std::unique_ptr<entropy_lb_port> block)
    : entropy_engine(contexts)
    , m_component(std::move(component))
    , m_mode(mode)
    , m_nic_cycle_ps(nic_cycle_ps)
    , m_block(std::move(block))
    , m_latency(m_block->latency_cycles())
    , m_limits(m_block->limits())
{
    if (mode == rtl_mode::model)
        throw std::invalid_argument("entropy_lb_rtl: mode model needs no RTL engine");
    if (contexts > m_limits.contexts)
        throw std::invalid_argument(
            "UetNic.EntropyContexts " + std::to_string(contexts) +
            " is beyond the RTL entropy load balancer's " + std::to_string(m_limits.contexts) +
            " context slots (Rtl.EntropyLoadBalancer: " + (mode == rtl_mode::rtl ? "rtl" : "both") +
            "); allowed: 1 to " + std::to_string(m_limits.contexts));
}

entropy_lb_rtl::~entropy_lb_rtl() = default;

uint64_t entropy_lb_rtl::cycles() const
{
    return m_block->cycles();
}

entropy_lb_response entropy_lb_rtl::transact(const entropy_lb_request& r)
{
    m_last_request = r;
    m_last_response = m_block->transact(r);
    ++m_requests;
    return m_last_response;
}

void entropy_lb_rtl::compare(const entropy_lb_request& r, const entropy_lb_response& model,
                             const entropy_lb_response& rtl)
{
    if (m_mode != rtl_mode::both || m_diverged) return;
    const uint64_t index = m_checked++;
    if (model == rtl) return;
    m_diverged = true;
    entropy_lb_mismatch mm{r.now_ps,    m_component,     index,
                           describe(r), describe(model), describe(rtl)};
    if (m_on_mismatch)
        m_on_mismatch(mm);
    else
        throw std::runtime_error(mm.text());
}

void entropy_lb_rtl::on_open(uint32_t slot, const entropy_config& cfg, uint64_t seed)
{
    if (auto e = entropy_lb_limit_error(m_limits, slot, cfg)) throw std::invalid_argument(*e);
    entropy_lb_request r = entropy_lb_open_request(uint16_t(slot), cfg, seed);
    const entropy_lb_response rtl = transact(r);
    compare(r, entropy_lb_model_response(r, &model(slot), 0), rtl);
}

void entropy_lb_rtl::on_close(uint32_t slot)
{
    entropy_lb_request r;
    r.op = entropy_lb_op::close;
    r.slot = uint16_t(slot);
    const entropy_lb_response rtl = transact(r);
    compare(r, entropy_lb_model_response(r, nullptr, 0), rtl);
}

entropy_answer entropy_lb_rtl::next(uint32_t slot, uint64_t now_ps)
{
    // The model runs in both modes: the observers read its state.
    const entropy_answer model_answer = entropy_engine::next(slot, now_ps);
    entropy_lb_request r;
    r.op = entropy_lb_op::next;
    r.slot = uint16_t(slot);
    r.now_ps = now_ps;
    const entropy_lb_response rtl = transact(r);
    compare(r, entropy_lb_model_response(r, &policy(slot), model_answer.value), rtl);
    if (m_mode == rtl_mode::both) return model_answer;
    return {rtl.value, now_ps + uint64_t(m_latency) * m_nic_cycle_ps};
}

void entropy_lb_rtl::feedback(uint32_t slot, uint16_t entropy, path_feedback f, uint64_t now_ps)
{
    entropy_engine::feedback(slot, entropy, f, now_ps);
    entropy_lb_request r;
    r.op = entropy_lb_op::feedback;
    r.slot = uint16_t(slot);
    r.entropy = entropy;
    r.feedback = uint8_t(f);
    r.now_ps = now_ps;
    const entropy_lb_response rtl = transact(r);
    compare(r, entropy_lb_model_response(r, &policy(slot), 0), rtl);
}

}  // namespace uetsim
