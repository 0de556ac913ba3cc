// lockstep_checker<Req, Resp>: the RTL beside its C++ model (rtl_mode::both).
//
//   lockstep_checker<hash_req, uint16_t> chk("leaf0.flow_hash", describe_req, describe_hash);
//   chk.expect(req, model_answer);   // in request order, when the model answers
//   chk.observe(rtl_answer);         // when the RTL answers: compared with the oldest expected
//   // or, when both answers are at hand at once: chk.check(req, model_answer, rtl_answer);
//
// A difference (Resp::operator== false), or an RTL answer with nothing expected, builds an
// rtl_mismatch {time_ps, component, request_index, request, model, rtl} with the describe
// functions and hands it to the process-wide handler (rtl_mismatch.h). checked() counts the
// answers compared, mismatches() those that differed.
//
// "Phases" (docs/rtl.md): blocks are stepped synchronously inside the calling SystemC process
// (C++-mode Verilation, RTL_DESIGN D1), so one request is drive -> step -> sample within one
// call at one simulated time, and the checker needs no delta-cycle machinery: the queue only
// decouples when the model answers from when the RTL answers (a pipelined block, or an engine
// whose model answer comes first).
//
// time_ps is the model's time, sim_now_ps() (docs/time-base.md), 0 before a simulation. The
// header includes no SystemC or Verilator header, so it can go anywhere in the include order.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <utility>

#include "rtl/common/rtl_kernel.h"
#include "rtl/common/rtl_mismatch.h"

namespace uetsim {

template <class Req, class Resp>
class lockstep_checker
{
public:
    using describe_req = std::function<std::string(const Req&)>;
    using describe_resp = std::function<std::string(const Resp&)>;

    lockstep_checker(std::string component, describe_req dreq, describe_resp dresp)
        : m_component(std::move(component)), m_dreq(std::move(dreq)), m_dresp(std::move(dresp))
    {
    }

    const std::string& component() const { return m_component; }

    // The model answered `model` for `req` (queued in order).
    void expect(const Req& req, const Resp& model) { m_queue.push_back({req, model}); }

    // The RTL answered `rtl` for the oldest expected request. Returns true when they agree.
    bool observe(const Resp& rtl)
    {
        if (m_queue.empty()) {
            ++m_mismatches;
            rtl_mismatch m;
            m.time_ps = now_ps();
            m.component = m_component;
            m.request_index = m_checked;
            m.request = "(none outstanding)";
            m.model = "(no answer expected)";
            m.rtl = m_dresp(rtl);
            report_rtl_mismatch(m);
            return false;
        }
        const entry e = std::move(m_queue.front());
        m_queue.pop_front();
        const uint64_t index = m_checked++;
        if (e.model == rtl) return true;
        ++m_mismatches;
        rtl_mismatch m;
        m.time_ps = now_ps();
        m.component = m_component;
        m.request_index = index;
        m.request = m_dreq(e.req);
        m.model = m_dresp(e.model);
        m.rtl = m_dresp(rtl);
        report_rtl_mismatch(m);
        return false;
    }

    // expect() and observe() at once, for a block that answers within the call.
    bool check(const Req& req, const Resp& model, const Resp& rtl)
    {
        expect(req, model);
        return observe(rtl);
    }

    uint64_t checked() const { return m_checked; }        // answers compared
    uint64_t mismatches() const { return m_mismatches; }  // of which differed (or unexpected)
    size_t pending() const { return m_queue.size(); }     // expected, not yet observed

private:
    struct entry
    {
        Req req;
        Resp model;
    };

    static uint64_t now_ps() { return rtl_sim_time_ps(); }

    std::string m_component;
    describe_req m_dreq;
    describe_resp m_dresp;
    std::deque<entry> m_queue;
    uint64_t m_checked = 0;
    uint64_t m_mismatches = 0;
};

}  // namespace uetsim
