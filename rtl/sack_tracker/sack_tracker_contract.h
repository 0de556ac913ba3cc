// The SACK tracker's pin contract: every port of rtl/sack_tracker/sack_tracker.sv, in its order,
// with direction, width, role and meaning. The one place they are written: the wrapper
// (sack_tracker_block.h) registers and checks its pins from it, `uetsim rtl-build --as
// SackTracker` checks a user's block against it, and docs/rtl.md's table is generated from it
// (`uetsim rtl-contracts --markdown`, rtl/library/rtl_contract.h).
//
// X(dir, name, width, role, meaning); roles as rtl_pin_role (rtl/library/rtl_contract.h).
#pragma once

#define UETSIM_SACK_TRACKER_PINS(X)                                                                \
    X(in, clk, 1, clock, "clock")                                                                  \
    X(in, rst_n, 1, reset, "synchronous active-low reset (the wrapper holds it low 2 cycles)")     \
    X(in, req_valid, 1, valid, "a request is on the `req_` pins")                                  \
    X(out, req_ready, 1, ready, "the block takes a request at this rising edge")                   \
    X(in, req_op, 2, data,                                                                         \
      "0 open, 1 data, 2 ack (the next ACK's fields, advances the SACK walk), 3 close")            \
    X(in, req_slot, 16, data, "the context slot (allocated by the C++ engine, lowest free first)") \
    X(in, req_psn, 32, data, "open: the first PSN; data: the packet's PSN")                        \
    X(out, rsp_valid, 1, response,                                                                 \
      "one cycle, `latency` cycles after the accepting edge (that edge counts as 1)")              \
    X(out, rsp_arrival, 2, data,                                                                   \
      "data: 0 in order, 1 out of order, 2 duplicate (`pdc_receiver::arrival`)")                   \
    X(out, rsp_out_of_window, 1, data,                                                             \
      "data: the PSN is `window` or more beyond the expected PSN; nothing changed")                \
    X(out, rsp_slot_error, 1, data,                                                                \
      "slot at or above `contexts`, open of an open slot, other op on a closed one")               \
    X(out, rsp_cack, 32, data, "the cumulative ACK PSN after the request (every op)")              \
    X(out, rsp_sack_base, 32, data, "ack: the SACK block's base PSN this ACK reports (else 0)")    \
    X(out, rsp_sack_bitmap, 64, data, "ack: the SACK block's bitmap (else 0)")                     \
    X(out, rsp_held, 16, data, "state after every op: PSNs held beyond the CACK")                  \
    X(out, rsp_span, 16, data, "state after every op: `pdc_receiver::span()`")                     \
    X(out, latency, 8, latency, "constant: the cycles from acceptance to `rsp_valid` (4)")         \
    X(out, contexts, 32, constant,                                                                 \
      "constant: the context slots, `CONTEXTS` (4096); `UetNic.SackContexts` at most this")        \
    X(out, window, 32, constant, "constant: `WINDOW` (4096), the PSNs beyond the CACK it holds")
