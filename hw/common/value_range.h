// The allowed range of a configuration attribute, written once next to its field in hw's config
// headers: the scenario schema registers the key with it (sim/config/keys_*.cpp) and hw's own
// validators (nscc_config_errors, entropy_config_error) check it, so the two cannot drift.
#pragma once

namespace uetsim {

// Inclusive at both ends; integer attributes hold whole numbers.
struct value_range
{
    double lo;
    double hi;

    constexpr bool contains(double v) const { return v >= lo && v <= hi; }
};

}  // namespace uetsim
