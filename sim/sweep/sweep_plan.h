// What a sweep runs: axes (a scenario key and its values), the Exclude rules, and the runs they
// give (the cross product in file order, first axis outermost) with readable run ids. Pure logic:
// the sweep file reader (sweep_file.h) fills it, the runners execute its runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace uetsim::sweep {

struct axis
{
    std::string key;                  // a scenario key path as --set takes it
    std::vector<std::string> values;  // each as --set value text
};

// One Exclude rule: a run is left out when it has every one of these axis values.
struct exclude_rule
{
    std::vector<std::pair<size_t, size_t>> match;  // (axis index, value index)
};

struct run
{
    size_t index = 0;                 // position in the cross product (the summary's row order)
    std::string id;                   // folder name: "PacketSprayingType=None_RandomSeed=7"
    std::vector<size_t> value_index;  // one per axis
};

class plan
{
public:
    std::string base;               // scenario file (absolute), empty: the embedded default
    std::vector<std::string> sets;  // "Key=VALUE" applied to every run, before the axes
    std::vector<axis> axes;
    std::vector<exclude_rule> excludes;

    // The runs in cross-product order, excluded ones left out (indices stay dense).
    std::vector<run> runs() const;
    // The --set assignments of one run: Set first, then its axis values.
    std::vector<std::string> run_sets(const run& r) const;
};

// The values of a {From, To, Step} range: "1".."20", or with one unit shared by all three
// ("1us".."5us"). Throws std::invalid_argument naming the problem (Step not positive, To below
// From, more than max_range_values values, mismatched units).
constexpr size_t max_range_values = 100000;
std::vector<std::string> range_values(const std::string& from, const std::string& to,
                                      const std::string& step);

// Whether two value texts mean the same value: equal text, or equal numbers ("7" and "7.0").
bool same_value(const std::string& a, const std::string& b);

// A value as a folder-name fragment: letters, digits and . + - kept, runs of anything else
// become one '-' ("Default Packet Spraying" -> "Default-Packet-Spraying"). A run id joins
// "Label=fragment" with '_', which a fragment therefore never holds.
std::string id_fragment(const std::string& value);

}  // namespace uetsim::sweep
