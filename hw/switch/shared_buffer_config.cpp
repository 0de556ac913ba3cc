#include "hw/switch/shared_buffer_config.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace uetsim {

namespace {

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.12g", v);
    return buf;
}

std::string list_text(const std::vector<double>& v)
{
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + num(v[i]);
    return s + "]";
}

bool whole(double v)
{
    return std::isfinite(v) && v == std::floor(v);
}

// The shape rules shared by the three lists: exactly eight entries, each a number (finite),
// whole where the attribute holds class or pool numbers, within [lo, hi].
void check_list(std::vector<std::string>& errs, const char* key, const std::vector<double>& v,
                bool whole_numbers, double lo, double hi, const char* allowed)
{
    if (v.size() != size_t(shared_buffer_classes)) {
        errs.push_back(std::string(key) + " " + list_text(v) + " has " + std::to_string(v.size()) +
                       " entries; it needs exactly 8, one for each " +
                       (std::string(key) == "Switch.PoolAllocationMap" ? "pool" : "traffic class") +
                       " 0 to 7");
        return;
    }
    for (size_t i = 0; i < v.size(); ++i) {
        const bool bad_kind = whole_numbers ? !whole(v[i]) : !std::isfinite(v[i]);
        if (bad_kind || v[i] < lo || v[i] > hi)
            errs.push_back(std::string(key) + " " + list_text(v) + ": entry " + std::to_string(i) +
                           " is " + num(v[i]) + "; allowed: " + allowed);
    }
}

void check_range(std::vector<std::string>& errs, const char* key, double v, value_range r,
                 const char* unit)
{
    if (!r.contains(v))
        errs.push_back(std::string(key) + " " + num(v) + unit + " is outside " + num(r.lo) +
                       " to " + num(r.hi) + unit);
}

int last_allocated(const std::vector<double>& map)
{
    int last = -1;
    for (size_t i = 0; i < map.size(); ++i)
        if (map[i] != 0) last = int(i);
    return last;
}

}  // namespace

std::vector<std::string> shared_buffer_config::validate() const
{
    std::vector<std::string> errs;
    const char* b = " B";
    check_range(errs, "Switch.TotalSharedBufferSize", double(total_shared_buffer_size_bytes),
                bytes_range, b);
    check_range(errs, "Switch.HeadRoomPerPortLimit", double(head_room_per_port_limit_bytes),
                bytes_range, b);
    check_range(errs, "Switch.StaticPoolXoffThreshold", double(static_pool_xoff_threshold_bytes),
                bytes_range, b);
    check_range(errs, "Switch.StaticPoolXonThreshold", double(static_pool_xon_threshold_bytes),
                bytes_range, b);
    check_range(errs, "Switch.PlaneBDP", double(plane_bdp_bytes), plane_bdp_range, b);
    check_range(errs, "Switch.QueueDropThreshold", double(queue_drop_threshold),
                queue_drop_threshold_range, "");
    if (!std::isfinite(lossy_alpha) || !lossy_alpha_range.contains(lossy_alpha))
        errs.push_back("Switch.LossyAlpha " + num(lossy_alpha) + " is outside " +
                       num(lossy_alpha_range.lo) + " to " + num(lossy_alpha_range.hi) +
                       " (0 selects a fixed egress limit)");
    check_range(errs, "Switch.BufferStatsReportInterval", buffer_stats_report_interval_s,
                buffer_stats_report_interval_range, " s");

    // The page's shape rules; the value ranges are the attributes' stated meanings (a fraction,
    // a pool number 0..7, a 0/1 flag), without which the layout cannot be formed.
    check_list(errs, "Switch.EnablePFC", enable_pfc, true, 0, 1, "0 (lossy) or 1 (lossless)");
    check_list(errs, "Switch.TrafficClassPoolMapping", traffic_class_pool_mapping, true, 0,
               shared_buffer_pools - 1, "a whole pool number 0 to 7");
    const size_t before = errs.size();
    check_list(errs, "Switch.PoolAllocationMap", pool_allocation_map, false, 0, 1,
               "a fraction 0.0 to 1.0");
    if (errs.size() == before) {
        const int last = last_allocated(pool_allocation_map);
        if (last < 0) {
            errs.push_back("Switch.PoolAllocationMap " + list_text(pool_allocation_map) +
                           " has no non-zero entry; at least one pool must get a fraction");
        } else {
            // "Sums to more than 1 by more than its last non-zero entry" is the same as the
            // entries before that one summing to more than 1: the remainder the last pool
            // absorbs would make it negative. A tolerance keeps binary fractions from tripping it.
            double others = 0;
            for (int i = 0; i < last; ++i) others += pool_allocation_map[size_t(i)];
            if (others > 1.0 + 1e-9)
                errs.push_back("Switch.PoolAllocationMap " + list_text(pool_allocation_map) +
                               " sums to " + num(others + pool_allocation_map[size_t(last)]) +
                               ", more than 1 by more than its last non-zero entry (" +
                               num(pool_allocation_map[size_t(last)]) +
                               "); make the entries sum to 1");
        }
    }

    // Trimming and PFC exclude each other (UET policy; the UET NIC configuration page). That
    // trimming needs the UET policy is Switch.TrimmingEnabled's own rule (sim/config).
    if (trimming_enabled && enable_pfc.size() == size_t(shared_buffer_classes)) {
        for (double e : enable_pfc)
            if (e != 0) {
                errs.push_back(
                    "Switch.EnablePFC " + list_text(enable_pfc) +
                    " enables PFC while Switch.TrimmingEnabled is true; trimming "
                    "needs PFC off for every class (all entries 0: set Switch.EnablePFC: "
                    "[0, 0, 0, 0, 0, 0, 0, 0])");
                break;
            }
    }
    return errs;
}

std::vector<std::string> shared_buffer_config::validate(uint32_t connected_ports) const
{
    std::vector<std::string> errs = validate();
    const uint64_t headroom = head_room_per_port_limit_bytes * connected_ports;
    if (headroom > total_shared_buffer_size_bytes)
        errs.push_back(
            "Switch.HeadRoomPerPortLimit " + std::to_string(head_room_per_port_limit_bytes) +
            " B x " + std::to_string(connected_ports) +
            " connected ports = " + std::to_string(headroom) + " B of headroom is larger than " +
            "Switch.TotalSharedBufferSize " + std::to_string(total_shared_buffer_size_bytes) +
            " B; allowed: at most TotalSharedBufferSize / connected ports = " +
            std::to_string(connected_ports ? total_shared_buffer_size_bytes / connected_ports
                                           : total_shared_buffer_size_bytes) +
            " B");
    return errs;
}

bool parse_shared_buffer_list(std::string_view key, std::string_view text, std::vector<double>& out,
                              std::string& error)
{
    out.clear();
    auto trim = [](std::string_view s) {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
        return s;
    };
    text = trim(text);
    if (!text.empty() && text.front() == '[' && text.back() == ']')
        text = trim(text.substr(1, text.size() - 2));
    if (text.empty()) return true;
    size_t index = 0;
    while (true) {
        const size_t comma = text.find(',');
        const std::string entry(trim(text.substr(0, comma)));
        char* end = nullptr;
        const double v = entry.empty() ? 0 : std::strtod(entry.c_str(), &end);
        if (entry.empty() || *end != '\0' || !std::isfinite(v)) {
            error = std::string(key) + " entry " + std::to_string(index) + " \"" + entry +
                    "\" is not a number; allowed: eight comma-separated numbers";
            return false;
        }
        out.push_back(v);
        if (comma == std::string_view::npos) return true;
        text = text.substr(comma + 1);
        ++index;
    }
}

ecn_band shared_buffer_layout::ecn_thresholds(uint8_t pool, double min_threshold,
                                              double max_threshold) const
{
    const double base = double(pools[pool].static_egress_limit_bytes);
    return {uint64_t(std::llround(min_threshold * base)),
            uint64_t(std::llround(max_threshold * base))};
}

shared_buffer_layout derive_shared_buffer_layout(const shared_buffer_config& cfg,
                                                 uint32_t connected_ports,
                                                 uint64_t credit_reserved_bytes)
{
    const std::vector<std::string> errs = cfg.validate(connected_ports);
    if (!errs.empty()) {
        std::string all;
        for (const auto& e : errs) all += (all.empty() ? "" : "\n") + e;
        throw std::invalid_argument(all);
    }
    shared_buffer_layout l;
    l.connected_ports = connected_ports;

    // Stage 1: headroom for every connected port comes off the top.
    l.total_bytes = cfg.total_shared_buffer_size_bytes;
    l.total_headroom_bytes = cfg.head_room_per_port_limit_bytes * connected_ports;
    // CBFC: the credit every CBFC port advertises is set aside next to the headroom (its frames
    // are charged there, never to a pool; docs/link-layer.md).
    if (l.total_headroom_bytes + credit_reserved_bytes > l.total_bytes)
        throw std::invalid_argument("CBFC credit space " + std::to_string(credit_reserved_bytes) +
                                    " B and headroom " + std::to_string(l.total_headroom_bytes) +
                                    " B exceed Switch.TotalSharedBufferSize " +
                                    std::to_string(l.total_bytes) + " B");
    l.total_credit_bytes = credit_reserved_bytes;
    l.sizing_total_bytes = l.total_bytes - l.total_headroom_bytes - credit_reserved_bytes;
    const uint64_t sizing = l.sizing_total_bytes;

    // Stage 2: pool sizes. Each entry's share is rounded to a byte; whatever the shares do not
    // cover, or cover twice, moves to the last allocated pool so the pools sum to the sizing
    // total. Under the UET policy: three pools 1.5 : 1 : 1 (3/7, 2/7, the rest).
    int last = -1;
    if (cfg.uet_policy_enabled) {
        const uint64_t shares[3] = {sizing * 3 / 7, sizing * 2 / 7, 0};
        for (int i = 0; i < 3; ++i) {
            l.pools[size_t(i)].allocated = true;
            l.pools[size_t(i)].nominal_bytes = shares[i];
        }
        last = 2;
        l.pools[2].nominal_bytes = sizing - shares[0] - shares[1];
    } else {
        for (int i = 0; i < shared_buffer_pools; ++i) {
            const double f = cfg.pool_allocation_map[size_t(i)];
            if (f == 0) continue;
            l.pools[size_t(i)].allocated = true;
            l.pools[size_t(i)].nominal_bytes = uint64_t(std::llround(f * double(sizing)));
            last = i;
        }
    }
    uint64_t others = 0;
    for (int i = 0; i < shared_buffer_pools; ++i) {
        if (i == last) continue;
        l.pools[size_t(i)].bytes = l.pools[size_t(i)].nominal_bytes;
        others += l.pools[size_t(i)].nominal_bytes;
    }
    l.pools[size_t(last)].bytes = sizing > others ? sizing - others : 0;

    // Stage 3: classes to pools (under the UET policy each class has the pool with its number;
    // the classifier produces only TC0..TC2) and the priority groups.
    for (int t = 0; t < shared_buffer_classes; ++t) {
        const uint8_t pool = cfg.uet_policy_enabled
                                 ? uint8_t(t < 3 ? t : 0)
                                 : uint8_t(cfg.traffic_class_pool_mapping[size_t(t)]);
        l.tc_pool[size_t(t)] = pool;
        const uint8_t bit = uint8_t(1u << t);
        l.pools[pool].classes |= bit;
        if (cfg.enable_pfc[size_t(t)] != 0) {
            l.lossless_classes |= bit;
            l.pools[pool].lossless_classes |= bit;
        }
    }
    for (auto& p : l.pools)
        p.headroom_limit_bytes = p.lossless_classes ? cfg.head_room_per_port_limit_bytes : 0;

    // Stage 4: the admission policy (the keys' form, or one from outside) fixes each pool's
    // egress limit and the static limit ECN reads.
    const uint64_t cap = uint64_t(cfg.queue_drop_threshold) * cfg.plane_bdp_bytes;
    if (cfg.admission)
        l.admission = cfg.admission;
    else if (cfg.uet_policy_enabled)
        l.admission = uet_policy_egress_limit(cfg.trimming_enabled ? cfg.plane_bdp_bytes : cap);
    else if (cfg.lossy_alpha > 0)
        l.admission = dynamic_egress_limit(cfg.lossy_alpha);
    else if (cfg.queue_drop_threshold_enable)
        l.admission = fixed_cap_egress_limit(cap);
    else
        l.admission = even_split_egress_limit(connected_ports);
    const admission_policy& stage4 = policy_of(l.admission);
    for (auto& p : l.pools) stage4.size(p);

    // Stage 5: the same Xoff and Xon for every port and pool.
    l.xoff_bytes = cfg.static_pool_xoff_threshold_bytes;
    l.xon_bytes = cfg.static_pool_xon_threshold_bytes;
    return l;
}

uint64_t headroom_guidance_bytes(double link_rate_bps, double one_way_delay_s, uint64_t mtu_bytes)
{
    return uint64_t(std::llround(2.0 * link_rate_bps * one_way_delay_s / 8.0)) + 2 * mtu_bytes;
}

uint64_t lossless_pool_need_bytes(uint32_t connected_ports, uint64_t xoff_bytes,
                                  uint64_t largest_packet_bytes)
{
    return uint64_t(connected_ports) * (xoff_bytes + largest_packet_bytes);
}

uint64_t pause_points_in_pool(uint64_t pool_bytes, uint64_t xoff_bytes,
                              uint64_t largest_packet_bytes)
{
    return pool_bytes / (xoff_bytes + largest_packet_bytes);
}

uint64_t largest_xoff_for_pool(uint64_t pool_bytes, uint32_t connected_ports,
                               uint64_t largest_packet_bytes)
{
    if (connected_ports == 0) return pool_bytes;
    const uint64_t per_port = pool_bytes / connected_ports;
    return per_port > largest_packet_bytes ? per_port - largest_packet_bytes : 0;
}

std::vector<lossless_class_sizing> check_lossless_sizing(const shared_buffer_layout& layout,
                                                         uint64_t largest_packet_bytes,
                                                         uint64_t in_flight_bytes)
{
    std::vector<lossless_class_sizing> out;
    for (int t = 0; t < shared_buffer_classes; ++t) {
        if (!layout.lossless(uint8_t(t))) continue;
        lossless_class_sizing s;
        s.tc = uint8_t(t);
        s.pool = layout.pool_of(uint8_t(t));
        const shared_buffer_pool& p = layout.pools[s.pool];
        s.own_pool = p.classes == uint8_t(1u << t);
        s.pool_holds_pauses =
            p.bytes >= lossless_pool_need_bytes(layout.connected_ports, layout.xoff_bytes,
                                                largest_packet_bytes);
        s.headroom_covers = p.headroom_limit_bytes >= in_flight_bytes;
        out.push_back(s);
    }
    return out;
}

}  // namespace uetsim
