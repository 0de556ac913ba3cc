// derived_json: the values `uetsim inspect` derives from a scenario without simulating.
#include <cmath>

#include "hw/common/picoseconds.h"
#include "hw/nic/uet/entropy/entropy_factory.h"
#include "hw/switch/shared_buffer_config.h"
#include "hw/nic/uet/pipeline_bounds.h"
#include "hw/nic/uet/uet_nic_params.h"
#include "hw/pcie/pcie_lanes.h"
#include "tlm/header_sizes.h"
#include "testbench/traffic/app/app_inspect.h"
#include "testbench/elab/fabric_rtt.h"
#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/nic_factory.h"
#include "testbench/run/simulation.h"
#include "testbench/elab/topology.h"
#include "testbench/traffic/chakra/chakra_inspect.h"

namespace uetsim {

nlohmann::ordered_json derived_json(const scenario& sc)
{
    const topology t = build_topology(sc);
    nlohmann::ordered_json j;
    auto& tj = j["topology"];
    tj["kind"] = to_string(sc.topology.kind);
    tj["hosts"] = t.hosts;
    tj["switches"] = t.switch_count();
    tj["links"] = t.links.size();
    nlohmann::ordered_json sw = nlohmann::ordered_json::array();
    for (uint32_t d = t.hosts; d < t.devices.size(); ++d)
        sw.push_back({{"name", t.devices[d].name},
                      {"node_id", t.devices[d].node_id},
                      {"tier", t.devices[d].tier},
                      {"ports", t.devices[d].ports.size()}});
    tj["switch_list"] = sw;
    // Every link with its resolved values (Link[glob] overrides applied, autos resolved).
    nlohmann::ordered_json links = nlohmann::ordered_json::array();
    // LLR sizes by the frames of the NIC types in use; CBFC's line-rate need by the larger of
    // both types' frames (a bound the kernel-free topology can compute).
    const uint32_t largest_frame = largest_data_frame(sc, t.hosts);
    const uint32_t largest = largest_frame_bytes(sc);
    for (const link_spec& l : t.links) {
        links.push_back({{"name", l.name},
                         {"rate_bps", l.rate_bps},
                         {"delay_s", l.delay_s},
                         {"bit_error_rate", l.bit_error_rate},
                         {"llr", l.llr == link_llr::both}});
        if (l.llr == link_llr::both) {
            // LLR's resolved numbers (docs/link-layer.md): auto buffer and timeout from the round
            // trip.
            const link_llr_values v = llr_values(l, largest_frame);
            links.back()["llr_replay_buffer_bytes"] = v.replay_buffer_bytes;
            links.back()["llr_replay_timeout_s"] = v.replay_timeout_s;
            links.back()["llr_round_trip_s"] = v.round_trip_s;
            links.back()["llr_control_bytes"] = l.llr_control_bytes;
            links.back()["llr_ack_spacing_bytes"] = l.llr_ack_spacing_bytes;
        }
        if (!l.cbfc.enabled) continue;
        // CBFC: what each end advertises per VC and what line rate needs (docs/link-layer.md).
        const cbfc_settings& c = l.cbfc;
        nlohmann::ordered_json vcs = nlohmann::ordered_json::array();
        for (int v = 0; v < c.vcs(); ++v) {
            nlohmann::ordered_json tcs = nlohmann::ordered_json::array();
            for (int tc = 0; tc < 8; ++tc)
                if ((c.classes_of(v) >> tc) & 1u) tcs.push_back(tc);
            vcs.push_back({{"vc", v}, {"classes", tcs}});
        }
        links.back()["cbfc"] = {
            {"vcs", vcs},
            {"credit_unit_bytes", c.credit_unit_bytes},
            {"vc_credits", c.vc_credits},
            {"vc_buffer_bytes", c.vc_buffer_bytes()},
            {"line_rate_buffer_bytes",
             cbfc_line_rate_buffer_bytes(l.rate_bps, ps_from_seconds(l.delay_s),
                                         c.update_interval_ps, l.cbfc_residence_ps, largest,
                                         c.update_frame_bytes, c.credit_unit_bytes)},
            {"update_interval_s", double(c.update_interval_ps) * 1e-12},
            {"update_frame_bytes", c.update_frame_bytes},
            {"sync_interval_s", double(c.sync_interval_ps) * 1e-12}};
    }
    j["links"] = std::move(links);
    j["switch"] = {{"forwarding_latency_s", sc.sw.forwarding_latency_s}};
    // The shared buffer of every switch as it is laid out at start (stages 1 to 5), with its
    // own resolved configuration and connected ports.
    nlohmann::ordered_json bufs = nlohmann::ordered_json::array();
    for (uint32_t d = t.hosts; d < t.devices.size(); ++d) {
        const device& dev = t.devices[d];
        const switch_config swc = switch_for(sc, dev.name);
        uint64_t credit_bytes = 0;  // CBFC: every CBFC port's advertised credit, set aside
        for (const auto& pr : dev.ports) {
            const cbfc_settings& c = t.links[pr.link].cbfc;
            if (c.enabled) credit_bytes += uint64_t(c.vcs()) * c.vc_buffer_bytes();
        }
        const shared_buffer_layout l =
            derive_shared_buffer_layout(swc.buffer, uint32_t(dev.ports.size()), credit_bytes);
        // PFC's refresh: half the pause time of 65535 quanta (512 bits each) at the port's rate,
        // plus the link's delay (packet-handling page), on the switch's first link.
        double refresh_s = 0;
        if (!dev.ports.empty()) {
            const link_spec& ls = t.links[dev.ports[0].link];
            refresh_s = (512.0 * 65535.0 / ls.rate_bps + ls.delay_s) / 2;
        }
        nlohmann::ordered_json pools = nlohmann::ordered_json::array();
        for (uint8_t p = 0; p < shared_buffer_pools; ++p) {
            const shared_buffer_pool& bp = l.pools[p];
            if (!bp.allocated) continue;
            nlohmann::ordered_json tcs = nlohmann::ordered_json::array();
            for (int tc = 0; tc < shared_buffer_classes; ++tc)
                if ((bp.lossless_classes >> tc) & 1u) tcs.push_back(tc);
            const ecn_band band = l.ecn_thresholds(p, swc.min_threshold, swc.max_threshold);
            pools.push_back({{"pool", p},
                             {"bytes", bp.bytes},
                             {"lossless_classes", tcs},
                             {"static_egress_limit_bytes", bp.static_egress_limit_bytes},
                             {"ecn_min_bytes", band.min_bytes},
                             {"ecn_max_bytes", band.max_bytes}});
        }
        bufs.push_back({{"switch", dev.name},
                        {"connected_ports", l.connected_ports},
                        {"total_headroom_bytes", l.total_headroom_bytes},
                        {"sizing_total_bytes", l.sizing_total_bytes},
                        {"xoff_bytes", l.xoff_bytes},
                        {"xon_bytes", l.xon_bytes},
                        {"pause_refresh_s", refresh_s},
                        {"pools", pools}});
        if (l.total_credit_bytes) bufs.back()["total_credit_bytes"] = l.total_credit_bytes;
    }
    j["switch_buffer"] = bufs;
    // Each host's NIC type (Nic[glob].Type); a message is cut at its sender's MSS.
    const std::vector<nic_kind> kinds = host_nic_kinds(sc, t.hosts);
    nlohmann::ordered_json host_types = nlohmann::ordered_json::object();
    for (uint32_t h = 0; h < t.hosts; ++h)
        host_types[t.devices[h].name] = std::string(kinds[h].name);
    j["nic_types"] = std::move(host_types);
    const std::vector<uint32_t> mss = host_data_mss(sc, t.hosts);
    uint64_t packets = 0, bytes = 0;
    for (const auto& f : sc.flows.messages) {
        packets += wire::packets_for(f.bytes, mss[f.src]);
        bytes += f.bytes;
    }
    j["flows"] = {{"messages", sc.flows.messages.size()}, {"packets", packets}, {"bytes", bytes}};

    // The spraying values every UET NIC derives (the first host's link rate stands for all).
    const double host_rate = t.hosts ? t.host_link(0).rate_bps : sc.topology.link_rate_bps;
    entropy_config lb =
        derive_uet_nic_params(sc.nic.uet, sc.nic.nscc, sc.nic.spraying, host_rate).entropy;
    lb.local_udp_port = none_port(1);
    const spraying_derived d = derive_spraying(lb);
    auto& sj = j["spraying"];
    sj["type"] = spraying_type_name(d.type);
    sj["ports"] = d.ports;
    if (d.reps) {
        const reps_derived& r = *d.reps;
        sj["reps"] = {{"cache_entries", r.cache_entries},
                      {"explore_range", {r.explore_lo, r.explore_hi}},
                      {"freezing_timeout_s", r.freezing_timeout_s},
                      {"failure_detection_deadline_s", r.failure_detection_deadline_s},
                      {"bdp_bytes", r.bdp_bytes},
                      {"nominal_packet_bytes", r.nominal_packet_bytes},
                      {"exploration_window_packets", r.exploration_window_packets},
                      {"exploring_packets", r.exploring_packets}};
    }
    // What each NIC pipeline stage allows at the configured clock and MSS, and the stage that
    // binds first, beside the host link's own packet rate (full data packets back to back).
    const pipeline_bounds pb = derive_pipeline_bounds(sc.nic.uet);
    auto& pj = j["nic_pipeline"];
    pj["stages"] = nlohmann::ordered_json::array();
    const auto finite = [](double v) {
        return std::isinf(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v);
    };
    for (const stage_bound& s : pb.stages)
        pj["stages"].push_back({{"stage", s.stage.name},
                                {"latency_cycles", s.stage.timing.cycles},
                                {"interval_cycles", s.stage.timing.interval_cycles},
                                {"queue_depth", s.stage.timing.queue_depth},
                                {"bound_pps", finite(s.bound_pps)},
                                {"bound_gbps", finite(s.bound_gbps)}});
    pj["binding_stage"] = pb.stages[pb.binding].stage.name;
    const double wire_pps =
        host_rate / (8.0 * (sc.nic.uet.rdma_data_mss + wire::uet_data_overhead));
    pj["wire_bound_pps"] = wire_pps;
    pj["nic_binds_before_wire"] = pb.stages[pb.binding].bound_pps < wire_pps;
    pj["max_outstanding_reads"] = sc.nic.uet.max_outstanding_reads;
    pj["pdc_context_cache_entries"] = sc.nic.uet.pdc_context_cache_entries;
    pj["pdc_context_bytes"] = sc.nic.uet.pdc_context_bytes;
    // What one context cache miss costs on an idle PCIe link: the read request one way, the
    // context's completions back, the latency each way (docs/nic-pipeline.md).
    {
        const pcie_config& pc = sc.pcie;
        const pcie_lanes up(pc.nic_to_host_bps(), pc.max_payload, pc.tlp_overhead);
        const pcie_lanes down(pc.host_to_nic_bps(), pc.max_payload, pc.tlp_overhead);
        const uint64_t ps = up.duration_ps(up.link_bytes(pc.read_request)) +
                            down.duration_ps(down.link_bytes(sc.nic.uet.pdc_context_bytes));
        pj["pdc_context_miss_s"] = double(ps) * 1e-12 + 2 * pc.latency_s;
    }

    // The RTT sample of an idle path over the fabric's longest path, and its parts.
    const fabric_round_trip rtt = derive_fabric_rtt(t, sc);
    j["fabric"] = {{"unloaded_rtt_s", rtt.unloaded_rtt_s()},
                   {"longest_path", rtt.longest_path},
                   {"hops", rtt.hops()},
                   {"parts_s",
                    {{"propagation", double(rtt.propagation_ps) * 1e-12},
                     {"serialization", double(rtt.serialization_ps) * 1e-12},
                     {"forwarding", double(rtt.forwarding_ps) * 1e-12},
                     {"nic_stages", double(rtt.nic_stages_ps) * 1e-12},
                     {"ack_hold", double(rtt.ack_hold_ps) * 1e-12}}},
                   {"initial_base_rtt_s", sc.nic.nscc.initial_base_rtt_s}};

    const nlohmann::ordered_json app =
        rdma_app_json(sc, t.hosts, host_rate, nic_framing_of(fabric_nic(sc, t.hosts)));
    for (auto it = app.begin(); it != app.end(); ++it) j[it.key()] = it.value();
    if (sc.chakra.enabled())
        j["chakra"] =
            chakra::chakra_json(chakra::load_workload(sc.chakra, t.hosts), t.host_link(0).rate_bps);
    return j;
}

}  // namespace uetsim
