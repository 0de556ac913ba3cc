// Constrained-random requests for the entropy_lb block, with the C++ model's answer for each:
// several slots interleaved, open / close / reopen over all three spraying types and the
// attribute ranges, REPS feedback aimed at the values a slot sent, failures that freeze, and
// recycles placed exactly at (and 1 ps before) the freezing deadline. The model runs as the
// request is made (the block answers in order), so the stimulus can steer by its state.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "hw/nic/uet/entropy/entropy_random.h"
#include "hw/nic/uet/entropy/reps_policy.h"
#include "rtl/entropy_lb/entropy_lb_pins.h"

namespace uetsim::test {

// How often each path was taken (model counters summed over every context, plus what the
// stimulus saw).
struct entropy_lb_paths
{
    reps_policy::counters reps;     // summed reps_policy::stats()
    uint64_t opens[3] = {0, 0, 0};  // per packet_spraying_type
    uint64_t nexts[3] = {0, 0, 0};
    uint64_t closes = 0;
    uint64_t freezes_by_timeout = 0;
    uint64_t freezes_by_failure_detected = 0;
    uint64_t freezes_ended = 0;
    uint64_t exact_deadline_ends = 0;   // a recycle exactly FreezingTimeout later ended freezing
    uint64_t before_deadline_kept = 0;  // one 1 ps earlier did not
    uint64_t zero_timeout_ends = 0;
    uint64_t windows_opened = 0;
    uint64_t windows_completed = 0;
    uint64_t cache_bits_seen = 0;  // bit b set: a REPS context with 2^b entries opened
    uint64_t held_full = 0;        // recycles into a cache whose slots were all held
};

struct entropy_lb_step
{
    entropy_lb_request request;
    entropy_lb_response expected;
};

class entropy_lb_stimulus
{
public:
    // `slots`: the slot numbers to use (interleaved); `max_cache_bits`: the variant's limit.
    entropy_lb_stimulus(uint64_t seed, std::vector<uint16_t> slots, uint32_t max_cache_bits)
        : m_rng(seed)
        , m_slots(std::move(slots))
        , m_max_cache_bits(max_cache_bits)
        , m_ctx(m_slots.size())
    {
    }

    entropy_lb_step next()
    {
        const size_t i = m_rng() % m_slots.size();
        context& c = m_ctx[i];
        advance_time();
        entropy_lb_step s;
        if (!c.policy) {
            s = open(i);
        } else if (pct() < m_close_permille / 10.0) {
            s = apply(i, close_request(i));
            ++m_paths.closes;
        } else if (c.cfg.type != packet_spraying_type::reps) {
            s = pct() < 70 ? apply_next(i) : apply(i, feedback_request(i, random_feedback()));
        } else if (pct() < 50) {
            s = apply_next(i);
        } else {
            s = reps_feedback(i);
        }
        return s;
    }

    // Closes nothing; adds the live contexts' counters into the totals.
    entropy_lb_paths paths() const
    {
        entropy_lb_paths p = m_paths;
        for (const context& c : m_ctx)
            if (c.policy) add(p.reps, c.policy.get());
        return p;
    }

    void set_close_permille(double v) { m_close_permille = v; }
    // REPS only (the large-cache runs).
    void set_reps_only(bool v) { m_reps_only = v; }

private:
    struct context
    {
        std::unique_ptr<entropy_policy> policy;
        entropy_config cfg;
        uint64_t timeout_ps = 0;
        uint64_t freeze_start_ps = 0;
        std::array<uint16_t, 16> sent{};
        unsigned sent_n = 0;
    };

    double pct() { return double(m_rng() % 10000) / 100.0; }
    uint32_t below(uint32_t n) { return uint32_t(m_rng() % n); }

    void advance_time()
    {
        const unsigned r = below(1000);
        if (r < 5)
            m_now += 1000 + m_rng() % 100000000ull;  // a jump: long timeouts expire
        else if (r < 100)
            m_now += 0;
        else
            m_now += m_rng() % 200;
    }

    static void add(reps_policy::counters& t, const entropy_policy* p)
    {
        const auto* r = dynamic_cast<const reps_policy*>(p);
        if (!r) return;
        const auto& s = r->stats();
        t.explored += s.explored;
        t.window_explored += s.window_explored;
        t.reused += s.reused;
        t.frozen_reused += s.frozen_reused;
        t.recycled += s.recycled;
        t.discarded += s.discarded;
        t.freezes += s.freezes;
        t.failures_ignored += s.failures_ignored;
    }

    entropy_config random_config()
    {
        entropy_config cfg;
        const unsigned t = below(100);
        if (m_reps_only || t >= 25) {
            cfg.type = packet_spraying_type::reps;
        } else {
            cfg.type = t < 10 ? packet_spraying_type::none : packet_spraying_type::default_spraying;
        }
        cfg.local_udp_port = uint16_t(m_rng());
        cfg.entropy_mask_bits = below(9);
        static constexpr std::array<uint32_t, 5> offsets{0, 256, 65535, 65535 - 255, 65280};
        cfg.starting_port_offset = below(2) ? offsets[below(offsets.size())] : below(65536);
        // Small caches most of the time (they fill, wrap and run dry), every size sometimes.
        cfg.reps_buffer_size_mask_bits = below(100) < 60 ? below(std::min(5u, m_max_cache_bits + 1))
                                                         : below(m_max_cache_bits + 1);
        static constexpr std::array<uint32_t, 7> sizes{1, 2, 3, 1000, 65535, 65536, 4096};
        cfg.entropy_value_set_size = below(3) ? sizes[below(sizes.size())] : 1 + below(65536);
        const unsigned to = below(100);
        uint64_t timeout_ps = to < 20   ? 0
                              : to < 40 ? 1 + below(50)
                              : to < 80 ? 100 + below(5000)
                                        : 100000 + m_rng() % 100000000ull;
        cfg.freezing_timeout_s = double(timeout_ps) * 1e-12;
        // The window: 0, 1, a few, tens, hundreds of packets. rtt 1 us, MSS 4096 (4184 B
        // nominal): the link rate gives W nominal packets plus a remainder.
        const unsigned w = below(100);
        const uint64_t window = w < 15   ? 0
                                : w < 25 ? 1
                                : w < 55 ? 2 + below(8)
                                : w < 90 ? 10 + below(91)
                                         : 100 + below(1900);
        cfg.rdma_data_mss = 4096;
        cfg.initial_base_rtt_s = 1e-6;
        cfg.link_rate_bps = double(window * 4184 + below(4184)) * 8e6;
        if (cfg.link_rate_bps <= 0) cfg.link_rate_bps = 8e6;
        return cfg;
    }

    entropy_lb_step open(size_t i)
    {
        context& c = m_ctx[i];
        c = context{};
        c.cfg = random_config();
        const uint64_t seed = m_rng();
        entropy_lb_step s;
        s.request = entropy_lb_open_request(m_slots[i], c.cfg, seed);
        s.request.now_ps = m_now;
        c.timeout_ps = s.request.cfg_timeout_ps;
        s.expected = entropy_lb_apply(s.request, &c.cfg, seed, c.policy);
        ++m_paths.opens[int(c.cfg.type)];
        if (c.cfg.type == packet_spraying_type::reps)
            m_paths.cache_bits_seen |= 1ull << c.cfg.reps_buffer_size_mask_bits;
        return s;
    }

    entropy_lb_request close_request(size_t i)
    {
        entropy_lb_request r;
        r.op = entropy_lb_op::close;
        r.slot = m_slots[i];
        r.now_ps = m_now;
        add(m_paths.reps, m_ctx[i].policy.get());
        return r;
    }

    entropy_lb_request feedback_request(size_t i, path_feedback f)
    {
        context& c = m_ctx[i];
        entropy_lb_request r;
        r.op = entropy_lb_op::feedback;
        r.slot = m_slots[i];
        r.feedback = uint8_t(f);
        r.entropy = (c.sent_n > 0 && below(100) < 80) ? c.sent[below(std::min(c.sent_n, 16u))]
                                                      : uint16_t(m_rng());
        r.now_ps = m_now;
        return r;
    }

    path_feedback random_feedback()
    {
        const unsigned f = below(100);
        return f < 50   ? path_feedback::ack
               : f < 60 ? path_feedback::nack_trimmed_last_hop
               : f < 68 ? path_feedback::ack_ecn
               : f < 75 ? path_feedback::nack_trimmed
               : f < 85 ? path_feedback::timeout
                        : path_feedback::failure_detected;
    }

    entropy_lb_step apply(size_t i, const entropy_lb_request& r)
    {
        return {r, entropy_lb_apply(r, nullptr, 0, m_ctx[i].policy)};
    }

    entropy_lb_step apply_next(size_t i)
    {
        context& c = m_ctx[i];
        entropy_lb_request r;
        r.op = entropy_lb_op::next;
        r.slot = m_slots[i];
        r.now_ps = m_now;
        const auto* reps = dynamic_cast<const reps_policy*>(c.policy.get());
        const bool was_in_window = reps && reps->in_exploration_window();
        entropy_lb_step s = apply(i, r);
        c.sent[c.sent_n++ % 16] = s.expected.value;
        ++m_paths.nexts[int(c.cfg.type)];
        if (was_in_window && !reps->in_exploration_window()) ++m_paths.windows_completed;
        return s;
    }

    entropy_lb_step reps_feedback(size_t i)
    {
        context& c = m_ctx[i];
        const auto* reps = static_cast<const reps_policy*>(c.policy.get());
        const path_feedback f = random_feedback();
        const bool recycle = f == path_feedback::ack || f == path_feedback::nack_trimmed_last_hop;
        const bool was_freezing = reps->freezing();
        int boundary = 0;  // 1: exactly at the deadline; -1: 1 ps before
        if (recycle && was_freezing) {
            const uint64_t deadline = c.freeze_start_ps + c.timeout_ps;
            const unsigned b = below(100);
            if (b < 25 && deadline >= m_now) {
                m_now = deadline;
                boundary = 1;
            } else if (b < 40 && deadline >= m_now + 1) {
                m_now = deadline - 1;
                boundary = -1;
            }
        }
        if (recycle && reps->cache().held() == reps->cache().capacity()) ++m_paths.held_full;
        const uint64_t freezes = reps->stats().freezes;
        entropy_lb_step s = apply(i, feedback_request(i, f));
        if (reps->stats().freezes != freezes) {
            c.freeze_start_ps = m_now;
            if (f == path_feedback::timeout)
                ++m_paths.freezes_by_timeout;
            else
                ++m_paths.freezes_by_failure_detected;
        }
        if (was_freezing && !reps->freezing()) {
            ++m_paths.freezes_ended;
            if (boundary == 1) ++m_paths.exact_deadline_ends;
            if (c.timeout_ps == 0) ++m_paths.zero_timeout_ends;
            if (reps->in_exploration_window()) ++m_paths.windows_opened;
        }
        if (was_freezing && reps->freezing() && boundary == -1) ++m_paths.before_deadline_kept;
        return s;
    }

    std::mt19937_64 m_rng;
    std::vector<uint16_t> m_slots;
    uint32_t m_max_cache_bits;
    std::vector<context> m_ctx;
    uint64_t m_now = 1000;
    double m_close_permille = 3;
    bool m_reps_only = false;
    entropy_lb_paths m_paths;
};

}  // namespace uetsim::test
