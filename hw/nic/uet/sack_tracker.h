// The receiver's SACK tracker as an engine with a fixed number of context slots, shaped like the
// hardware: the NIC owns one from construction, each receiving PDC opens a slot when its first
// packet arrives and closes it when the receiving end is dropped; data packets update the slot
// and each ACK takes its CACK, SACK base and bitmap from it. This base class is the C++ model,
// one pdc_receiver per slot unchanged; an RTL tracker derives from it and overrides the
// virtuals. Kernel-free.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

#include "hw/nic/uet/pdc_receiver.h"

namespace uetsim {

struct sack_arrival
{
    pdc_receiver::arrival kind;  // in_order / out_of_order / duplicate
    uint32_t cack;               // cumulative ACK PSN after this packet
};

struct sack_ack_fields
{
    uint32_t cack;         // cumulative ACK PSN
    uint32_t sack_base;    // first PSN bit 0 of the bitmap stands for
    uint64_t sack_bitmap;  // bit i: PSN sack_base + i received
};

// The receiver's SACK tracker: a fixed number of context slots, one per receiving PDC
// (UetNic.SackContexts). This base class is the C++ model (one pdc_receiver per slot).
class sack_tracker
{
public:
    explicit sack_tracker(uint32_t contexts);
    virtual ~sack_tracker();
    uint32_t contexts() const { return m_contexts; }
    uint32_t in_use() const { return m_in_use; }
    // The most slots in use at once so far.
    uint32_t max_in_use() const { return m_max_in_use; }
    std::optional<uint32_t> open(uint32_t first_psn);  // lowest free slot
    void close(uint32_t slot);
    virtual sack_arrival on_data(uint32_t slot, uint32_t psn);
    // The fields of the next ACK of this PDC (advances the SACK block walk, as
    // pdc_receiver::next_sack does).
    virtual sack_ack_fields next_ack(uint32_t slot);
    const pdc_receiver& receiver(uint32_t slot) const  // the model's state (counters)
    {
        return *m_receivers[slot];
    }

protected:
    virtual void on_open(uint32_t slot, uint32_t first_psn) {}
    virtual void on_close(uint32_t slot) {}

private:
    uint32_t m_contexts;
    uint32_t m_in_use = 0;
    uint32_t m_max_in_use = 0;
    // Storage grows with the highest slot used, not with the capacity. Null: a free slot.
    std::vector<std::unique_ptr<pdc_receiver>> m_receivers;
    // Freed slots below m_receivers.size(), lowest first.
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> m_free;
};

}  // namespace uetsim
