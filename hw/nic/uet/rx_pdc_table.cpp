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
        const std::optional<uint32_t> slot = m_sacks.open(first_psn);
        if (!slot) {
            if (what) *what = rx_end::no_context;
            return nullptr;
        }
        it =
            m_pdcs.emplace(k, std::make_unique<receiver_pdc>(m_next_id, first_psn, src_host, *slot))
                .first;
        m_next_id = m_next_id == last_id ? first_id : uint16_t(m_next_id + 1);
        how = rx_end::opened;
    }
    if (what) *what = how;
    return it->second.get();
}

}  // namespace uetsim
