// A full-duplex point-to-point Ethernet link between end A and end B.
// Each direction serialises a frame at the link rate (the transmitter learns the time from the
// END_REQ delay, packet_protocol.h) and delivers it after the propagation delay, store-and-forward.
// Faults: a direction can be taken down (every frame on it, and every frame in flight, is lost)
// or run at a degraded rate, and brought back. Bit errors: with a bit error rate, each frame
// fails the receiver's FCS check with probability 1 - (1 - BER)^(wire bits) and is dropped there.
// Link Level Retry (enable_llr; link_llr.cpp, docs/link-layer.md): each end numbers its frames,
// keeps them in a replay buffer (llr_sender) until the far end's LLR_ACK, and replays go-back-N
// on an LLR_NACK (llr_receiver) or a replay timeout; ACKs and NACKs are control ordered sets that
// take their time on the reverse wire. A frame that does not fit in the replay buffer is kept by
// the link and started later (TLM_ACCEPTED, then END_REQ on the backward path): the port stalls.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "hw/kernel/timed_fifo.h"
#include "hw/link/ahead_receiver.h"
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
        if (m_llr) llr_need_timer();
        m_loss = probability;
        m_loss_rng = rng;
    }

    // Bit errors on both directions, each drawn from its own stream seeded from `seed` and the
    // link's name; BER 0 draws nothing.
    void set_bit_error_rate(double ber, uint64_t seed);
    double bit_error_rate() const { return m_ber; }
    // Fault injection: the next frame that starts on direction `d` fails the receiver's FCS check
    // (a burst error on one frame; tests and fault scenarios). No random draw is taken for it.
    void inject_fcs_error(direction d)
    {
        if (m_llr) llr_need_timer();
        m_dir[d].corrupt_next = true;
        m_check_fcs = true;
    }
    // Frames that arrived with bit errors and were dropped at the receiving end's FCS check
    // (with LLR, control ordered sets as well: counted as they arrive, by now).
    uint64_t fcs_errors(direction d) const
    {
        if (__builtin_expect(m_llr != nullptr, 0)) llr_settle_arrived(d);
        return m_dir[d].fcs_errors;
    }

    // Link Level Retry on both ends, before the run. Off: nothing of it runs.
    struct llr_settings
    {
        uint64_t buffer_bytes = 0;       // each end's replay buffer
        uint64_t timeout_ps = 0;         // the replay timer
        uint32_t control_bytes = 8;      // an LLR_ACK or LLR_NACK control ordered set on the wire
        uint32_t ack_spacing_bytes = 0;  // at most one ACK per this many byte times
        // Nothing can lose a frame on this link or hold an ACK back past the timeout (no bit
        // errors, no fault planned, no frame slower than the link's rate, a timeout well above
        // the LLR round trip), so the replay timer cannot expire: it is not armed until
        // something that could changes that (a fault, bit errors, a loss, a new rate). Its
        // wake-ups would only have moved its own due time, so leaving them out changes nothing.
        bool timer_on_demand = false;
    };
    void enable_llr(const llr_settings& s);
    bool llr() const { return m_llr != nullptr; }
    // LLR of direction `d`: the sender at its sending end, the receiver at the other.
    struct llr_counters
    {
        uint64_t next_seq = 0;  // the number the next new frame gets
        uint64_t acked_seq = 0;
        uint64_t held_bytes = 0;  // in the replay buffer now
        bool replaying = false;
        uint64_t replays = 0;  // replays started (an LLR_NACK or the replay timer)
        uint64_t timer_replays = 0;
        uint64_t replayed_frames = 0;
        uint64_t replayed_bytes = 0;
        uint64_t stall_ps = 0;        // a port frame waited for room in the replay buffer
        uint64_t control_frames = 0;  // ACK and NACK control ordered sets sent on this wire
        uint64_t control_bytes = 0;
    };
    llr_counters llr_stats(direction d) const;
    // The most bytes direction `d`'s replay buffer held since the last call (link-stats).
    uint64_t llr_take_peak(direction d);

    // The device that frames on wire `d` go to may take them as they start (ahead_receiver.h);
    // never with LLR (its frames may not arrive in sequence).
    void hand_ahead(direction d, ahead_receiver* r) { m_dir[d].ahead = r; }

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
        bool corrupt_next = false;  // inject_fcs_error
        random_stream bit_errors;
        std::unique_ptr<delay_line> wire;
        ahead_receiver* ahead = nullptr;  // hand_ahead()
        uint64_t wire_place = 0;          // the wire's deliveries' place (wakeup::place_key)
        uint64_t wire_bytes = 0;          // of the frames on `wire`, while `ahead` is set
    };

    sc_core::sc_time transmit(direction d, packet& p);
    bool corrupted(lane& l, uint32_t wire_bytes);
    bool corrupted_os(lane& l, uint32_t wire_bytes);

    struct llr_wire_frame;
    struct llr_end;
    struct llr_state;
    [[gnu::noinline]] sc_core::sc_time llr_transmit(direction d, packet& p);
    uint64_t llr_new_frame(direction d, packet& p, uint64_t start_ps);
    uint64_t llr_start(direction d, packet* p, uint32_t bytes, uint64_t seq, uint64_t start_ps,
                       bool first);
    void llr_serve(direction d, uint64_t now_ps);
    void llr_arrive(direction d, const llr_wire_frame& f);
    void llr_control(direction d);
    void llr_timer(direction d);
    void llr_kick(direction d, uint64_t now_ps);
    void llr_catch_up();
    void llr_reconsider_serve(direction d, uint64_t now_ps);
    [[noreturn, gnu::cold, gnu::noinline]] void offered_while_held() const;
    [[noreturn, gnu::cold, gnu::noinline]] void llr_serve_late() const;
    void llr_link_down(direction d);
    void llr_need_timer();
    void llr_rate_changed();
    void llr_settle_arrived(direction wire) const;
    packet_target_socket& from(direction d) { return d == a_to_b ? from_a : from_b; }

    double m_nominal_rate_bps;
    sc_core::sc_time m_delay;
    uint64_t m_delay_ps;
    packet_pool& m_pool;
    lane m_dir[2];
    std::vector<tap> m_taps;
    double m_loss = 0;
    random_stream* m_loss_rng = nullptr;
    double m_ber = 0;
    bool m_check_fcs = false;   // a bit error rate, or an injected error: frames may be corrupted
    double m_log_good_bit = 0;  // ln(1 - BER)
    state_probe* m_probe = nullptr;
    // Deleted in link_llr.cpp, where llr_state is complete.
    struct llr_state_deleter
    {
        void operator()(llr_state* s) const;
    };
    std::unique_ptr<llr_state, llr_state_deleter> m_llr;

public:
    ~link() override;
};

}  // namespace uetsim
