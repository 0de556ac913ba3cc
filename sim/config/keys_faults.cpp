// The Faults list (link faults at given times) and the rule that checks the link names of
// Faults and Capture against the topology.
#include "sim/config/keys_common.h"

#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

namespace {

key_table<fault_spec> fault_keys()
{
    key_table<fault_spec> t;
    t.time("At", UETSIM_FIELD(at_s), {0, 100}, "When the fault happens.").required();
    t.text("Link", UETSIM_FIELD(link), link_name,
           "The link, named by its two ends, lower tier first (host3-leaf0, leaf0-spine2).")
        .required();
    t.choice("Action", UETSIM_FIELD(action),
             {{"down", fault_action::down},
              {"up", fault_action::up},
              {"degrade", fault_action::degrade},
              {"loss", fault_action::loss},
              {"pause", fault_action::pause},
              {"resume", fault_action::resume}},
             "down: every frame on the link is lost, in both directions, in flight too; up: back "
             "to its nominal rate, no loss; degrade: runs at Rate; loss: loses each frame with "
             "probability Loss; pause: the link's lower end (the NIC on a host link) holds its "
             "peer in PFC pause for traffic class Class, re-sending the pause every half pause "
             "time until a resume on the same link (a PFC storm); resume: ends it with a resume "
             "frame.")
        .required();
    // 0 is "not given", so a printed non-degrade fault loads again; a degrade needs 1 Mbps or more.
    t.rate("Rate", UETSIM_FIELD(rate_bps), {0, 3.2e12},
           "The degraded rate (Action degrade, which needs 1 Mbps or more; 0: not given).");
    t.real("Loss", UETSIM_FIELD(loss), {0, 1}, "Probability that a frame is lost (Action loss).");
    t.integer("Class", UETSIM_FIELD(traffic_class), {0, 7},
              "The traffic class paused or resumed (Action pause, resume).");
    return t;
}

// The link names a scenario may name (Faults, Capture), with the closest one for a typo.
void check_link_name(const topology& t, const std::string& key, const std::string& name)
{
    if (t.find_link(name) >= 0) return;
    std::vector<std::string> names;
    for (const auto& l : t.links) names.push_back(l.name);
    const auto best = detail::closest(name, names);
    fail_rule(key + ": '" + name + "' is not a link of this topology" +
              (best ? "; did you mean '" + *best + "'?" : std::string()) +
              " (links are named by their two ends, lower tier first, e.g. host0-leaf0)");
}

}  // namespace

void add_faults_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.table("Faults", UETSIM_FIELD(faults), fault_keys(),
            "{At: 20us, Link: leaf0-spine3, Action: down}",
            "Link faults, each on both directions of one link.");

    s.rules.push_back(
        {"Faults and Capture.Links name links of the topology; a degrade gives a Rate and a loss a "
         "Loss; a pause or resume on a host link needs NIC hosts.",
         {"Faults", "Capture.Links", "Topology.Kind", "Nic.Type"},
         [](scenario& sc, const given_keys&) {
             const topology t = build_topology(sc);
             for (size_t i = 0; i < sc.faults.size(); ++i) {
                 const auto& f = sc.faults[i];
                 const std::string name = "Faults[" + std::to_string(i) + "]";
                 check_link_name(t, name + ".Link", f.link);
                 if (f.action == fault_action::degrade && f.rate_bps <= 0)
                     fail_rule(name + ": Action degrade needs a Rate, e.g. Rate: 100Gbps");
                 if (f.action == fault_action::degrade && f.rate_bps < 1e6)
                     fail_rule(name + ".Rate: " + format_quantity(f.rate_bps, dimension::rate) +
                               " is below 1Mbps, the slowest a degraded link runs at");
                 if ((f.action == fault_action::pause || f.action == fault_action::resume) &&
                     t.devices[t.links[size_t(t.find_link(f.link))].a_device].kind ==
                         device_kind::host &&
                     host_nic_kind(sc, t.links[size_t(t.find_link(f.link))].a_device) ==
                         nic_kind::raw)
                     fail_rule(name + ".Action: " +
                               (f.action == fault_action::pause ? "pause" : "resume") +
                               " on the host link " + f.link +
                               " needs NIC hosts: a raw host (Nic.Type raw) sends no PFC; use "
                               "Nic.Type uet or a switch-to-switch link");
                 if (f.action == fault_action::loss && f.loss <= 0)
                     fail_rule(name +
                               ": Action loss needs a Loss probability above 0, e.g. Loss: 0.01");
             }
             for (size_t i = 0; i < sc.capture.links.size(); ++i)
                 check_link_name(t, "Capture.Links[" + std::to_string(i) + "]",
                                 sc.capture.links[i]);
         }});
}

}  // namespace uetsim::config
