// The Verilated headers come first (STYLE.md P13): Vflow_hash.h pulls in "systemc.h".
#include "Vflow_hash.h"
#include "rtl/verilated_includes.h"

#include "rtl/flow_hash/flow_hash_rtl.h"

#include <cstdio>
#include <sstream>

namespace uetsim {

namespace {

std::string describe(ecmp_hash_method m, const flow_key& k, uint32_t salt)
{
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "method=%u (%s) protocol=%u src_ip=0x%08x dst_ip=0x%08x src_port=%u dst_port=%u "
                  "salt=0x%08x",
                  unsigned(m), std::string(to_string(m)).c_str(), unsigned(k.protocol), k.src_ip,
                  k.dst_ip, unsigned(k.src_port), unsigned(k.dst_port), salt);
    return buf;
}

}  // namespace

rtl_flow_hasher::rtl_flow_hasher(const sc_core::sc_module_name& nm, const rtl_flow_hasher_cfg& cfg)
    : sc_core::sc_module(nm), m_cfg(cfg)
{
    SC_HAS_PROCESS(rtl_flow_hasher);
    // Tracing must be enabled before the model is built and before time 0 (Verilator).
    if (!m_cfg.fst_path.empty()) Verilated::traceEverOn(true);
    m_dut = std::make_unique<Vflow_hash>("rtl");
    m_dut->method(m_method);
    m_dut->protocol(m_protocol);
    m_dut->src_ip(m_src_ip);
    m_dut->dst_ip(m_dst_ip);
    m_dut->src_port(m_src_port);
    m_dut->dst_port(m_dst_port);
    m_dut->salt(m_salt);
    m_dut->hash(m_hash);

    SC_METHOD(drive_method);
    sensitive << m_kick;
    dont_initialize();
}

rtl_flow_hasher::~rtl_flow_hasher()
{
    if (m_fst) m_fst->close();
}

void rtl_flow_hasher::start_of_simulation()
{
    // Verilator's order: elaboration done -> model.trace() -> open() (STYLE.md §4.10).
    if (m_cfg.fst_path.empty()) return;
    m_fst = std::make_unique<VerilatedFstSc>();
    m_dut->trace(m_fst.get(), m_cfg.fst_levels);
    m_fst->open(m_cfg.fst_path.c_str());
}

void rtl_flow_hasher::end_of_simulation()
{
    m_dut->final();  // runs `final` blocks; none today, but a block may grow some
    if (m_fst) m_fst->close();
}

uint16_t rtl_flow_hasher::evaluate(ecmp_hash_method m, const flow_key& k, uint32_t salt)
{
    uint16_t result = 0;
    bool done = false;
    m_queue.push_back(request{m, k, salt, 0, false, &result, &done});
    if (m_phase == phase::idle && m_queue.size() == 1) m_kick.notify(sc_core::SC_ZERO_TIME);
    while (!done) sc_core::wait(m_done);
    return result;
}

void rtl_flow_hasher::check(ecmp_hash_method m, const flow_key& k, uint32_t salt,
                            uint16_t model_hash)
{
    m_queue.push_back(request{m, k, salt, model_hash, true, nullptr, nullptr});
    if (m_phase == phase::idle && m_queue.size() == 1) m_kick.notify(sc_core::SC_ZERO_TIME);
}

void rtl_flow_hasher::start(const request& r)
{
    m_current = r;
    m_method.write(static_cast<uint32_t>(r.method));
    m_protocol.write(r.key.protocol);
    m_src_ip.write(r.key.src_ip);
    m_dst_ip.write(r.key.dst_ip);
    m_src_port.write(r.key.src_port);
    m_dst_port.write(r.key.dst_port);
    m_salt.write(r.salt);
}

rtl_flow_hash_pins rtl_flow_hasher::pins() const
{
    return {m_method.read(),   m_protocol.read(), m_src_ip.read(), m_dst_ip.read(),
            m_src_port.read(), m_dst_port.read(), m_salt.read(),   m_hash.read()};
}

void rtl_flow_hasher::finish(const request& r, uint16_t rtl_hash)
{
    ++m_evaluations;
    if (m_probe) m_probe->changed();
    if (!r.is_check) {
        *r.result = rtl_hash;
        *r.done = true;
        m_done.notify();  // immediate: the waiting thread runs in this evaluation phase
        return;
    }
    ++m_checks;
    if (rtl_hash == r.model_hash) return;
    ++m_mismatches;
    std::ostringstream msg;
    msg << "flow_hash RTL/model mismatch at " << sc_core::sc_time_stamp() << ": "
        << describe(r.method, r.key, r.salt) << " model=0x" << std::hex << r.model_hash << " rtl=0x"
        << rtl_hash;
    SC_REPORT_ERROR("/uetsim/rtl/flow_hash", msg.str().c_str());
}

// Two delta cycles per key: in delta d the pins are written; in d+1 the model's eval method
// (sensitive to every input) runs and writes `hash`; in d+2 `hash` holds the answer.
void rtl_flow_hasher::drive_method()
{
    switch (m_phase) {
        case phase::settle:
            m_phase = phase::sample;
            next_trigger(sc_core::SC_ZERO_TIME);
            return;
        case phase::sample: {
            const request r = m_current;
            m_phase = phase::idle;
            finish(r, static_cast<uint16_t>(m_hash.read()));
            break;
        }
        case phase::idle:
            break;
    }
    if (m_queue.empty()) return;  // back to the static sensitivity: m_kick
    start(m_queue.front());
    m_queue.pop_front();
    m_phase = phase::settle;
    next_trigger(sc_core::SC_ZERO_TIME);
}

}  // namespace uetsim
