// The key of a key path without its section: "Switch.EcmpHashMethod" -> "EcmpHashMethod" (the
// whole path if it has no section), as messages and the printed scenario show a key under its
// section or Section[glob].
#pragma once

#include <string>

namespace uetsim::config {

inline std::string key_name(const std::string& path)
{
    auto dot = path.find('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

}  // namespace uetsim::config
