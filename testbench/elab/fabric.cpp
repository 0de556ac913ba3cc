#include "testbench/elab/fabric.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "hw/kernel/time.h"
#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/nic_factory.h"
#include "hw/nic/uet/uet_nic.h"
#include "testbench/nics/uet_nic_entry.h"
#include "testbench/traffic/chakra/chakra_replay.h"

namespace uetsim {

fabric::fabric(const scenario& sc, packet_pool& pool, flows& traffic,
               const nic_configurator& configure_nic)
    : m_topo(build_topology(sc))
{
    // A RoCE queue pair may send a frame below the link's rate (its ACK then comes late).
    bool roce = false;
    for (nic_kind k : nic_kinds_in_use(sc, m_topo.hosts)) roce = roce || k == nic_kind::roce;
    for (const auto& l : m_topo.links) {
        m_links.push_back(
            std::make_unique<link>(l.name.c_str(), l.rate_bps, seconds(l.delay_s), pool));
        if (l.bit_error_rate > 0)
            m_links.back()->set_bit_error_rate(l.bit_error_rate, sc.simulation.random_seed);
        if (l.llr == link_llr::both) {
            const link_llr_values v = llr_values(l, largest_data_frame(sc, m_topo.hosts));
            link::llr_settings s;
            s.buffer_bytes = v.replay_buffer_bytes;
            s.timeout_ps = ps_from_seconds(v.replay_timeout_s);
            s.control_bytes = l.llr_control_bytes;
            s.ack_spacing_bytes = l.llr_ack_spacing_bytes;
            // The timeout also has room for an ACK spacing or a frame more than the round trip
            // counts (docs/link-layer.md, "What LLR costs").
            const bool faulted = std::any_of(sc.faults.begin(), sc.faults.end(),
                                             [&](const fault_spec& f) { return f.link == l.name; });
            s.timer_on_demand = l.bit_error_rate == 0 && !faulted && !roce &&
                                v.replay_timeout_s >= 1.5 * v.round_trip_s;
            m_links.back()->enable_llr(s);
        }
    }

    std::vector<routing_table> routes = build_routes(m_topo);
    for (uint32_t d = m_topo.hosts; d < m_topo.devices.size(); ++d) {
        const device& dev = m_topo.devices[d];
        std::vector<fabric_switch::port_spec> ports(dev.ports.size());
        for (size_t p = 0; p < dev.ports.size(); ++p) {
            ports[p].nic_facing = m_topo.devices[m_topo.peer(d, p)].kind == device_kind::host;
            const link_spec& ls = m_topo.links[dev.ports[p].link];
            ports[p].link = {ls.rate_bps, ps_from_seconds(ls.delay_s)};
            ports[p].uplink = dev.ports[p].uplink;
            ports[p].cbfc = ls.cbfc;
        }
        const switch_config sw = switch_for(sc, dev.name);
        m_switches.push_back(std::make_unique<fabric_switch>(dev.name.c_str(), dev.node_id, sw,
                                                             std::move(routes[dev.index]), ports,
                                                             sc.simulation.random_seed, pool));
        build_rtl_blocks(sc, dev.name, device_kind::switch_device, m_switches.back().get(),
                         nullptr);
    }

    // Raw ports never share a fabric with NICs (the rules refuse it): host 0's type decides.
    if (host_nic_kind(sc, 0) == nic_kind::raw) {
        std::vector<flow_host*> hosts;
        for (uint32_t h = 0; h < m_topo.hosts; ++h) {
            m_hosts.push_back(std::make_unique<flow_host>(
                m_topo.devices[h].name.c_str(), h,
                [&traffic](uint32_t m, bool& more) { return traffic.next_packet(m, more); },
                [&traffic](packet& p) { traffic.deliver(p); }));
            hosts.push_back(m_hosts.back().get());
        }
        traffic.attach(std::move(hosts));
    } else {
        // Receive completions only when an application times messages at their target: with
        // none asking, the NICs write none and every record stays as it was.
        bool receive_completions =
            sc.rdma.enabled && sc.rdma.completion_at == completion_point::target;
        for (const flow_spec& f : sc.flows.messages)
            receive_completions =
                receive_completions || f.completion_at == completion_point::target;
        for (uint32_t h = 0; h < m_topo.hosts; ++h) {
            const std::string& name = m_topo.devices[h].name;
            nic_config nic = nic_for(sc, name);
            // UetNic[glob].<Stage>Cycles: auto, or the section's auto on a device whose own Rtl
            // keys choose its blocks: the latency of the block the stage consults.
            resolve_stage_latencies(nic, rtl_for(sc, name));
            build_rtl_blocks(sc, name, device_kind::host, nullptr, &nic);
            if (configure_nic) configure_nic(name, nic);
            m_nic_hosts.push_back(std::make_unique<nic_host>(m_topo, h, nic, pcie_for(sc, name),
                                                             sc.simulation.random_seed, pool));
            // What the host's software sees: completions and written memory, to the Flows
            // scoreboard, the Chakra replay or the application.
            // The JobID of the workload's messages (the RDMA application's or Chakra's).
            if (uet_nic* u = as_uet_nic(m_nic_hosts.back()->nic()))
                u->set_workload_job(sc.chakra.enabled() ? sc.chakra.job_id : sc.rdma.job_id);
            nic_host_interface& hif = m_nic_hosts.back()->host_interface();
            hif.write_receive_completions(receive_completions);
            hif.on_direct_complete([this, &traffic](uint64_t m, double t) {
                if (chakra::is_transfer_message(m))
                    m_transfers->nic_acked(m, t);
                else
                    traffic.completed(m, t);
            });
            hif.on_direct_sent([this](uint64_t m, uint64_t at_ps) {
                if (m_transfers && chakra::is_transfer_message(m)) m_transfers->nic_sent(m, at_ps);
            });
            m_nic_hosts.back()->memory().observe_writes(
                [this, h, &traffic](const pcie_tag& tag, const unsigned char* data, uint32_t bytes,
                                    const sc_core::sc_time& at) {
                    if (tag.purpose == pcie_purpose::data_write && !is_wqe_message(tag.message)) {
                        if (chakra::is_transfer_message(tag.message))
                            m_transfers->nic_written(tag.message, tag.offset, bytes, at.value());
                        else
                            traffic.written(tag.message, tag.offset, bytes);
                    } else if (tag.purpose == pcie_purpose::completion_write &&
                               !is_wqe_message(tag.message)) {
                        // A receive completion of a directed message (a WQE's goes to the
                        // application; a Chakra transfer's is not used).
                        if (!chakra::is_transfer_message(tag.message))
                            traffic.received(tag.message, at.to_seconds());
                    } else if (m_software)
                        m_software->host_memory_written(h, tag, data, bytes, at);
                });
        }
        traffic.attach([this](const flow_message& m) {
            if (uet_nic* u = as_uet_nic(nic_at(m.spec.src))) u->set_next_job(m.spec.job_id);
            if (m.spec.recv_posted_s >= 0)
                nic_at(m.spec.src)
                    .post_deferrable_message(m.id, m.spec.dst, host_ip(m.spec.dst), m.spec.bytes,
                                             m.spec.traffic_class);
            else
                nic_at(m.spec.src)
                    .post_message(m.id, m.spec.dst, host_ip(m.spec.dst), m.spec.bytes,
                                  m.spec.traffic_class, k_no_queue_pair, m.spec.mode);
        });
        // A deferrable send's receive buffer: a receive work request the receiver's host writes
        // to its NIC's receive-post register, as a doorbell.
        traffic.attach_receive_poster([this](const flow_message& m) {
            receive_post r;
            r.src_host = m.spec.src;
            r.message = m.id;
            std::vector<unsigned char> data(sizeof(r));
            store(data.data(), r);
            mmio_at(m.spec.dst)
                .write(pcie_map::receive_post_register, data, k_receive_post_bytes,
                       pcie_purpose::doorbell);
        });
    }

    // Bind: a device transmits into the link end it sits on and receives from the other side.
    for (size_t i = 0; i < m_topo.links.size(); ++i) {
        const link_spec& ls = m_topo.links[i];
        link& l = *m_links[i];
        auto bind_end = [&](uint32_t d, uint32_t port, int end) {
            packet_initiator_socket* out;
            packet_target_socket* in;
            if (m_topo.devices[d].kind == device_kind::host) {
                if (m_nic_hosts.empty()) {
                    out = &m_hosts[d]->tx.out;
                    in = &m_hosts[d]->in;
                } else {
                    out = &nic_at(d).port.tx.out;
                    in = &nic_at(d).port.in;
                    // The NIC takes the frames coming to it as they start, when it can.
                    l.hand_ahead(end == 0 ? link::b_to_a : link::a_to_b, &nic_at(d).port);
                }
            } else {
                auto& sp = m_switches[m_topo.devices[d].index]->port(port);
                out = &sp.tx.out;
                in = &sp.in;
                // The switch takes the frames coming to it as they start, when it can.
                l.hand_ahead(end == 0 ? link::b_to_a : link::a_to_b, &sp);
            }
            if (end == 0) {
                out->bind(l.from_a);
                l.to_a.bind(*in);
            } else {
                out->bind(l.from_b);
                l.to_b.bind(*in);
            }
        };
        bind_end(ls.a_device, ls.a_port, 0);
        bind_end(ls.b_device, ls.b_port, 1);
        // CBFC: a NIC end's port (a switch's ports take it from their port_spec).
        if (ls.cbfc.enabled && !m_nic_hosts.empty())
            for (uint32_t d : {ls.a_device, ls.b_device})
                if (m_topo.devices[d].kind == device_kind::host)
                    nic_at(d).port.enable_cbfc(ls.cbfc);
        // A switch port sends its link's PFC frame format, the NIC's at the other end (X17):
        // 84 B to a RoCE NIC, 64 B to a UET NIC.
        if (m_nic_hosts.empty()) continue;
        for (const auto& [host, sw, port] : {std::tuple{ls.a_device, ls.b_device, ls.b_port},
                                             std::tuple{ls.b_device, ls.a_device, ls.a_port}})
            if (m_topo.devices[host].kind == device_kind::host &&
                m_topo.devices[sw].kind != device_kind::host)
                m_switches[m_topo.devices[sw].index]->port(port).pfc().set_frame_bytes(
                    nic_at(host).port.pfc().settings().frame_bytes);
    }
}

}  // namespace uetsim

namespace uetsim {

void fabric::bind_host_sides()
{
    for (auto& h : m_nic_hosts)
        if (!h->host_side_taken()) h->bind_host_side();
}

void fabric::post_transfer(uint32_t src_host, uint64_t message, uint32_t dst_host, uint64_t bytes,
                           uint8_t traffic_class, delivery_mode mode)
{
    host_nic& nic = nic_at(src_host);
    const uint32_t qp = nic.workload_queue_pair(dst_host);
    if (qp != k_no_queue_pair) nic.work_request_posted();  // counted as a doorbell's would be
    nic.post_message(message, dst_host, host_ip(dst_host), bytes, traffic_class, qp, mode);
}

uint64_t fabric::rtl_checked(std::string_view key) const
{
    uint64_t n = 0;
    for (const auto& b : m_rtl_blocks)
        if (b.def->key == key) n += b.instance->checked();
    return n;
}

void fabric::build_rtl_blocks(const scenario& sc, const std::string& name, device_kind kind,
                              fabric_switch* sw, nic_config* nic)
{
    if (sc.rtl.modes.empty() && sc.overrides.empty()) return;  // model everywhere: no cost
    const rtl_config rc = rtl_for(sc, name);
    for (const rtl_block_def& def : rtl_blocks()) {
        if (def.applies_to != kind) continue;
        const rtl_mode mode = rc.mode(def.key);
        if (!uses_rtl(mode)) continue;
        // The configuration refuses a block this build lacks (exit 2); this is a programming
        // error, not bad input.
        if (!def.build)
            throw std::logic_error("Rtl." + def.key + ": no RTL block in this build for " + name);
        rtl_block_site site{sc, name, rtl_component_name(def, name), mode};
        const auto* lib = rc.library(def.key);
        if (lib) site.library = &load_rtl_block_library(def, lib->resolved);
        site.sw = sw;
        site.nic = nic;
        m_rtl_blocks.push_back({&def, name, mode, def.build(site), lib ? lib->resolved : ""});
    }
}

}  // namespace uetsim
