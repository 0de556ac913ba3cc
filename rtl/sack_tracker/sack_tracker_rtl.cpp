// Verilated headers first (STYLE.md P13, rtl/verilated_includes.h).
#include "Vsack_tracker.h"
#include "rtl/sack_tracker/sack_tracker_block.h"

#include "rtl/sack_tracker/sack_tracker_rtl.h"

#include <cstdio>
#include <stdexcept>

namespace uetsim {

namespace {

const char* op_name(sack_tracker_request::op o)
{
    switch (o) {
        case sack_tracker_request::op::open:
            return "open";
        case sack_tracker_request::op::data:
            return "data";
        case sack_tracker_request::op::ack:
            return "ack";
        case sack_tracker_request::op::close:
            return "close";
    }
    return "?";
}

const char* arrival_name(uint8_t a)
{
    switch (a) {
        case 0:
            return "in_order";
        case 1:
            return "out_of_order";
        case 2:
            return "duplicate";
    }
    return "?";
}

}  // namespace

std::string describe(const sack_tracker_request& r)
{
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s slot=%u psn=0x%08x (%u)", op_name(r.kind), r.slot, r.psn,
                  r.psn);
    return buf;
}

std::string describe(const sack_tracker_response& r)
{
    char buf[224];
    std::snprintf(buf, sizeof buf,
                  "arrival=%u (%s) cack=0x%08x sack_base=0x%08x sack_bitmap=0x%016llx held=%u "
                  "span=%u out_of_window=%u slot_error=%u",
                  unsigned(r.arrival), arrival_name(r.arrival), r.cack, r.sack_base,
                  static_cast<unsigned long long>(r.sack_bitmap), r.held, r.span,
                  unsigned(r.out_of_window), unsigned(r.slot_error));
    return buf;
}

std::unique_ptr<rtl_sack_tracker_core> make_rtl_sack_tracker_core(const std::string& name)
{
    return std::make_unique<sack_tracker_block<Vsack_tracker>>(name);
}

sack_tracker_rtl::sack_tracker_rtl(const std::string& component, uint32_t contexts, rtl_mode mode,
                                   std::unique_ptr<rtl_sack_tracker_core> core)
    : sack_tracker(contexts)
    , m_mode(mode)
    , m_core(core ? std::move(core) : make_rtl_sack_tracker_core(component))
    , m_checker(
          component, [](const sack_tracker_request& r) { return describe(r); },
          [](const sack_tracker_response& r) { return describe(r); })
{
    if (!uses_rtl(mode))
        throw std::invalid_argument("sack_tracker_rtl: mode must be rtl or both, not model");
    if (contexts > m_core->contexts())
        throw std::invalid_argument(
            "UetNic.SackContexts: " + std::to_string(contexts) + " is above the SACK tracker " +
            "RTL's CONTEXTS (" + std::to_string(m_core->contexts()) + ", rtl/sack_tracker/" +
            "sack_tracker.sv) used by Rtl.SackTracker " + std::string(to_string(mode)) +
            "; allowed: 1.." + std::to_string(m_core->contexts()));
}

sack_tracker_rtl::~sack_tracker_rtl() = default;

sack_tracker_response sack_tracker_rtl::model_summary(uint32_t slot) const
{
    const pdc_receiver& r = receiver(slot);
    sack_tracker_response a;
    a.cack = r.cack();
    a.held = r.out_of_order_held();
    a.span = r.span();
    return a;
}

const sack_tracker_response& sack_tracker_rtl::run(const sack_tracker_request& r,
                                                   const sack_tracker_response& model,
                                                   uint32_t expected_before)
{
    m_last = m_core->transact(r);
    ++m_requests;
    if (m_last.slot_error)
        rtl_protocol_error(component() + ": the RTL refused " + describe(r) +
                           " (slot_error: slot not open, or at or above its CONTEXTS " +
                           std::to_string(m_core->contexts()) + ")");
    if (m_last.out_of_window)
        rtl_protocol_error(
            component() + ": " + describe(r) + " is " +
            std::to_string(uint32_t(r.psn - expected_before)) + " PSNs beyond the expected PSN " +
            std::to_string(expected_before) +
            "; the RTL tracks at most WINDOW = " + std::to_string(m_core->window()) +
            " PSNs beyond the CACK per PDC (rtl/sack_tracker/sack_tracker.sv); use "
            "Rtl.SackTracker: model for this scenario, or verilate it with a larger WINDOW");
    if (m_mode == rtl_mode::both) m_checker.check(r, model, m_last);
    return m_last;
}

void sack_tracker_rtl::on_open(uint32_t slot, uint32_t first_psn)
{
    run({sack_tracker_request::op::open, slot, first_psn}, model_summary(slot), first_psn);
}

void sack_tracker_rtl::on_close(uint32_t slot)
{
    // Called before the base class drops the slot's receiver: the RTL answers the state it closed.
    run({sack_tracker_request::op::close, slot, 0}, model_summary(slot), receiver(slot).expected());
}

sack_arrival sack_tracker_rtl::on_data(uint32_t slot, uint32_t psn)
{
    const uint32_t expected_before = receiver(slot).expected();
    const sack_arrival model = sack_tracker::on_data(slot, psn);
    sack_tracker_response want = model_summary(slot);
    want.arrival = static_cast<uint8_t>(model.kind);
    const sack_tracker_response& rtl =
        run({sack_tracker_request::op::data, slot, psn}, want, expected_before);
    if (m_mode == rtl_mode::both) return model;
    return {static_cast<pdc_receiver::arrival>(rtl.arrival), rtl.cack};
}

sack_ack_fields sack_tracker_rtl::next_ack(uint32_t slot)
{
    const sack_ack_fields model = sack_tracker::next_ack(slot);
    sack_tracker_response want = model_summary(slot);
    want.sack_base = model.sack_base;
    want.sack_bitmap = model.sack_bitmap;
    const sack_tracker_response& rtl =
        run({sack_tracker_request::op::ack, slot, 0}, want, want.cack + 1);
    if (m_mode == rtl_mode::both) return model;
    return {rtl.cack, rtl.sack_base, rtl.sack_bitmap};
}

}  // namespace uetsim
