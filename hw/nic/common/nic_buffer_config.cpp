#include "hw/nic/common/nic_buffer_config.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace uetsim {

namespace {
// Fractions of a byte count, to the byte below: 0.9 x 256,000 is 230,399.99999999997 in binary.
uint64_t fraction_of(double f, uint64_t bytes)
{
    return uint64_t(std::floor(f * double(bytes) + 1e-6));
}

std::string number(double v)
{
    std::ostringstream o;
    o << v;
    return o.str();
}
}  // namespace

uint64_t nic_buffer_settings::pool_bytes(int c) const
{
    if (c < 0 || c >= classes()) return 0;
    return fraction_of(pool_allocation[c], total_buffer_bytes);
}

int nic_buffer_settings::classes() const
{
    int n = 0;
    while (n < k_tc_count && pool_allocation[n] > 0) ++n;
    return n;
}

uint64_t nic_ingress_settings::xoff_bytes(int c) const
{
    return fraction_of(xoff_fraction[c], pool_bytes(c));
}

uint64_t nic_ingress_settings::xon_bytes(int c) const
{
    return fraction_of(xon_fraction[c], pool_bytes(c));
}

nic_buffer_settings default_egress_buffer()
{
    nic_buffer_settings s;
    s.total_buffer_bytes = 256'000;
    s.pool_allocation = {0.9, 0.1, 0, 0, 0, 0, 0, 0};
    s.wrr_weights = {1, 5, 0, 0, 0, 0, 0, 0};
    return s;
}

nic_ingress_settings default_ingress_buffer()
{
    nic_ingress_settings s;
    s.total_buffer_bytes = 4'000'000;
    s.pool_allocation = {0.9, 0.1, 0, 0, 0, 0, 0, 0};
    s.wrr_weights = {1, 3, 0, 0, 0, 0, 0, 0};
    s.xoff_fraction = {0.8, 0.8, 0, 0, 0, 0, 0, 0};
    s.xon_fraction = {0.4, 0.4, 0, 0, 0, 0, 0, 0};
    s.quanta = {65535, 65535, 0, 0, 0, 0, 0, 0};
    return s;
}

nic_buffer_settings roce_default_egress_buffer()
{
    nic_buffer_settings s = default_egress_buffer();
    s.wrr_weights = {1, 3, 0, 0, 0, 0, 0, 0};
    return s;
}

nic_ingress_settings roce_default_ingress_buffer()
{
    nic_ingress_settings s = default_ingress_buffer();
    s.pfc_enable = {true, true, false, false, false, false, false, false};
    return s;
}

std::string pool_allocation_error(const nic_buffer_settings& s, const std::string& prefix)
{
    const std::string key = prefix + "PoolAllocationVector";
    const std::string value = format_class_list(s.pool_allocation);
    for (int c = 0; c < k_tc_count; ++c)
        if (!(s.pool_allocation[c] >= 0 && s.pool_allocation[c] <= 1))
            return key + " = " + value + ": entry " + std::to_string(c) + " is outside 0.0 to 1.0";
    const int n = s.classes();
    for (int c = n; c < k_tc_count; ++c)
        if (s.pool_allocation[c] > 0)
            return key + " = " + value +
                   ": the non-zero entries must come first, from class 0 with no 0 between them";
    if (n < 2)
        return key + " = " + value +
               ": classes 0 and 1 need a non-zero share each (at least two non-zero entries)";
    return "";
}

std::string egress_pool_error(const nic_buffer_settings& s, const std::string& prefix,
                              uint32_t rdma_data_mss, int data_class, int control_class)
{
    return egress_pool_error(s, prefix,
                             {"RdmaDataMSS", rdma_data_mss, k_data_header_bytes, k_ack_wire_bytes},
                             data_class, control_class);
}

std::string egress_pool_error(const nic_buffer_settings& s, const std::string& prefix,
                              const egress_packet_sizes& sizes, int data_class, int control_class)
{
    const uint64_t packet = uint64_t(sizes.mss) + sizes.data_header_bytes;
    if (s.pool_bytes(data_class) < packet)
        return prefix + "PoolAllocationVector = " + format_class_list(s.pool_allocation) +
               " with " + prefix + "TotalBufferSize = " + std::to_string(s.total_buffer_bytes) +
               " B: the data class's pool (class " + std::to_string(data_class) + ", " +
               std::to_string(s.pool_bytes(data_class)) + " B) must hold one full data packet, " +
               sizes.mss_name + " + " + std::to_string(sizes.data_header_bytes) + " = " +
               std::to_string(packet) + " B";
    if (s.pool_bytes(control_class) < sizes.ack_wire_bytes)
        return prefix + "PoolAllocationVector = " + format_class_list(s.pool_allocation) +
               " with " + prefix + "TotalBufferSize = " + std::to_string(s.total_buffer_bytes) +
               " B: the control class's pool (class " + std::to_string(control_class) + ", " +
               std::to_string(s.pool_bytes(control_class)) + " B) must hold one " +
               std::to_string(sizes.ack_wire_bytes) + "-byte ACK";
    return "";
}

std::string wrr_weights_error(const nic_buffer_settings& s, const std::string& prefix)
{
    if (s.scheduling != queue_scheduling::weighted_round_robin) return "";
    if (s.wrr_weights[0] < 1 || s.wrr_weights[1] < 1) {
        std::array<double, k_tc_count> w{};
        for (int c = 0; c < k_tc_count; ++c) w[c] = s.wrr_weights[c];
        return prefix + "WRRQueueWeights = " + format_class_list(w) +
               ": with WeightedRoundRobin, classes 0 and 1 need a weight of at least 1 each";
    }
    return "";
}

bool parse_class_list(const std::string& text, std::array<double, k_tc_count>& out,
                      std::string& error)
{
    std::string t = text;
    for (char& ch : t)
        if (ch == '[' || ch == ']' || ch == ',') ch = ' ';
    std::istringstream in(t);
    std::array<double, k_tc_count> v{};
    int n = 0;
    std::string word;
    while (in >> word) {
        char* end = nullptr;
        const double d = std::strtod(word.c_str(), &end);
        if (end == word.c_str() || *end != '\0' || !std::isfinite(d)) {
            error = "'" + word + "' is not a number";
            return false;
        }
        if (n == k_tc_count) {
            error = "more than eight entries";
            return false;
        }
        v[n++] = d;
    }
    if (n != k_tc_count) {
        error =
            "eight entries are needed, one per traffic class, e.g. [0.9, 0.1, 0, 0, 0, 0, 0, 0]";
        return false;
    }
    out = v;
    return true;
}

std::string format_class_list(const std::array<double, k_tc_count>& v)
{
    std::string s = "[";
    for (int c = 0; c < k_tc_count; ++c) s += (c ? ", " : "") + number(v[c]);
    return s + "]";
}

}  // namespace uetsim
