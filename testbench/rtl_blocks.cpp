#include "testbench/rtl_blocks.h"

#include <stdexcept>
#include <utility>

#include "hw/switch/fabric_switch.h"
#include "rtl/flow_hash/flow_hash_rtl.h"

namespace uetsim {

namespace {

// The switch's flow hash: the wrapper behind the switch's flow_hasher seam.
class flow_hash_instance final : public rtl_block_instance
{
public:
    explicit flow_hash_instance(std::unique_ptr<rtl_flow_hasher> h) : m_hasher(std::move(h)) {}
    uint64_t requests() const override { return m_hasher->requests(); }
    uint64_t checked() const override { return m_hasher->checked(); }
    rtl_pin_set* pins() override { return &m_hasher->pins(); }

private:
    std::unique_ptr<rtl_flow_hasher> m_hasher;
};

std::unique_ptr<rtl_block_instance> build_flow_hash(rtl_block_site& s)
{
    auto h = std::make_unique<rtl_flow_hasher>(s.component, s.mode);
    s.sw->use_hasher(h.get());
    return std::make_unique<flow_hash_instance>(std::move(h));
}

std::vector<rtl_block_def>& registry()
{
    static std::vector<rtl_block_def> r = {
        {"FlowHash", "flow_hash", device_kind::switch_device, "rtl",
         "The switch's ECMP flow hash (rtl/flow_hash): model, rtl (the Verilated block's hash) "
         "or both (the model's hash, the RTL checked against it; the first mismatch stops the "
         "run with exit code 1).",
         build_flow_hash},
        {"EntropyLoadBalancer", "entropy_lb", device_kind::host, "rtl.entropy_lb",
         "The UET NIC's entropy load balancer (rtl/entropy_lb): model, rtl or both, as for "
         "FlowHash.",
         nullptr},
        {"SackTracker", "sack_tracker", device_kind::host, "rtl.sack_tracker",
         "The UET NIC receiver's SACK tracker (rtl/sack_tracker): model, rtl or both, as for "
         "FlowHash.",
         nullptr},
    };
    return r;
}

}  // namespace

const std::vector<rtl_block_def>& rtl_blocks()
{
    return registry();
}

const rtl_block_def* find_rtl_block(std::string_view key)
{
    for (const auto& d : registry())
        if (d.key == key) return &d;
    return nullptr;
}

rtl_block_factory replace_rtl_block_factory(std::string_view key, rtl_block_factory f)
{
    for (auto& d : registry())
        if (d.key == key) {
            std::swap(d.build, f);
            return f;
        }
    throw std::invalid_argument("no RTL block " + std::string(key));
}

std::string rtl_component_name(const rtl_block_def& def, const std::string& device)
{
    return device + "." + def.component;
}

}  // namespace uetsim
