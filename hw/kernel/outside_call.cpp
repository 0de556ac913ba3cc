#include "hw/kernel/outside_call.h"

#include "hw/kernel/model_scheduler.h"

namespace uetsim {

uint64_t call_outside_model(const std::function<void()>& call)
{
    return model_scheduler::instance().call_outside(call);
}

}  // namespace uetsim
