// What a scenario stops with when it is resolved: the config tests of bad input compare the
// message, which names the key, the value and what is allowed.
#pragma once

#include <string>
#include <vector>

#include "sim/config/loader.h"

namespace uetsim::config::test {

// The message resolving `yaml` with the --set arguments `sets` stops with, or "no error".
inline std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {})
{
    try {
        resolve_text(yaml, sets);
    } catch (const config_error& e) {
        return e.what();
    }
    return "no error";
}

inline bool has(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}

}  // namespace uetsim::config::test
