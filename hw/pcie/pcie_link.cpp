#include "hw/pcie/pcie_link.h"

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

#include <algorithm>

namespace uetsim {

namespace {

pcie_purpose purpose_of(const tlm::tlm_generic_payload& t)
{
    const pcie_tag* tag = t.get_extension<pcie_tag>();
    return tag ? tag->purpose : pcie_purpose::data_write;
}

std::array<pcie_credit_pool, k_pcie_tlp_types> pools(const pcie_side_credits& c)
{
    return {pcie_credit_pool(c.limits[0]), pcie_credit_pool(c.limits[1]),
            pcie_credit_pool(c.limits[2])};
}

}  // namespace

pcie_link::pcie_link(const sc_core::sc_module_name& name, const pcie_config& cfg)
    : sc_core::sc_module(name)
    , host_in("host_in")
    , nic_out("nic_out")
    , nic_in("nic_in")
    , host_out("host_out")
    , m_shared_cfg(share_settings(cfg))
    , m_cfg(*m_shared_cfg)
    , m_lanes{pcie_lanes(cfg.nic_to_host_bps(), cfg.max_payload, cfg.tlp_overhead),
              pcie_lanes(cfg.host_to_nic_bps(), cfg.max_payload, cfg.tlp_overhead)}
    , m_latency_ps(ps_from_seconds(cfg.latency_s))
    , m_credit_return_ps(m_latency_ps + ps_from_seconds(cfg.credit_return_latency_s))
    , m_credits_on(m_credit_return_ps > 0)
    // A side's TLPs take the credits the other end advertises.
    , m_credits{pools(cfg.host_side_credits), pools(cfg.nic_side_credits)}
{
    host_in.register_b_transport(this, &pcie_link::b_transport_host);
    nic_in.register_b_transport(this, &pcie_link::b_transport_nic);
}

uint64_t pcie_link::cross(side s, uint64_t at_ps, uint64_t payload, pcie_tlp_type type)
{
    if (m_credits_on && !m_credits[s][size_t(type)].infinite())
        return cross_with_credits(s, at_ps, payload, type);
    pcie_lanes& l = m_lanes[s];
    side_stats& st = m_stats[s];
    const uint64_t bytes = l.link_bytes(payload);
    st.transfers += l.transfers(payload);
    st.link_bytes += bytes;
    st.payload_bytes += payload;
    st.busy_ps += l.duration_ps(bytes);
    const uint64_t done = l.transfer(at_ps, bytes) + m_latency_ps;
    if (m_probe) m_probe->changed();
    return done;
}

uint64_t pcie_link::cross_with_credits(side s, uint64_t at_ps, uint64_t payload, pcie_tlp_type type)
{
    pcie_lanes& l = m_lanes[s];
    side_stats& st = m_stats[s];
    pcie_credit_pool& pool = m_credits[s][size_t(type)];
    const uint64_t n = l.transfers(payload);
    // TLPs go back to back from `base`; `run` bytes have gone since it. A wait for credits
    // starts a new run, so each TLP's time is rounded as a whole transaction's is without one.
    ring<credit_wait>& waits = m_waits[s];
    while (!waits.empty() && waits.front().to_ps <= sim_now_ps()) waits.pop_front();
    uint64_t base = std::max(l.free_ps(), at_ps);
    uint64_t run = 0;
    uint64_t left = payload;
    uint64_t end = base;
    for (uint64_t i = 0; i < n; ++i) {
        const uint32_t bytes = uint32_t(std::min<uint64_t>(left, l.max_payload()));
        left -= bytes;
        const uint32_t data = type == pcie_tlp_type::non_posted ? 0 : pcie_data_credits(bytes);
        const uint64_t want = base + l.duration_ps(run);
        const uint64_t got = pool.acquire(want, 1, data);
        if (got > want) {
            st.busy_ps += l.duration_ps(run);
            st.credit_wait_ps += got - want;
            ++st.credit_waits[size_t(type)];
            waits.push_back({want, got});
            base = got;
            run = 0;
        }
        run += bytes + l.overhead();
        end = base + l.duration_ps(run);
        pool.release(end + m_credit_return_ps, 1, data);
    }
    st.busy_ps += l.duration_ps(run);
    st.transfers += n;
    st.link_bytes += l.link_bytes(payload);
    st.payload_bytes += payload;
    l.occupy_until(end);
    if (m_probe) m_probe->changed();
    return end + m_latency_ps;
}

uint64_t pcie_link::waits_ahead_ps(side s)
{
    const uint64_t now = sim_now_ps();
    ring<credit_wait>& waits = m_waits[s];
    while (!waits.empty() && waits.front().to_ps <= now) waits.pop_front();
    uint64_t ahead = 0;
    waits.for_each([&](const credit_wait& w) { ahead += w.to_ps - std::max(w.from_ps, now); });
    return ahead;
}

void pcie_link::b_transport_host(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
{
    // Host-initiated: MMIO writes into the NIC's BAR (doorbells, connection messages).
    if (!t.is_write()) {
        t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    const uint64_t now = sim_now_ps();
    ++m_stats[host_side].transactions[size_t(purpose_of(t))];
    const uint64_t done =
        cross(host_side, now + delay.value(), t.get_data_length(), pcie_tlp_type::posted);
    delay = picoseconds(done - now);
    nic_out->b_transport(t, delay);
}

void pcie_link::b_transport_nic(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
{
    // NIC-initiated DMA into host memory.
    const uint64_t now = sim_now_ps();
    const uint64_t start = now + delay.value();
    ++m_stats[nic_side].transactions[size_t(purpose_of(t))];
    if (t.is_write()) {
        delay =
            picoseconds(cross(nic_side, start, t.get_data_length(), pcie_tlp_type::posted) - now);
        host_out->b_transport(t, delay);
        return;
    }
    // Read: one request per MaxReadRequestSize bytes one way; host memory answers each at once
    // (its answer time is the delay it adds to the first); each request's completions the
    // other way, after that request has arrived.
    const uint64_t length = t.get_data_length();
    const uint64_t mrrs = m_cfg.max_read_request;
    const uint64_t requests = std::max<uint64_t>(1, (length + mrrs - 1) / mrrs);
    const uint64_t first = cross(nic_side, start, m_cfg.read_request, pcie_tlp_type::non_posted);
    delay = picoseconds(first - now);
    host_out->b_transport(t, delay);
    const uint64_t answer = now + delay.value() - first;
    ++m_stats[host_side].transactions[size_t(purpose_of(t))];
    uint64_t done =
        cross(host_side, first + answer, std::min(length, mrrs), pcie_tlp_type::completion);
    for (uint64_t r = 1; r < requests; ++r) {
        const uint64_t arrived =
            cross(nic_side, start, m_cfg.read_request, pcie_tlp_type::non_posted);
        done = cross(host_side, arrived + answer, std::min(length - r * mrrs, mrrs),
                     pcie_tlp_type::completion);
    }
    delay = picoseconds(done - now);
}

}  // namespace uetsim
