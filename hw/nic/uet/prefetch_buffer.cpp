#include "hw/nic/uet/prefetch_buffer.h"

#include <algorithm>
#include <stdexcept>

namespace uetsim {

void prefetch_buffer::issue(pdc_prefetch& q, uint32_t psn, uint32_t wire_bytes)
{
    if (!fits(wire_bytes)) throw std::logic_error("prefetch_buffer: a fetch issued without room");
    m_occupancy += wire_bytes;
    m_max_occupancy = std::max(m_max_occupancy, m_occupancy);
    ++m_issued;
    q.m_q.push_back({psn, wire_bytes});
    q.m_bytes += wire_bytes;
}

void prefetch_buffer::arrive(pdc_prefetch& q)
{
    if (q.m_arrived >= q.m_q.size())
        throw std::logic_error("prefetch_buffer: a payload arrived that was not fetched");
    ++q.m_arrived;
}

pdc_prefetch::entry prefetch_buffer::commit(pdc_prefetch& q, bool& restart)
{
    if (!q.ready()) throw std::logic_error("prefetch_buffer: commit without an arrived payload");
    const pdc_prefetch::entry e = q.m_q.front();
    q.m_q.pop_front();
    --q.m_arrived;
    q.m_bytes -= e.wire_bytes;
    m_occupancy -= e.wire_bytes;
    ++m_commits;
    restart = m_blocked && m_occupancy <= m_size / 2;
    if (restart) m_blocked = false;
    return e;
}

std::string prefetch_buffer_error(bool enable, uint64_t size_bytes, uint32_t rdma_data_mss,
                                  const std::string& prefix)
{
    const uint64_t packet = uint64_t(rdma_data_mss) + prefetch_buffer::data_overhead_bytes;
    if (!enable || size_bytes >= packet) return "";
    return prefix + "PrefetchBufferSize: " + std::to_string(size_bytes) +
           " B cannot hold one data packet on the wire with " + prefix +
           "PrefetchBufferEnable true: it must be at least " + prefix + "RdmaDataMSS (" +
           std::to_string(rdma_data_mss) + ") + 106 = " + std::to_string(packet) + " B";
}

}  // namespace uetsim
