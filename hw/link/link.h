// A full-duplex point-to-point Ethernet link between end A and end B.
// Each direction serialises a frame at the link rate (the transmitter learns the time from the
// END_REQ delay, packet_protocol.h) and delivers it after the propagation delay, store-and-forward.
// Faults: a direction can be taken down (every frame on it, and every frame in flight, is lost)
// or run at a degraded rate, and brought back. Bit errors: with a bit error rate, each frame
// fails the receiver's FCS check with probability 1 - (1 - BER)^(wire bits) and is dropped there.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "hw/kernel/timed_fifo.h"
#include "hw/common/random.h"
#include "hw/common/state_probe.h"
#include "tlm/packet_pool.h"
#include "tlm/packet_protocol.h"

namespace uetsim {

class link : public sc_core::sc_module
{
public:
    enum direction { a_to_b = 0, b_to_a = 1 };

    packet_target_socket from_a;   // end A transmits into this
    packet_initiator_socket to_b;  // frames from A arrive at B through this
    packet_target_socket from_b;
    packet_initiator_socket to_a;

    link(const sc_core::sc_module_name& name, double rate_bps, sc_core::sc_time delay,
         packet_pool& pool);

    double rate_bps(direction d) const { return m_dir[d].rate_bps; }
    double nominal_rate_bps() const { return m_nominal_rate_bps; }
    sc_core::sc_time delay() const { return m_delay; }
    bool is_up() const { return m_dir[0].up; }

    // Fault control, both directions at once.
    void set_up(bool up);
    void set_rate(double rate_bps);
    // Each frame is lost with this probability (random bit errors), drawn from `rng`.
    void set_loss(double probability, random_stream* rng)
    {
        m_loss = probability;
        m_loss_rng = rng;
    }

    // Bit errors on both directions, each drawn from its own stream seeded from `seed` and the
    // link's name; BER 0 draws nothing.
    void set_bit_error_rate(double ber, uint64_t seed);
    double bit_error_rate() const { return m_ber; }
    // Frames that arrived with bit errors and were dropped at the receiving end's FCS check.
    uint64_t fcs_errors(direction d) const { return m_dir[d].fcs_errors; }

    // Called for every frame as it starts serialising (captures, monitors).
    using tap = std::function<void(const packet&, direction, const sc_core::sc_time& start)>;
    void add_tap(tap t) { m_taps.push_back(std::move(t)); }

    uint64_t frames_lost(direction d) const { return m_dir[d].lost; }
    bool is_up(direction d) const { return m_dir[d].up; }
    // Waveforms: called after a fault changes the state or rate (nullptr: not traced).
    void set_probe(state_probe* p) { m_probe = p; }

private:
    struct lane
    {
        double rate_bps = 0;
        bool up = true;
        uint64_t lost = 0;
        uint64_t fcs_errors = 0;
        random_stream bit_errors;
        std::unique_ptr<delay_line> wire;
    };

    sc_core::sc_time transmit(direction d, packet& p);
    bool corrupted(lane& l, uint32_t wire_bytes);

    double m_nominal_rate_bps;
    sc_core::sc_time m_delay;
    uint64_t m_delay_ps;
    packet_pool& m_pool;
    lane m_dir[2];
    std::vector<tap> m_taps;
    double m_loss = 0;
    random_stream* m_loss_rng = nullptr;
    double m_ber = 0;
    double m_log_good_bit = 0;  // ln(1 - BER)
    state_probe* m_probe = nullptr;
};

}  // namespace uetsim
