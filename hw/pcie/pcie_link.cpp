#include "hw/pcie/pcie_link.h"

#include "hw/kernel/sim_clock.h"
#include "hw/kernel/time.h"

namespace uetsim {

namespace {

pcie_purpose purpose_of(const tlm::tlm_generic_payload& t)
{
    const pcie_tag* tag = t.get_extension<pcie_tag>();
    return tag ? tag->purpose : pcie_purpose::data_write;
}

uint64_t now_ps()
{
    return sim_now_ps();
}

}  // namespace

pcie_link::pcie_link(const sc_core::sc_module_name& name, const pcie_config& cfg)
    : sc_core::sc_module(name)
    , host_in("host_in")
    , nic_out("nic_out")
    , nic_in("nic_in")
    , host_out("host_out")
    , m_cfg(cfg)
    , m_lanes{pcie_lanes(cfg.nic_to_host_bps(), cfg.max_payload, cfg.tlp_overhead),
              pcie_lanes(cfg.host_to_nic_bps(), cfg.max_payload, cfg.tlp_overhead)}
    , m_latency_ps(ps_from_seconds(cfg.latency_s))
{
    host_in.register_b_transport(this, &pcie_link::b_transport_host);
    nic_in.register_b_transport(this, &pcie_link::b_transport_nic);
}

uint64_t pcie_link::cross(side s, uint64_t at_ps, uint64_t payload)
{
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

void pcie_link::b_transport_host(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
{
    // Host-initiated: MMIO writes into the NIC's BAR (doorbells, connection messages).
    if (!t.is_write()) {
        t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    const uint64_t now = now_ps();
    ++m_stats[host_side].transactions[size_t(purpose_of(t))];
    const uint64_t done = cross(host_side, now + delay.value(), t.get_data_length());
    delay = picoseconds(done - now);
    nic_out->b_transport(t, delay);
}

void pcie_link::b_transport_nic(tlm::tlm_generic_payload& t, sc_core::sc_time& delay)
{
    // NIC-initiated DMA into host memory.
    const uint64_t now = now_ps();
    const uint64_t start = now + delay.value();
    ++m_stats[nic_side].transactions[size_t(purpose_of(t))];
    if (t.is_write()) {
        delay = picoseconds(cross(nic_side, start, t.get_data_length()) - now);
        host_out->b_transport(t, delay);
        return;
    }
    // Read: the request one way; host memory answers at once; the completions the other way.
    const uint64_t request_done = cross(nic_side, start, m_cfg.read_request);
    delay = picoseconds(request_done - now);
    host_out->b_transport(t, delay);
    const uint64_t answered = now + delay.value();
    ++m_stats[host_side].transactions[size_t(purpose_of(t))];
    delay = picoseconds(cross(host_side, answered, t.get_data_length()) - now);
}

}  // namespace uetsim
