// The hook a traced component calls after its state may have changed (waveforms, Trace.*). The
// probe lives on the testbench side and reads the component's public getters, writing only the
// values that changed. A component holds a null pointer unless tracing selects it, so with
// tracing off a state change costs one predictable branch and no call.
#pragma once

namespace uetsim {

class state_probe
{
public:
    virtual ~state_probe() = default;
    virtual void changed() = 0;
};

}  // namespace uetsim
