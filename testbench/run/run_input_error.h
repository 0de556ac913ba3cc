// Bad input that only the built fabric reveals (a capture link that does not exist, an RTL
// block too small for the device's configuration): the command reports it like a key error,
// exit code 2, naming the key, the value and what is allowed.
#pragma once

#include <stdexcept>
#include <string>

namespace uetsim {

class run_input_error : public std::invalid_argument
{
public:
    explicit run_input_error(const std::string& what) : std::invalid_argument(what) {}
};

}  // namespace uetsim
