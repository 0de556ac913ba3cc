#include "hw/nic/uet/rx_pdc_table.h"

namespace uetsim {

receiver_pdc* rx_pdc_table::on_data(uint32_t src_host, uint16_t spdcid, uint32_t first_psn,
                                    bool syn, rx_end* what)
{
    rx_end how = rx_end::found;
    const uint64_t k = key(src_host, spdcid);
    auto it = m_pdcs.find(k);
    if (it != m_pdcs.end() && it->second->first_psn != first_psn) {
        if (!syn) {
            if (what) *what = rx_end::late_copy;
            return nullptr;
        }
        // A sender reuses an id only once every byte was acknowledged, so the earlier end is
        // closed; should it not be, it stops counting as open. Its SACK slot is free first, so
        // a reopen never runs out.
        if (it->second->open()) close_one(src_host);
        m_sacks.close(it->second->sack_slot);
        m_pdcs.erase(it);
        it = m_pdcs.end();
    }
    if (it == m_pdcs.end()) {
        if (__builtin_expect(m_handshake && !syn, 0)) {
            if (what) *what = rx_end::unknown;
            return nullptr;
        }
        const std::optional<uint32_t> slot = m_sacks.open(first_psn);
        if (!slot) {
            if (what) *what = rx_end::no_context;
            return nullptr;
        }
        it =
            m_pdcs.emplace(k, std::make_unique<receiver_pdc>(m_next_id, first_psn, src_host, *slot))
                .first;
        it->second->sender_id = spdcid;
        m_next_id = m_next_id == last_id ? first_id : uint16_t(m_next_id + 1);
        how = rx_end::opened;
    }
    if (what) *what = how;
    return it->second.get();
}

std::unique_ptr<receiver_pdc> rx_pdc_table::close(uint32_t src_host, uint16_t spdcid,
                                                  uint32_t first_psn)
{
    auto it = m_pdcs.find(key(src_host, spdcid));
    if (it == m_pdcs.end() || it->second->first_psn != first_psn) return nullptr;
    std::unique_ptr<receiver_pdc> rp = std::move(it->second);
    m_pdcs.erase(it);
    // The initiator closes once every byte is acknowledged, so the end is not open; should it
    // be, it stops counting as open.
    if (rp->open()) close_one(src_host);
    m_sacks.close(rp->sack_slot);
    return rp;
}

receiver_pdc* rx_pdc_table::idle_end_to_close()
{
    for (auto& [k, rp] : m_pdcs)
        if (!rp->open() && !rp->close_requested) {
            rp->close_requested = true;
            return rp.get();
        }
    return nullptr;
}

}  // namespace uetsim
