// A VCD read back for system tests: the signals' full names (scope.scope.name) and every value
// change in time order. An FST is read through gtkwave's fst2vcd (shell_output).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace uetsim::test {

struct vcd
{
    struct change
    {
        uint64_t t;  // ps
        std::string name;
        uint64_t value;
    };
    std::vector<change> changes;
    std::vector<std::string> names;
    uint64_t last_time = 0;

    // The changes of one signal, in time order.
    std::vector<change> of(const std::string& name) const;
    // The value `name` holds at `t`: its last change at or before t (0 before the first).
    uint64_t at(const std::string& name, uint64_t t) const;
};

vcd parse_vcd(const std::string& text);

}  // namespace uetsim::test
