// The receiving end of a PDC: which PSNs have arrived, the cumulative ACK, the 64-PSN selective
// ACK bitmap, and the out-of-order and duplicate counts (RUD: every new packet is delivered at
// once, so this only tracks order). Pure logic.
#pragma once

#include <cstdint>
#include <vector>

namespace uetsim {

class pdc_receiver
{
public:
    static constexpr uint32_t sack_bits = 64;

    explicit pdc_receiver(uint32_t first_psn) : m_expected(first_psn) {}

    enum class arrival { in_order, out_of_order, duplicate };
    arrival on_data(uint32_t psn);

    // Highest PSN received in order (the PSN before the next expected one).
    uint32_t cack() const { return m_expected - 1; }
    uint32_t expected() const { return m_expected; }

    struct sack
    {
        uint32_t base;    // first PSN bit 0 stands for
        uint64_t bitmap;  // bit i: PSN base + i received
    };
    // The selective ACK for the next ACK: successive ACKs walk the 64-PSN blocks beyond the
    // cumulative ACK that hold received packets, one block per ACK, then start over.
    sack next_sack();

    // Packets held beyond the cumulative ACK right now.
    uint32_t out_of_order_held() const { return m_held; }
    uint64_t out_of_order_events() const { return m_ooo_events; }
    uint64_t duplicates() const { return m_dups; }
    uint32_t max_out_of_order_held() const { return m_max_held; }
    // Offsets from the expected PSN below this may be received (one past the farthest held):
    // the 64-PSN SACK blocks of the walk are those within it. The RTL tracker reports it too.
    uint32_t span() const { return m_span; }

private:
    bool received_beyond(uint32_t offset) const;  // offset from m_expected
    void set_beyond(uint32_t offset);
    void advance();

    uint32_t m_expected;
    // Bit i of the window: PSN m_expected + i received (bit 0 is always clear).
    std::vector<uint64_t> m_window;
    uint32_t m_span = 0;  // offsets below this may be set
    uint32_t m_held = 0;
    uint32_t m_max_held = 0;
    uint64_t m_ooo_events = 0;
    uint64_t m_dups = 0;
    uint32_t m_block = 0;
};

}  // namespace uetsim
