// The entropy load balancer's pin contract: every port of rtl/entropy_lb/entropy_lb.sv, in its
// order, with direction, width, role and meaning. The one place they are written: the wrapper
// (entropy_lb_block.h) registers and checks its pins from it, `uetsim rtl-build --as
// EntropyLoadBalancer` checks a user's block against it, and docs/rtl.md's table is generated
// from it (`uetsim rtl-contracts --markdown`, rtl/library/rtl_contract.h).
//
// X(dir, name, width, role, meaning); roles as rtl_pin_role (rtl/library/rtl_contract.h).
#pragma once

#define UETSIM_ENTROPY_LB_PINS(X)                                                                   \
    X(in, clk, 1, clock, "clock")                                                                   \
    X(in, rst_n, 1, reset, "synchronous active-low reset (the engine holds it low 2 cycles)")       \
    X(in, req_valid, 1, valid, "a request is on the `req_` pins")                                   \
    X(out, req_ready, 1, ready, "the block takes a request at this rising edge")                    \
    X(in, req_op, 2, data, "0 open, 1 next, 2 feedback, 3 close")                                   \
    X(in, req_slot, 16, data, "the context slot (the engine base class allocates it)")              \
    X(in, req_cfg_type, 2, data, "open: 0 None, 1 Default Packet Spraying, 2 REPS")                 \
    X(in, req_cfg_base, 16, data,                                                                   \
      "open: None's fixed value (the creating PDC's local UDP port), Default's "                    \
      "`StartingPortOffset`")                                                                       \
    X(in, req_cfg_mask_bits, 4, data, "open: `EntropyMaskBits` (Default)")                          \
    X(in, req_cfg_cache_bits, 5, data, "open: `REPSBufferSizeMaskBits`")                            \
    X(in, req_cfg_value_set_size, 17, data, "open: `EntropyValueSetSize`, 1..65,536")               \
    X(in, req_cfg_timeout_ps, 64, data,                                                             \
      "open: `FreezingTimeout` in whole ps, `ceil(s × 10^12 − 0.5)`")                               \
    X(in, req_cfg_window, 32, data,                                                                 \
      "open: the exploration window's packets, `reps_exploration_window_packets(cfg)`")             \
    X(in, req_cfg_seed, 32, data,                                                                   \
      "open: the xorshift32 state, `entropy_random::seed_state(seed)`")                             \
    X(in, req_entropy, 16, data, "feedback: the value the ACK/NACK carries, or the packet's")       \
    X(in, req_feedback, 3, data,                                                                    \
      "feedback: `path_feedback` 0 ack, 1 ack_ecn, 2 nack_trimmed, 3 nack_trimmed_last_hop, 4 "     \
      "timeout, 5 failure_detected")                                                                \
    X(in, req_now_ps, 64, data, "the request's time, ps")                                           \
    X(out, rsp_valid, 1, response,                                                                  \
      "exactly `latency` cycles after each accepted request, the accepting cycle counted as 1")     \
    X(out, rsp_op, 2, data, "the request's op")                                                     \
    X(out, rsp_slot, 16, data, "the request's slot")                                                \
    X(out, rsp_error, 1, data,                                                                      \
      "slot ≥ `contexts`, op on a slot that is not open, or `req_cfg_cache_bits` > `cache_bits` " \
      "(REPS); nothing changes")                                                                    \
    X(out, rsp_value, 16, data, "next: the entropy value; otherwise 0")                             \
    X(out, rsp_choice, 3, data,                                                                     \
      "the slot's `entropy_choice` of its last next: 0 none_yet, 1 fixed, 2 round_robin, 3 "        \
      "explored, 4 reused, 5 frozen")                                                               \
    X(out, rsp_freezing, 1, data, "REPS state after the op: freezing")                              \
    X(out, rsp_in_window, 1, data, "REPS state after the op: in the exploration window")            \
    X(out, rsp_available, 17, data, "the cache's available count after the op")                     \
    X(out, rsp_held, 17, data, "the cache's held count after the op")                               \
    X(out, rsp_window_sent, 32, data, "packets sent in the open window (0 outside it)")             \
    X(out, latency, 8, latency, "constant: the cycles from acceptance to `rsp_valid` (2)")          \
    X(out, contexts, 17, constant,                                                                  \
      "constant: the context slots, `CONTEXTS` (4096); `UetNic.EntropyContexts` at most this")      \
    X(out, cache_bits, 5, constant,                                                                 \
      "constant: `CACHE_BITS` (8); `UetNic.REPSBufferSizeMaskBits` at most this")
