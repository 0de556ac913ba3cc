// Verilated headers first (STYLE.md P13).
#include "Ventropy_lb.h"
#include "rtl/entropy_lb/entropy_lb_block.h"

#include "rtl/entropy_lb/entropy_lb_rtl.h"

#include <stdexcept>

namespace uetsim {

namespace {

std::string describe_request(const entropy_lb_request& r)
{
    return describe(r);
}
std::string describe_response(const entropy_lb_response& r)
{
    return describe(r);
}

}  // namespace

entropy_lb_rtl::entropy_lb_rtl(std::string component, uint32_t contexts, rtl_mode mode,
                               uint64_t nic_cycle_ps)
    : entropy_lb_rtl(component, contexts, mode, nic_cycle_ps,
                     std::make_unique<entropy_lb_block<Ventropy_lb>>(component))
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
    , m_checker(m_component, describe_request, describe_response)
{
    if (!uses_rtl(mode))
        throw std::invalid_argument("entropy_lb_rtl: mode model needs no RTL engine");
    if (contexts > m_limits.contexts)
        throw std::invalid_argument(
            "UetNic.EntropyContexts " + std::to_string(contexts) +
            " is beyond the RTL entropy load balancer's " + std::to_string(m_limits.contexts) +
            " context slots (Rtl.EntropyLoadBalancer: " + std::string(to_string(mode)) +
            "); allowed: 1 to " + std::to_string(m_limits.contexts));
}

entropy_lb_rtl::~entropy_lb_rtl() = default;

uint64_t entropy_lb_rtl::cycles() const
{
    return m_block->cycles();
}

rtl_pin_set& entropy_lb_rtl::pins()
{
    return m_block->pins();
}

void entropy_lb_rtl::open_fst(const std::string& path)
{
    m_block->open_fst(path);
}

void entropy_lb_rtl::exchange(const entropy_lb_request& r, const entropy_lb_response& model,
                              entropy_lb_response* rtl_out)
{
    const entropy_lb_response rtl = m_block->transact(r);
    ++m_requests;
    if (m_mode == rtl_mode::both) m_checker.check(r, model, rtl);
    if (rtl_out) *rtl_out = rtl;
}

void entropy_lb_rtl::on_open(uint32_t slot, const entropy_config& cfg, uint64_t seed)
{
    if (auto e = entropy_lb_limit_error(m_limits, slot, cfg)) throw std::invalid_argument(*e);
    const entropy_lb_request r = entropy_lb_open_request(uint16_t(slot), cfg, seed);
    exchange(r, entropy_lb_model_response(r, &model(slot), 0));
}

void entropy_lb_rtl::on_close(uint32_t slot)
{
    entropy_lb_request r;
    r.op = entropy_lb_op::close;
    r.slot = uint16_t(slot);
    exchange(r, entropy_lb_model_response(r, nullptr, 0));
}

entropy_answer entropy_lb_rtl::next(uint32_t slot, uint64_t now_ps)
{
    // The model runs in both modes: the observers read its state.
    const entropy_answer model_answer = entropy_engine::next(slot, now_ps);
    entropy_lb_request r;
    r.op = entropy_lb_op::next;
    r.slot = uint16_t(slot);
    r.now_ps = now_ps;
    entropy_lb_response rtl;
    exchange(r, entropy_lb_model_response(r, &policy(slot), model_answer.value), &rtl);
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
    exchange(r, entropy_lb_model_response(r, &policy(slot), 0));
}

}  // namespace uetsim
