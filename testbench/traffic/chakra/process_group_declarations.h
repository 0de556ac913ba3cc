// The process groups a Chakra trace declares (et_reader.h, PROCESS GROUPS): group JSON, and the
// Python list of strings that PyTorch's converter leaves in a "process_group:init" node's
// inputs, parsed into groups and merged per trace. Kernel-free.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "testbench/traffic/chakra/trace_error.h"
#include "testbench/traffic/chakra/trace_model.h"

namespace uetsim::chakra {

// A declared group, and whether it is "all ranks" (no members and no size given).
struct declared_group
{
    process_group group;
    bool world = false;
};

// What is wrong with a declaration; the caller says where it is.
struct bad_declaration : std::invalid_argument
{
    using std::invalid_argument::invalid_argument;
};

// The groups of group JSON `text` (a list, one group object, or a dict of them), appended to
// `out`; throws bad_declaration.
void collect_groups(const std::string& text, std::vector<declared_group>& out);
// The inputs.values of a "process_group:init" node (declaration 3 of et_reader.h).
void collect_groups_from_inputs(const std::string& values, std::vector<declared_group>& out);

// The groups of one trace, merged across its declarations.
class group_table
{
public:
    void add(std::vector<declared_group> found, const std::string& path,
             const std::optional<uint64_t>& node)
    {
        for (auto& d : found) {
            auto it = m_index.find(d.group.name);
            if (it == m_index.end()) {
                m_index.emplace(d.group.name, m_groups.size());
                m_groups.push_back(std::move(d));
                continue;
            }
            const auto& known = m_groups[it->second];
            if (known.group.ranks == d.group.ranks && known.world == d.world) continue;
            const std::string what =
                "process group '" + d.group.name + "' is declared twice with different ranks";
            if (node) throw trace_error(path, *node, what);
            throw trace_error(path, what);
        }
    }

    void move_to(rank_trace& t, std::vector<size_t>* world)
    {
        for (size_t i = 0; i < m_groups.size(); ++i) {
            if (m_groups[i].world && world) world->push_back(i);
            t.groups.push_back(std::move(m_groups[i].group));
        }
    }

private:
    std::vector<declared_group> m_groups;
    std::map<std::string, size_t> m_index;
};

}  // namespace uetsim::chakra
