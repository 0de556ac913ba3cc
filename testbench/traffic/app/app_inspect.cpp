#include "testbench/traffic/app/app_inspect.h"

#include "testbench/traffic/app/placement.h"
#include "testbench/traffic/app/timeline.h"
#include "testbench/traffic/app/wqe_math.h"

namespace uetsim {

nlohmann::ordered_json rdma_app_json(const scenario& sc, uint32_t hosts, double host_link_rate_bps,
                                     const nic_data_framing& nic)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j["enabled"] = sc.rdma.enabled;

    const run_timeline t = make_timeline(sc.simulation.timeline);
    j["timeline"] = {{"responders_start_s", t.responders_start_s},
                     {"client_start_window_s", {t.client_start_from_s, t.client_start_to_s}},
                     {"recording_window_s", {t.recording_from_s, t.recording_to_s}},
                     {"stop_time_s", t.stop_time_s}};

    const placement_config pc{sc.rdma.initiator_ratio, sc.rdma.responder_ratio, hosts,
                              sc.simulation.random_seed};
    nlohmann::ordered_json pj = nlohmann::ordered_json::object();
    pj["hosts"] = hosts;
    const auto errors = validate_placement(pc);
    if (errors.empty()) {
        const placement p = place(pc);
        pj["initiators"] = p.initiators;
        pj["responders"] = p.responders;
        nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
        for (const auto& [i, r] : p.pairs) pairs.push_back({i, r});
        pj["pairs"] = pairs;
    } else {
        pj["initiators"] = nlohmann::ordered_json::array();
        pj["responders"] = nlohmann::ordered_json::array();
        pj["pairs"] = nlohmann::ordered_json::array();
        pj["errors"] = errors;
    }
    j["placement"] = pj;

    // Each NIC type cuts the WQE at its own MSS and adds its own headers (UET 106 B, RoCE 58 B).
    const wqe_shape w =
        shape_wqe(sc.rdma.wqe_bytes, nic.mss, nic.overhead_bytes, host_link_rate_bps);
    const bool only = w.packets == 1;
    j["wqe"] = {{"nic", std::string(nic.name)},
                {"bytes", w.bytes},
                {"packets", w.packets},
                {"full_packets", w.full_packets},
                {"last_packet_bytes", w.last_packet_bytes},
                {"wire_bytes", w.wire_bytes},
                {"serialization_s", w.serialization_s},
                {"doorbell_pcie_bytes", doorbell_pcie_bytes(sc.rdma.doorbell_payload_bytes)},
                {"opcodes",
                 {{"first", only ? 0 : 1},
                  {"middle", w.middle_packets},
                  {"last", only ? 0 : 1},
                  {"only", only ? 1 : 0}}}};
    return j;
}

}  // namespace uetsim
