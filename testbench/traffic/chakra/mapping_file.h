// Chakra mapping files (`chakra-mapping.txt`): which server runs each rank, and the scale-up
// groups (docs: chakra-mapping-files). The parser applies every rule the page checks at upload;
// check_mapping() adds the two that need the topology and the traceset. Kernel-free.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace uetsim::chakra {

// Every rule a mapping file breaks: "<file>: line <n>: <reason>", "<file>: rank <r> is missing"
// or, from check_mapping(), a message naming the serverId or the counts.
class mapping_error : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// One Section I line: ChakraLogicalId, serverId [, ScaleUpGroupId, ScaleUpSubgroupId].
struct mapping_entry
{
    uint32_t rank = 0;                 // ChakraLogicalId
    uint32_t server = 0;               // serverId: the host number in the topology
    std::optional<uint32_t> group;     // ScaleUpGroupId (both or neither)
    std::optional<uint32_t> subgroup;  // ScaleUpSubgroupId
};

// One Section II line.
struct scale_up_group_params
{
    uint32_t id = 0;                       // ScaleUpGroupId
    double bandwidth_gbps = 0;             // ScaleUpBandwidthGbps
    double per_hop_switch_latency_ns = 0;  // ScaleUpPerHopSwitchLatencyNs
    double npu_cable_latency_ns = 0;       // ScaleUpNpuCableLatencyNs
};

struct mapping
{
    std::vector<mapping_entry> by_rank;         // index = rank, 0 .. rankCount - 1
    std::vector<scale_up_group_params> groups;  // by ascending id (declared ones, used or not)

    // True when some rank is placed in a scale-up group.
    bool has_scale_up() const;
    // The declared group `id`, or null.
    const scale_up_group_params* group(uint32_t id) const;
};

// Parses a mapping file's bytes; `file_name` starts every message. Throws mapping_error.
mapping parse_mapping(std::string_view text, const std::string& file_name);

// Reads and parses the file at `path` (named by `path` in messages). Throws mapping_error.
mapping read_mapping_file(const std::string& path);

// The checks that need the run: the file places exactly `rank_count` ranks (the traceset's), and
// every serverId is a host of the topology (0 .. host_count - 1). Throws mapping_error.
void check_mapping(const mapping& m, uint32_t rank_count, uint32_t host_count,
                   const std::string& file_name);

}  // namespace uetsim::chakra
