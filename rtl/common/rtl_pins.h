// Named pins of a Verilated block for the run's waveform (Trace.*). Part of the valid/ready
// bundle (valid_ready.h includes it); a header of its own because it includes no Verilator
// header, so wrapper headers that the testbench includes can hand out an rtl_pin_set.
//
// rtl_pin {name, width, pointer}: one port of the Verilated model (Verilator's C++ ports are
// CData/SData/IData/QData members; widths up to 64 bits). rtl_pin_set::trace(p) hands the set a
// state_probe (hw/common/state_probe.h) that the testbench's waveform layer builds from pins():
// the wrapper calls changed() after each request has settled, and the probe writes every pin as
// {device}.rtl.{pin} (leaf0.rtl.hash). Null probe (the default): one branch per request.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "hw/common/state_probe.h"

namespace uetsim {

struct rtl_pin
{
    std::string name;    // as in the .sv (req_psn, rsp_hash, hash)
    unsigned width = 1;  // bits, 1..64
    const void* data = nullptr;
    unsigned bytes = 1;  // sizeof the Verilator port type

    rtl_pin() = default;
    template <class T>
    rtl_pin(std::string n, unsigned w, const T* p)
        : name(std::move(n)), width(w), data(p), bytes(sizeof(T))
    {
        static_assert(sizeof(T) <= 8, "pins wider than 64 bits are not traced");
    }

    uint64_t value() const
    {
        uint64_t v = 0;
        std::memcpy(&v, data, bytes);  // little endian, as Verilator's port types
        return width >= 64 ? v : v & ((uint64_t(1) << width) - 1);
    }
};

class rtl_pin_set
{
public:
    void add(rtl_pin p) { m_pins.push_back(std::move(p)); }
    template <class T>
    void add(std::string name, unsigned width, const T& port)
    {
        m_pins.emplace_back(std::move(name), width, &port);
    }
    const std::vector<rtl_pin>& pins() const { return m_pins; }

    // The run's waveform (Trace.*): a probe reading pins(), or null to detach.
    void trace(state_probe* p) { m_probe = p; }
    state_probe* probe() const { return m_probe; }
    // After a request has settled (and before its answer is checked, so the waves show it).
    void changed() const
    {
        if (m_probe) m_probe->changed();
    }

private:
    std::vector<rtl_pin> m_pins;
    state_probe* m_probe = nullptr;
};

}  // namespace uetsim
