// Which packets uet-monitor logs: the ScalaUETMonitor filters (FEP id, local and remote IP, PDC
// id, each `All` or an exact value, combined) and the two triggers (an RTT sample, a receiver
// penalty) within one budget of connections per process. A connection is selected as a whole,
// both of its PDC ends, and stays selected for the rest of the run; it is named by its sending
// end, `<sender IPv4>:<sender PDC id>`, which every row of the connection carries at either NIC
// (local on the sender, remote on the receiver). Plain logic: uet_monitor_record asks it per row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>

#include "hw/nic/uet/uet_monitor_sink.h"

namespace uetsim {

// The monitor's settings as the scenario gives them (Records.UetMonitor and Records.FilterOn*,
// Records.TriggerLogging*, Records.TriggeredLoggingPDCLimit): filters as text, `All` or a value.
struct uet_monitor_settings
{
    bool enabled = false;  // EnableUETMonitor: the filters select connections
    std::string filter_fep_id = "All";
    std::string filter_local_ip = "All";
    std::string filter_remote_ip = "All";
    std::string filter_pdc = "All";
    bool trigger_on_rtt = false;
    double rtt_threshold_s = 100e-6;
    bool trigger_on_penalty = false;
    uint32_t penalty_threshold = 127;  // 0..127
    uint32_t triggered_pdc_limit = 1;  // 0..100 connections, both triggers together

    // Whether the record is written at all: the monitor or either trigger is on.
    bool any() const { return enabled || trigger_on_rtt || trigger_on_penalty; }
};

// A dotted IPv4 address (four decimal octets 0..255) as a number; nullopt if `s` is not one.
std::optional<uint32_t> parse_ipv4(const std::string& s);
// `ip` in dotted form; `<ipv4_text>:<id>` is how uet-monitor and uet-events write a PDC id.
std::string ipv4_text(uint32_t ip);
// Why a filter's text is not acceptable (nullopt when it is): each also accepts `All`.
std::optional<std::string> fep_id_filter_error(const std::string& s);
std::optional<std::string> ip_filter_error(const std::string& s);
std::optional<std::string> pdc_filter_error(const std::string& s);

class uet_monitor_selection
{
public:
    // `s` must have passed the *_filter_error checks (the key schema runs them).
    explicit uet_monitor_selection(const uet_monitor_settings& s);

    // Whether row `r` is logged; a row that matches the filters or fires a trigger selects its
    // connection first (`triggered`, if given, says whether a trigger selected it).
    bool wanted(const uet_monitor_row& r, bool* triggered = nullptr);

    // The connection of a row, from its sending end: (IPv4 << 16) | PDC id.
    static uint64_t connection(const uet_monitor_row& r);
    bool filters_match(const uet_monitor_row& r) const;
    bool trigger_fires(const uet_monitor_row& r) const;
    size_t selected() const { return m_selected.size(); }
    uint32_t triggers_left() const { return m_triggers_left; }

private:
    bool m_enabled;
    bool m_everything;  // enabled with every filter `All`: no bookkeeping
    std::optional<uint32_t> m_fep_id, m_local_ip, m_remote_ip;
    std::optional<uint64_t> m_pdc;  // (IPv4 << 16) | PDC id
    bool m_on_rtt, m_on_penalty;
    double m_rtt_threshold_ns;
    uint32_t m_penalty_threshold;
    uint32_t m_triggers_left;
    std::unordered_set<uint64_t> m_selected;
};

}  // namespace uetsim
