// What runs on the hosts' CPUs (the RDMA application): it is told of every write the NICs make
// into host memory, with the time the write lands.
#pragma once

#include <cstdint>

#include <systemc>

#include "hw/pcie/pcie_tag.h"

namespace uetsim {

class host_software
{
public:
    virtual ~host_software() = default;
    virtual void host_memory_written(uint32_t host, const pcie_tag& tag, const unsigned char* data,
                                     uint32_t bytes, const sc_core::sc_time& at) = 0;
};

}  // namespace uetsim
