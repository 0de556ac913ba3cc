#include "sim/config/profile_rules.h"

#include <cmath>
#include <string>
#include <vector>

#include "sim/config/keys_common.h"
#include "hw/nic/uet/job_table.h"
#include "hw/nic/uet/uet_profile.h"
#include "testbench/elab/host_nic_types.h"
#include "testbench/elab/instance_config.h"
#include "testbench/elab/topology.h"

namespace uetsim::config {

namespace {

// A host's UetNic section as its overrides leave it, and the key that gave its profile.
struct host_nic_view
{
    uet_nic_config uet;
    std::string profile_key = "UetNic.Profile";
};

host_nic_view view_of(const scenario& sc, uint32_t host)
{
    host_nic_view v;
    if (sc.overrides.empty()) {
        v.uet = sc.nic.uet;
        return v;
    }
    const std::string name = "host" + std::to_string(host);
    v.uet = nic_for(sc, name).uet;
    for (const auto& o : sc.overrides)
        if (o.key == "UetNic.Profile" && matches(o, name))
            v.profile_key = o.section + "[" + o.glob + "].Profile";
    return v;
}

void check_job_table(const std::vector<double>& jobs, const std::string& key)
{
    for (double j : jobs)
        if (!(j >= 0 && j <= k_max_job_id && std::floor(j) == j))
            fail_rule(key + ": " + detail::format_real(j) +
                      " is not a JobID; allowed: whole numbers 0..16777215 (24 bits)");
}

// The profile feature a delivery mode other than RUD is.
uet_feature mode_feature(delivery_mode m)
{
    switch (m) {
        case delivery_mode::rod:
            return uet_feature::rod;
        case delivery_mode::rudi:
            return uet_feature::rudi;
        case delivery_mode::uud:
            return uet_feature::uud;
        case delivery_mode::rud:
            break;
    }
    return uet_feature::rud;
}

}  // namespace

void check_profiles_and_jobs(const scenario& sc)
{
    check_job_table(sc.nic.uet.job_table, "UetNic.JobTable");
    for (const auto& o : sc.overrides)
        if (o.key == "UetNic.JobTable") {
            scenario scratch;
            o.apply(scratch);
            check_job_table(scratch.nic.uet.job_table, o.section + "[" + o.glob + "].JobTable");
        }

    const uint32_t hosts = host_count(sc.topology);
    std::vector<int8_t> is_uet(hosts, -1);  // filled as asked
    std::vector<host_nic_view> views(hosts);
    std::vector<bool> viewed(hosts, false);
    auto uet_host = [&](uint32_t h) {
        if (is_uet[h] < 0) is_uet[h] = host_nic_kind(sc, h) == nic_kind::uet;
        return is_uet[h] == 1;
    };
    auto view = [&](uint32_t h) -> const host_nic_view& {
        if (!viewed[h]) views[h] = view_of(sc, h), viewed[h] = true;
        return views[h];
    };
    // `key` asks `feature` (`what`) of the UET NICs of `on`.
    auto require = [&](const std::string& key, const std::string& what, uet_feature feature,
                       const std::vector<uint32_t>& on) {
        for (const uint32_t h : on) {
            if (h >= hosts || !uet_host(h)) continue;
            const host_nic_view& v = view(h);
            if (profile_has(v.uet.profile, feature)) continue;
            const std::string p(profile_name(v.uet.profile));
            fail_rule(key + ": " + what + " on host" + std::to_string(h) + ", whose " +
                      v.profile_key + " is " + p + ", which has no " +
                      std::string(feature_name(feature)) + " (" + p + " has " +
                      profile_features(v.uet.profile) + "); " + std::string(feature_name(feature)) +
                      " needs " + v.profile_key + " " + profiles_with(feature));
        }
    };

    for (size_t i = 0; i < sc.flows.messages.size(); ++i) {
        const flow_spec& f = sc.flows.messages[i];
        const std::string row = "Flows[" + std::to_string(i) + "]";
        if (f.mode != delivery_mode::rud)
            require(row + ".Mode", delivery_mode_name(f.mode), mode_feature(f.mode),
                    {f.src, f.dst});
        if (f.recv_posted_s >= 0)
            require(row + ".RecvPostedAt", "a deferrable send", uet_feature::deferrable_send,
                    {f.src, f.dst});
    }
    std::vector<uint32_t> all(hosts);
    for (uint32_t h = 0; h < hosts; ++h) all[h] = h;
    if (sc.rdma.enabled && sc.rdma.mode != delivery_mode::rud)
        require("RdmaApplication.Mode", delivery_mode_name(sc.rdma.mode),
                mode_feature(sc.rdma.mode), all);
    if (sc.chakra.enabled() && sc.chakra.mode != delivery_mode::rud)
        require("Chakra.Mode", delivery_mode_name(sc.chakra.mode), mode_feature(sc.chakra.mode),
                all);
    // RCCC is a sender's setting (UetNic.RcccEnabled, per device).
    bool rccc_anywhere = sc.nic.uet.rccc.enabled;
    for (const auto& o : sc.overrides)
        rccc_anywhere = rccc_anywhere || o.key == "UetNic.RcccEnabled";
    if (rccc_anywhere)
        for (uint32_t h = 0; h < hosts; ++h)
            if (uet_host(h) && view(h).uet.rccc.enabled)
                require("UetNic.RcccEnabled", "true", uet_feature::rccc, {h});
}

}  // namespace uetsim::config
