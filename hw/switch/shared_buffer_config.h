// The switch's shared buffer as the shared-buffer page sets it up at start: the SharedBufferManager
// attributes (the configuration page's names, defaults and stop rules) and the five stages that
// turn them into a layout (headroom, pools, priority groups, egress limits with the static limit
// the ECN band is a fraction of, Xoff/Xon), plus the UET-policy variant and the lossless-class
// sizing rule. Pure arithmetic, computed once per switch; shared_buffer_accounting applies the
// layout at run time (docs/buffers-and-pfc.md).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hw/common/value_range.h"
#include "hw/switch/admission_policy.h"
#include "hw/switch/shared_buffer_pool.h"

namespace uetsim {

inline constexpr int shared_buffer_pools = 8;    // pools 0..7
inline constexpr int shared_buffer_classes = 8;  // TC0..TC7

struct shared_buffer_config
{
    // Attributes of the page's `SharedBufferManager`; the eight-entry lists are kept as parsed
    // (any count) so validate() can apply the page's shape rules to what the user wrote.
    uint64_t total_shared_buffer_size_bytes = 256'000'000;  // TotalSharedBufferSize 256MB
    std::vector<double> pool_allocation_map{0.9, 0.1, 0, 0, 0, 0, 0, 0};     // PoolAllocationMap
    std::vector<double> traffic_class_pool_mapping{0, 1, 0, 0, 0, 0, 0, 0};  // TC -> pool
    std::vector<double> enable_pfc{1, 1, 0, 0, 0, 0, 0, 0};                  // EnablePFC per TC
    uint64_t head_room_per_port_limit_bytes = 256'000;    // HeadRoomPerPortLimit 256KB
    uint64_t static_pool_xoff_threshold_bytes = 700'000;  // StaticPoolXoffThreshold 700KB
    uint64_t static_pool_xon_threshold_bytes = 300'000;   // StaticPoolXonThreshold 300KB
    double lossy_alpha = 1.0;                             // LossyAlpha; 0 selects a fixed limit
    bool queue_drop_threshold_enable = false;             // QueueDropThresholdEnable
    uint32_t queue_drop_threshold = 5;                    // QueueDropThreshold, x PlaneBDP
    uint64_t plane_bdp_bytes = 300'000;                   // PlaneBDP 300KB
    double buffer_stats_report_interval_s = 1e-3;         // BufferStatsReportInterval

    // Switch attributes the layout depends on: UETPolicyEnabled (pages' default false), the
    // output-files page's ReportPerPortBufferStats and the switch's packet
    // trimming (Switch.TrimmingEnabled), which sets the UET policy's fixed limit.
    bool uet_policy_enabled = false;
    bool report_per_port_buffer_stats = false;
    bool trimming_enabled = false;
    // Not a key: an admission policy from outside the tree (tests/seams), which replaces the
    // stage 4 form the keys choose; null: theirs.
    std::shared_ptr<const admission_policy> admission;

    // A `bytes` value is at most 4,294,967,295 (configuration page). The other ranges are
    // uetsim's: the page gives a type but no range, and these keep the arithmetic meaningful.
    static constexpr value_range bytes_range{0, 4'294'967'295.0};
    static constexpr value_range lossy_alpha_range{0, 1e6};
    static constexpr value_range queue_drop_threshold_range{1, 1000};  // as Switch.* today
    static constexpr value_range plane_bdp_range{1, 4'294'967'295.0};
    static constexpr value_range buffer_stats_report_interval_range{1e-9, 1e3};

    // Every rule that would stop the run, as one message each naming the key, the value and
    // what is allowed; empty when valid. The first form leaves out the rule that needs the
    // port count (total headroom within TotalSharedBufferSize); the second applies it too.
    std::vector<std::string> validate() const;
    std::vector<std::string> validate(uint32_t connected_ports) const;
};

// An eight-entry list attribute as the platform writes it, "0.9, 0.1, 0, ..." with or without
// the square brackets. On an entry that is not a number, returns false and names it in `error`
// (with `key`); the count of entries is validate()'s to check.
bool parse_shared_buffer_list(std::string_view key, std::string_view text, std::vector<double>& out,
                              std::string& error);

struct ecn_band
{
    uint64_t min_bytes = 0;  // MinThreshold x static limit
    uint64_t max_bytes = 0;  // MaxThreshold x static limit
};

struct shared_buffer_layout
{
    uint32_t connected_ports = 0;
    uint64_t total_bytes = 0;           // TotalSharedBufferSize
    uint64_t total_headroom_bytes = 0;  // Stage 1: HeadRoomPerPortLimit x connected ports
    uint64_t total_credit_bytes = 0;    // Stage 1: the CBFC credit its ports advertise
    uint64_t sizing_total_bytes = 0;    // what the pools divide
    std::array<shared_buffer_pool, shared_buffer_pools> pools{};
    std::array<uint8_t, shared_buffer_classes> tc_pool{};  // Stage 3
    uint8_t lossless_classes = 0;                          // bit t: EnablePFC[t] is 1
    admission_form admission;                              // Stage 4
    uint64_t xoff_bytes = 0;                               // Stage 5, every port and pool
    uint64_t xon_bytes = 0;

    uint8_t pool_of(uint8_t tc) const { return tc_pool[tc]; }
    bool lossless(uint8_t tc) const { return (lossless_classes >> tc) & 1u; }

    // A lossy queue's egress limit in `pool` when the pool holds `pool_egress_bytes` at egress
    // across all ports; `trimmable_rtx`: the packet carries the trimmable-retransmit codepoint.
    double egress_queue_limit(uint8_t pool, uint64_t pool_egress_bytes, bool trimmable_rtx) const
    {
        return egress_limit_of(admission, pools[pool], pool_egress_bytes, trimmable_rtx);
    }
    // The stage 4 form this switch runs (admission_policy::name).
    std::string_view admission_name() const { return policy_of(admission).name(); }

    // The ECN band of `pool`: EcnHandler's MinThreshold and MaxThreshold x its static limit.
    ecn_band ecn_thresholds(uint8_t pool, double min_threshold, double max_threshold) const;
};

// Stages 1 to 5 for a switch with `connected_ports` linked ports, `credit_reserved_bytes` of
// them set aside for CBFC credit with the headroom. `cfg` must be valid: throws
// std::invalid_argument with validate(connected_ports)'s messages otherwise.
shared_buffer_layout derive_shared_buffer_layout(const shared_buffer_config& cfg,
                                                 uint32_t connected_ports,
                                                 uint64_t credit_reserved_bytes = 0);

// The sizing rule of a lossless class (page: "Sizing a lossless class").
// Condition 1, guidance: 2 x link rate x one-way delay / 8 + 2 x MTU.
uint64_t headroom_guidance_bytes(double link_rate_bps, double one_way_delay_s, uint64_t mtu_bytes);
// Condition 2: connected ports x (Xoff + largest packet), the pool a lossless class needs.
uint64_t lossless_pool_need_bytes(uint32_t connected_ports, uint64_t xoff_bytes,
                                  uint64_t largest_packet_bytes);
// How many ports' pause points (Xoff + largest packet) fit in a pool of `pool_bytes`.
uint64_t pause_points_in_pool(uint64_t pool_bytes, uint64_t xoff_bytes,
                              uint64_t largest_packet_bytes);
// The largest Xoff with which `pool_bytes` meets condition 2 (0 when none does).
uint64_t largest_xoff_for_pool(uint64_t pool_bytes, uint32_t connected_ports,
                               uint64_t largest_packet_bytes);

struct lossless_class_sizing
{
    uint8_t tc = 0;
    uint8_t pool = 0;
    bool own_pool = false;           // condition 3: no other class is mapped to its pool
    bool pool_holds_pauses = false;  // condition 2
    bool headroom_covers = false;    // condition 1, against `in_flight_bytes`
    bool no_ingress_drop() const { return own_pool && pool_holds_pauses && headroom_covers; }
};
// The three conditions for every lossless class of `layout`, for packets of at most
// `largest_packet_bytes` and `in_flight_bytes` arriving after a pause.
std::vector<lossless_class_sizing> check_lossless_sizing(const shared_buffer_layout& layout,
                                                         uint64_t largest_packet_bytes,
                                                         uint64_t in_flight_bytes);

}  // namespace uetsim
