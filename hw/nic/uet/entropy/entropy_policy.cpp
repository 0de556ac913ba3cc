#include "hw/nic/uet/entropy/entropy_policy.h"

namespace uetsim {

// Out of line so the vtable has one home.
entropy_policy::~entropy_policy() = default;

const char* entropy_choice_name(entropy_choice c)
{
    switch (c) {
        case entropy_choice::none_yet:
            return "none_yet";
        case entropy_choice::fixed:
            return "fixed";
        case entropy_choice::round_robin:
            return "round_robin";
        case entropy_choice::explored:
            return "explored";
        case entropy_choice::reused:
            return "reused";
        case entropy_choice::frozen:
            return "frozen";
    }
    return "";
}

}  // namespace uetsim
