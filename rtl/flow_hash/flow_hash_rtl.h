// rtl_flow_hasher: the SystemC side of the flow_hash RTL block (rtl/flow_hash/flow_hash.sv).
//
// It owns the Verilated model (Vflow_hash) and the signals bound to its pins, and is the seam
// through which the switch can use the RTL in place of (or beside) uetsim::flow_hash16:
//
//  - evaluate(): blocking, from an SC_THREAD. Drives the pins, lets the block settle and returns
//    its hash. Costs delta cycles only, no simulated time, so swapping the RTL in does not move
//    any packet in time.
//  - check(): non-blocking, callable from SC_METHODs (the switch's hot paths are methods). Queues
//    (inputs, the C++ model's answer); the RTL evaluates queued keys in the following delta
//    cycles, in order, and the first mismatch is reported with SC_REPORT_ERROR naming the time,
//    the inputs and both outputs (ARCHITECTURE.md: an RTL block runs in lockstep with its model).
//
// The block is combinational: one key takes two delta cycles (pins update -> the model's eval
// method runs and writes `hash` -> hash updates). Keys are served one at a time.
//
// This header does not include Verilator headers (the model is held through a pointer), so any
// target can include it.
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "hw/common/state_probe.h"
#include "hw/switch/flow_hash.h"

class Vflow_hash;
class VerilatedFstSc;

namespace uetsim {

// The block's pins as the transactor last drove them, and its output for them.
struct rtl_flow_hash_pins
{
    uint32_t method = 0;    // 3 bits
    uint32_t protocol = 0;  // 8
    uint32_t src_ip = 0;    // 32
    uint32_t dst_ip = 0;    // 32
    uint32_t src_port = 0;  // 16
    uint32_t dst_port = 0;  // 16
    uint32_t salt = 0;      // 32
    uint32_t hash = 0;      // 16, output
};

struct rtl_flow_hasher_cfg
{
    // Non-empty: dump the block's pins and internals to this FST file (gtkwave; docs/rtl.md).
    // FST keeps one value per signal per simulated time step: several keys evaluated in delta
    // cycles of the same time show as the last one. Closed at end_of_simulation.
    std::string fst_path;
    int fst_levels = 99;
};

class rtl_flow_hasher : public sc_core::sc_module
{
public:
    explicit rtl_flow_hasher(const sc_core::sc_module_name& nm,
                             const rtl_flow_hasher_cfg& cfg = {});
    ~rtl_flow_hasher() override;

    // From an SC_THREAD only. Waits until earlier queued keys are done.
    uint16_t evaluate(ecmp_hash_method m, const flow_key& k, uint32_t salt);

    // From anywhere during simulation. `model_hash` is what uetsim::flow_hash16 returned.
    void check(ecmp_hash_method m, const flow_key& k, uint32_t salt, uint16_t model_hash);

    uint64_t evaluations() const { return m_evaluations; }  // keys through the RTL
    uint64_t checks() const { return m_checks; }            // of which lockstep checks
    uint64_t mismatches() const { return m_mismatches; }
    size_t pending() const { return m_queue.size() + (m_phase == phase::idle ? 0 : 1); }

    // The pins now: after a key settled, its inputs and the block's hash.
    rtl_flow_hash_pins pins() const;
    // Waveforms (Trace.*): changed() after each key has settled, before a mismatch is reported;
    // null (the default) costs one branch per key.
    void set_probe(state_probe* p) { m_probe = p; }

    // The Verilated model, e.g. to add it to a shared trace file (after sc_start(SC_ZERO_TIME)).
    Vflow_hash& model() { return *m_dut; }

private:
    struct request
    {
        ecmp_hash_method method;
        flow_key key;
        uint32_t salt;
        uint16_t model_hash;  // for checks
        bool is_check;
        uint16_t* result;  // for evaluate(): where to put the RTL's hash
        bool* done;
    };
    enum class phase { idle, settle, sample };

    void start_of_simulation() override;  // opens the FST (needs elaboration done)
    void end_of_simulation() override;    // closes it (sc_stop or the end of sc_start)
    void drive_method();                  // SC_METHOD: the little transactor, pins in and out
    void start(const request& r);
    void finish(const request& r, uint16_t rtl_hash);

    rtl_flow_hasher_cfg m_cfg;

    sc_core::sc_signal<uint32_t> m_method{"method"};
    sc_core::sc_signal<uint32_t> m_protocol{"protocol"};
    sc_core::sc_signal<uint32_t> m_src_ip{"src_ip"};
    sc_core::sc_signal<uint32_t> m_dst_ip{"dst_ip"};
    sc_core::sc_signal<uint32_t> m_src_port{"src_port"};
    sc_core::sc_signal<uint32_t> m_dst_port{"dst_port"};
    sc_core::sc_signal<uint32_t> m_salt{"salt"};
    sc_core::sc_signal<uint32_t> m_hash{"hash"};
    std::unique_ptr<Vflow_hash> m_dut;
    std::unique_ptr<VerilatedFstSc> m_fst;

    std::deque<request> m_queue;
    request m_current{};
    phase m_phase = phase::idle;
    sc_core::sc_event m_kick;  // a key was queued while idle
    sc_core::sc_event m_done;  // a key finished (wakes evaluate())

    state_probe* m_probe = nullptr;
    uint64_t m_evaluations = 0;
    uint64_t m_checks = 0;
    uint64_t m_mismatches = 0;
};

}  // namespace uetsim
