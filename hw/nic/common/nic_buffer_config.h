// The UET NIC's two buffers as the buffers-and-PFC page sizes them: the EgressBufferManager and
// the IngressBufferManager, each a TotalBufferSize divided into one pool per traffic class by its
// PoolAllocationVector, with the ingress buffer's PFC lists (PFCEnableVector, Xoff/Xon fractions
// of each class's own pool, QuantaValue) and the egress buffer's transmit scheduling. Pure
// arithmetic and the page's configuration rules; the NIC port holds the run-time state.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace uetsim {

inline constexpr int k_tc_count = 8;

// QueueSchedulingType (ProbabilisticWeightedRoundRobin is refused by the page's rules).
enum class queue_scheduling : uint8_t { strict_priority, round_robin, weighted_round_robin };

struct nic_buffer_settings
{
    uint64_t total_buffer_bytes = 0;                   // TotalBufferSize
    std::array<double, k_tc_count> pool_allocation{};  // PoolAllocationVector
    queue_scheduling scheduling = queue_scheduling::strict_priority;
    std::array<uint32_t, k_tc_count> wrr_weights{};  // WRRQueueWeights

    // The pool of class c: PoolAllocationVector[c] x TotalBufferSize, 0 for a class without one.
    uint64_t pool_bytes(int c) const;
    // Classes 0 .. classes()-1 have a pool (the non-zero entries come first).
    int classes() const;
};

struct nic_ingress_settings : nic_buffer_settings
{
    std::array<bool, k_tc_count> pfc_enable{};       // PFCEnableVector
    std::array<double, k_tc_count> xoff_fraction{};  // PfcStaticXoffThreshold
    std::array<double, k_tc_count> xon_fraction{};   // PfcXonResumeThreshold
    std::array<uint16_t, k_tc_count> quanta{};       // QuantaValue

    uint64_t xoff_bytes(int c) const;  // PfcStaticXoffThreshold[c] x pool for class c
    uint64_t xon_bytes(int c) const;   // PfcXonResumeThreshold[c] x pool for class c
};

// The page's defaults: egress 256 KB [0.9, 0.1] StrictPriority weights [1, 5]; ingress 4 MB
// [0.9, 0.1] StrictPriority weights [1, 3], PFC off, Xoff [0.8, 0.8], Xon [0.4, 0.4], quanta
// [65535, 65535] (the other classes' entries 0, as the configuration page lists them).
nic_buffer_settings default_egress_buffer();
nic_ingress_settings default_ingress_buffer();
// The RoCE NIC page's: the same, but egress weights [1, 3] and PFC on for TC0 and TC1.
nic_buffer_settings roce_default_egress_buffer();
nic_ingress_settings roce_default_ingress_buffer();

// A data packet's size on the wire (payload + 106 B) and its charge in a receive pool (without
// the Ethernet header and FCS, 18 B); the smallest control frame, an ACK, is 78 B on the wire.
inline constexpr uint32_t k_data_header_bytes = 106;
inline constexpr uint32_t k_rx_uncharged_bytes = 18;
inline constexpr uint32_t k_ack_wire_bytes = 78;

// The configuration rules that stop a run: "" when `s` (keys under `prefix`, e.g.
// "UetNic.Egress") is valid, else a message naming the key, its value and what is allowed.
std::string pool_allocation_error(const nic_buffer_settings& s, const std::string& prefix);
// Egress: the data class's pool holds one full data packet, the control class's one ACK.
std::string egress_pool_error(const nic_buffer_settings& s, const std::string& prefix,
                              uint32_t rdma_data_mss, int data_class, int control_class);
// The same for any NIC: its MSS key's name and value, a data packet's header bytes on the wire
// and its ACK's size (the RoCE NIC: MSS + 58 B, a 126-byte ACK).
struct egress_packet_sizes
{
    std::string mss_name;  // RdmaDataMSS, MSS
    uint32_t mss = 0;
    uint32_t data_header_bytes = 0;
    uint32_t ack_wire_bytes = 0;
};
std::string egress_pool_error(const nic_buffer_settings& s, const std::string& prefix,
                              const egress_packet_sizes& sizes, int data_class, int control_class);
std::string wrr_weights_error(const nic_buffer_settings& s, const std::string& prefix);

// "[0.9, 0.1, 0, 0, 0, 0, 0, 0]" (brackets optional, eight comma-separated entries) into
// `out`; false with `error` set otherwise.
bool parse_class_list(const std::string& text, std::array<double, k_tc_count>& out,
                      std::string& error);
std::string format_class_list(const std::array<double, k_tc_count>& v);

}  // namespace uetsim
