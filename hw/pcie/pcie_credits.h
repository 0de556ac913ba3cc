// Transaction-layer flow control of one direction of a PCIe link (PCIe Base Specification,
// "Flow Control"): the receiver advertises, per TLP type, header credits (one per TLP) and data
// credits (16 bytes each); the transmitter starts a TLP only when the receiver's credits cover
// it, and the receiver returns the credits a fixed time after the TLP has arrived. An advertised
// limit of 0 means infinite, as in the specification's InitFC encoding. Pure logic.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "hw/common/ring.h"

namespace uetsim {

enum class pcie_tlp_type : uint8_t {
    posted,      // memory writes: DMA writes into host memory, MMIO writes into the NIC's BAR
    non_posted,  // memory read requests
    completion,  // completions with data, answering read requests
};
inline constexpr int k_pcie_tlp_types = 3;
inline constexpr uint32_t k_pcie_credit_bytes = 16;  // one data credit: four DW

// Data credits one TLP of `payload` bytes takes: a zero-length write still carries one DW.
inline uint32_t pcie_data_credits(uint32_t payload)
{
    return std::max<uint32_t>(1, (payload + k_pcie_credit_bytes - 1) / k_pcie_credit_bytes);
}

// Header and data credits one receiver advertises for one TLP type (0: infinite).
struct pcie_credit_limits
{
    uint32_t header = 0;
    uint32_t data = 0;
};

// One receiver's credits of one TLP type. Calls come in time order: acquire() with
// non-decreasing times, release() with non-decreasing times, as a FIFO link sends them.
class pcie_credit_pool
{
public:
    explicit pcie_credit_pool(pcie_credit_limits l = {})
        : m_limits(l), m_free_header(l.header), m_free_data(l.data)
    {
    }

    bool header_infinite() const { return m_limits.header == 0; }
    bool data_infinite() const { return m_limits.data == 0; }
    bool infinite() const { return header_infinite() && data_infinite(); }
    const pcie_credit_limits& limits() const { return m_limits; }

    // Whether a TLP taking `header` and `data` credits can ever be sent.
    bool fits(uint32_t header, uint32_t data) const
    {
        return (header_infinite() || header <= m_limits.header) &&
               (data_infinite() || data <= m_limits.data);
    }

    // Takes the credits of a TLP that would start at `at_ps`; returns when they are free (at_ps,
    // or later if it must wait for returns). The TLP must fit().
    uint64_t acquire(uint64_t at_ps, uint32_t header, uint32_t data)
    {
        if (header_infinite()) header = 0;
        if (data_infinite()) data = 0;
        uint64_t t = at_ps;
        while (!m_returns.empty() &&
               (m_returns.front().at_ps <= t || m_free_header < header || m_free_data < data)) {
            const pending& r = m_returns.front();
            t = std::max(t, r.at_ps);
            m_free_header += r.header;
            m_free_data += r.data;
            m_returns.pop_front();
        }
        m_free_header -= header;
        m_free_data -= data;
        return t;
    }

    // Gives back, at `at_ps`, the credits of a TLP acquired before.
    void release(uint64_t at_ps, uint32_t header, uint32_t data)
    {
        if (header_infinite()) header = 0;
        if (data_infinite()) data = 0;
        if (header || data) m_returns.push_back({at_ps, header, data});
    }

    // Credits free at the last acquire's time (infinite ones read as their limit, 0).
    uint32_t free_header() const { return m_free_header; }
    uint32_t free_data() const { return m_free_data; }

private:
    struct pending
    {
        uint64_t at_ps;
        uint32_t header;
        uint32_t data;
    };

    pcie_credit_limits m_limits;
    uint32_t m_free_header;
    uint32_t m_free_data;
    ring<pending> m_returns;  // allocated at the first return (a deque takes 576 B at once)
};

}  // namespace uetsim
