// Records.* keys: which records the run writes, the record names Records.Enabled accepts, and
// uet-monitor's switch with the ScalaUETMonitor filters and triggers (under the page's names).
#include "sim/config/keys_common.h"

namespace uetsim::config {

namespace {

text_rule filter_rule(const char* allowed, std::optional<std::string> (*check)(const std::string&))
{
    return {allowed, check};
}

}  // namespace

void add_records_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.boolean("Records.UetMonitor", UETSIM_FIELD(records.monitor.enabled),
              "Write uet-monitor (the page's EnableUETMonitor): one row per UET packet of the "
              "connections the four FilterOn* keys select (large).");
    std::vector<detail::choice_alias> renamed;
    for (const auto& [old_name, current] : renamed_records())
        renamed.push_back({old_name, current});
    k.choice_list("Records.Enabled", UETSIM_FIELD(records.enabled), record_names(),
                  "Records the run writes.", renamed);
    k.text("Records.FilterOnFepId", UETSIM_FIELD(records.monitor.filter_fep_id),
           filter_rule("All, or a FEP id (a NIC's node id)", fep_id_filter_error),
           "uet-monitor: only the packets the NIC with this FEP id sends and receives.");
    k.text("Records.FilterOnLocalIp", UETSIM_FIELD(records.monitor.filter_local_ip),
           filter_rule("All, or a dotted IPv4 address", ip_filter_error),
           "uet-monitor: only the packets of PDCs whose local end has this address.");
    k.text("Records.FilterOnRemoteIp", UETSIM_FIELD(records.monitor.filter_remote_ip),
           filter_rule("All, or a dotted IPv4 address", ip_filter_error),
           "uet-monitor: only the packets of PDCs whose remote end has this address.");
    k.text("Records.FilterOnPdc", UETSIM_FIELD(records.monitor.filter_pdc),
           filter_rule("All, or <IPv4>:<PDC id> such as 32.0.0.2:4500", pdc_filter_error),
           "uet-monitor: only the packets of the PDC whose local or remote id this is (the "
           "number is a PDC id, not a port).");
    k.boolean("Records.TriggerLoggingOnRttEnable", UETSIM_FIELD(records.monitor.trigger_on_rtt),
              "uet-monitor: a connection whose sender measures an RTT at or above "
              "TriggerLoggingOnRttThreshold is logged from then on (within "
              "TriggeredLoggingPDCLimit); writes the record even with UetMonitor off.");
    k.time("Records.TriggerLoggingOnRttThreshold", UETSIM_FIELD(records.monitor.rtt_threshold_s),
           {0, 100},
           "RTT sample at or above which TriggerLoggingOnRttEnable selects a connection.");
    k.boolean("Records.TriggerLoggingOnCWindPen", UETSIM_FIELD(records.monitor.trigger_on_penalty),
              "uet-monitor: a connection on which a receiver penalty at or above "
              "TriggerLoggingOnCWindPenThreshold is seen is logged from then on (within "
              "TriggeredLoggingPDCLimit); writes the record even with UetMonitor off.");
    k.integer("Records.TriggerLoggingOnCWindPenThreshold",
              UETSIM_FIELD(records.monitor.penalty_threshold), {0, 127},
              "Receiver penalty at or above which TriggerLoggingOnCWindPen selects a connection "
              "(127: the full penalty).");
    k.integer("Records.TriggeredLoggingPDCLimit", UETSIM_FIELD(records.monitor.triggered_pdc_limit),
              {0, 100}, "The most connections the two triggers together select in a run.");
}

const std::vector<std::string>& record_names()
{
    return enabled_record_names();  // the records registry
}

}  // namespace uetsim::config
