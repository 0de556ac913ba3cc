#include "testbench/records/uet_monitor_selection.h"

namespace uetsim {

namespace {

const char* const all = "All";

// A decimal number of at most `max_digits` digits, nothing else.
std::optional<uint64_t> parse_decimal(const std::string& s, size_t max_digits)
{
    if (s.empty() || s.size() > max_digits) return std::nullopt;
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        v = v * 10 + uint64_t(c - '0');
    }
    return v;
}

// `<IPv4>:<PDC id>` as (IPv4 << 16) | id; nullopt if `s` is not one.
std::optional<uint64_t> parse_pdc(const std::string& s)
{
    const size_t colon = s.rfind(':');
    if (colon == std::string::npos) return std::nullopt;
    const auto ip = parse_ipv4(s.substr(0, colon));
    const auto id = parse_decimal(s.substr(colon + 1), 5);
    if (!ip || !id || *id > 65535) return std::nullopt;
    return (uint64_t(*ip) << 16) | *id;
}

std::optional<uint32_t> parse_fep_id(const std::string& s)
{
    const auto v = parse_decimal(s, 10);
    if (!v || *v > 0xFFFFFFFFull) return std::nullopt;
    return uint32_t(*v);
}

template <class T>
std::optional<T> unless_all(const std::string& s, std::optional<T> v)
{
    return s == all ? std::nullopt : v;
}

}  // namespace

std::optional<uint32_t> parse_ipv4(const std::string& s)
{
    uint32_t ip = 0;
    size_t pos = 0;
    for (int octet = 0; octet < 4; ++octet) {
        const size_t dot = octet < 3 ? s.find('.', pos) : s.size();
        if (dot == std::string::npos) return std::nullopt;
        const auto v = parse_decimal(s.substr(pos, dot - pos), 3);
        if (!v || *v > 255) return std::nullopt;
        ip = (ip << 8) | uint32_t(*v);
        pos = dot + 1;
    }
    return ip;
}

std::string ipv4_text(uint32_t ip)
{
    return std::to_string(ip >> 24) + '.' + std::to_string((ip >> 16) & 255) + '.' +
           std::to_string((ip >> 8) & 255) + '.' + std::to_string(ip & 255);
}

std::optional<std::string> fep_id_filter_error(const std::string& s)
{
    if (s == all) return std::nullopt;
    if (parse_fep_id(s)) return std::nullopt;
    return "must be All or a FEP id (the NIC's node id, a decimal number)";
}

std::optional<std::string> ip_filter_error(const std::string& s)
{
    if (s == all || parse_ipv4(s)) return std::nullopt;
    return "must be All or a dotted IPv4 address such as 32.0.0.2";
}

std::optional<std::string> pdc_filter_error(const std::string& s)
{
    if (s == all || parse_pdc(s)) return std::nullopt;
    return "must be All or a PDC id <IPv4>:<PDC id 0..65535> such as 32.0.0.2:4500";
}

uet_monitor_selection::uet_monitor_selection(const uet_monitor_settings& s)
    : m_enabled(s.enabled)
    , m_fep_id(unless_all(s.filter_fep_id, parse_fep_id(s.filter_fep_id)))
    , m_local_ip(unless_all(s.filter_local_ip, parse_ipv4(s.filter_local_ip)))
    , m_remote_ip(unless_all(s.filter_remote_ip, parse_ipv4(s.filter_remote_ip)))
    , m_pdc(unless_all(s.filter_pdc, parse_pdc(s.filter_pdc)))
    , m_on_rtt(s.trigger_on_rtt)
    , m_on_penalty(s.trigger_on_penalty)
    , m_rtt_threshold_ns(s.rtt_threshold_s * 1e9)
    , m_penalty_threshold(s.penalty_threshold)
    , m_triggers_left(s.trigger_on_rtt || s.trigger_on_penalty ? s.triggered_pdc_limit : 0)
{
    m_everything = m_enabled && !m_fep_id && !m_local_ip && !m_remote_ip && !m_pdc;
}

uint64_t uet_monitor_selection::connection(const uet_monitor_row& r)
{
    using t = uet_monitor_row::type;
    const bool sent = r.direction != uet_monitor_row::dir::rx;
    // Data and probes go from the sending end; ACKs, probe answers and NACKs come back to it.
    const bool from_sender = r.packet_type == t::rud_request || r.packet_type == t::ctrl;
    const bool at_sender = from_sender == sent;
    return at_sender ? (uint64_t(r.local_ip) << 16) | r.local_pdc
                     : (uint64_t(r.remote_ip) << 16) | r.remote_pdc;
}

bool uet_monitor_selection::filters_match(const uet_monitor_row& r) const
{
    if (!m_enabled) return false;
    if (m_fep_id && r.fep_id != *m_fep_id) return false;
    if (m_local_ip && r.local_ip != *m_local_ip) return false;
    if (m_remote_ip && r.remote_ip != *m_remote_ip) return false;
    if (m_pdc && ((uint64_t(r.local_ip) << 16) | r.local_pdc) != *m_pdc &&
        ((uint64_t(r.remote_ip) << 16) | r.remote_pdc) != *m_pdc)
        return false;
    return true;
}

bool uet_monitor_selection::trigger_fires(const uet_monitor_row& r) const
{
    if (m_on_rtt && r.has_rtt && r.rtt_ns >= m_rtt_threshold_ns) return true;
    if (m_on_penalty) {
        if (r.has_penalty && r.penalty >= m_penalty_threshold) return true;  // an ACK's
        if (r.has_sender_penalty && r.sender_penalty >= m_penalty_threshold) return true;
    }
    return false;
}

bool uet_monitor_selection::wanted(const uet_monitor_row& r, bool* triggered)
{
    if (m_everything) return true;
    const uint64_t c = connection(r);
    if (m_selected.count(c)) return true;
    if (filters_match(r)) {
        m_selected.insert(c);
        return true;
    }
    if (m_triggers_left > 0 && trigger_fires(r)) {
        --m_triggers_left;
        m_selected.insert(c);
        if (triggered) *triggered = true;
        return true;
    }
    return false;
}

}  // namespace uetsim
