#include "testbench/traffic/app/wqe_math.h"

#include <stdexcept>

#include "tlm/header_sizes.h"

namespace uetsim {

wqe_shape shape_wqe(uint64_t bytes, uint32_t mss, uint32_t header_overhead_bytes,
                    double link_rate_bps)
{
    if (mss == 0) throw std::invalid_argument("maximum segment size = 0: must be > 0");
    if (!(link_rate_bps > 0)) throw std::invalid_argument("link rate must be > 0 bps");
    wqe_shape w;
    w.bytes = bytes;
    w.packets = wire::packets_for(bytes, mss);
    w.full_packets = bytes / mss;
    w.last_packet_bytes = bytes == 0 ? 0 : bytes - (w.packets - 1) * mss;
    w.middle_packets = w.packets >= 2 ? w.packets - 2 : 0;
    w.wire_bytes = bytes + w.packets * header_overhead_bytes;
    w.serialization_s = double(w.wire_bytes) * 8.0 / link_rate_bps;
    return w;
}

}  // namespace uetsim
