// SCAFFOLD (wip-roce-base only): the interface compiles; the transport is built on wip-roce-core.
#include "hw/nic/roce/roce_nic.h"

#include <stdexcept>

namespace uetsim {

namespace {

nic_port_config port_config(const nic_context& ctx, const roce_nic_config& cfg)
{
    nic_port_config p;
    p.host = ctx.host;
    p.ip = ctx.ip;
    p.control_traffic_class = cfg.control_traffic_class;
    p.egress = cfg.egress;
    p.ingress = cfg.ingress;
    p.egress_data_pool_bytes = uint32_t(cfg.egress.pool_bytes(0));
    return p;
}

}  // namespace

roce_nic::roce_nic(const sc_core::sc_module_name& name, const nic_context& ctx,
                   const roce_nic_config& cfg, double line_rate_bps)
    : host_nic(name, ctx, port_config(ctx, cfg)), m_cfg(cfg), m_line_rate_bps(line_rate_bps)
{
}

void roce_nic::post_message(uint64_t, uint32_t, uint32_t, uint64_t, uint8_t, uint32_t)
{
    throw std::logic_error("roce_nic: transport not built yet (scaffold)");
}

void roce_nic::on_receive(packet* p)
{
    m_pool.release(p);
}
void roce_nic::on_sent(const sent_frame&) {}
void roce_nic::on_pool_free() {}

}  // namespace uetsim
