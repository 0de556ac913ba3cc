// How a NIC type frames one data packet: what its data packets are called, the largest payload
// one carries (the MSS) and the bytes of headers and framing around it on the wire. Kernel-free,
// for the plain code that shapes messages (testbench/traffic/app/app_inspect.h); the NIC
// registry gives it per Nic.Type (nic_framing_of, testbench/elab/nic_factory.h).
#pragma once

#include <cstdint>
#include <string_view>

namespace uetsim {

struct nic_data_framing
{
    std::string_view name;  // uet, roce
    uint32_t mss = 0;
    uint32_t overhead_bytes = 0;
};

}  // namespace uetsim
