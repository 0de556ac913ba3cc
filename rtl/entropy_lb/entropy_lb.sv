// entropy_lb: the UET NIC's entropy load balancer (docs/spraying.md) as synthesizable RTL.
//
// One context slot per open PDC group, its state in RAMs indexed by the slot. The three
// spraying types, bit-exact with the C++ policies in hw/nic/uet/entropy/:
//   None                     the fixed value (the creating PDC's local UDP port)
//   Default Packet Spraying  base + (step mod 2^EntropyMaskBits), mod 65,536
//   REPS                     reps_cache (write pointer, available, held, turn) + reps_policy
//                            (xorshift32 exploration, freezing, exploration window)
// The C++ side computes what needs floating point or 64-bit hashing at open: the 32-bit seed
// state (entropy_random::seed_state), FreezingTimeout in integer ps and the window's packet
// count. Times arrive as 64-bit ps; failure-detection deadlines and retransmission timeouts are
// computed by the model and arrive as feedback ops.
//
// Pipeline (one request per cycle, fixed LATENCY = 2, the accepting cycle counted as 1 as in
// rtl/common/valid_ready.h: two register stages):
//   edge 0  accept; latch the request; read the slot's context (sync RAM read, with a bypass
//           from the request ahead of it when that one has the same slot)
//   (comb)  decide from the context: next state, cache address to read or write
//   edge 1  write the context and (recycle) the cache entry back; read the cache entry (sync);
//           the response registers (state summary, computed value); rsp_value is the mux of
//           the cache's read data and the computed value
// Every accepted request gets exactly one response, valid after the edge LATENCY - 1 cycles
// after the accepting one.
//
// Test-only mutants (tests/rtl/entropy_lb_rtl_test.cpp, docs/rtl.md): UETSIM_MUTANT_<NAME>.

module entropy_lb #(
    parameter int CONTEXTS   = 4096,  // context slots (UetNic.EntropyContexts at most this)
    parameter int CACHE_BITS = 8      // REPSBufferSizeMaskBits at most this
) (
    input  logic        clk,
    input  logic        rst_n,

    input  logic        req_valid,
    output logic        req_ready,
    input  logic [1:0]  req_op,        // 0 open, 1 next, 2 feedback, 3 close
    input  logic [15:0] req_slot,
    // open: the context's configuration
    input  logic [1:0]  req_cfg_type,         // 0 None, 1 Default Packet Spraying, 2 REPS
    input  logic [15:0] req_cfg_base,         // None: the fixed value; Default: StartingPortOffset
    input  logic [3:0]  req_cfg_mask_bits,    // EntropyMaskBits (0..8)
    input  logic [4:0]  req_cfg_cache_bits,   // REPSBufferSizeMaskBits (0..CACHE_BITS)
    input  logic [16:0] req_cfg_value_set_size,  // EntropyValueSetSize (1..65,536)
    input  logic [63:0] req_cfg_timeout_ps,   // FreezingTimeout, ps
    input  logic [31:0] req_cfg_window,       // exploration window, packets
    input  logic [31:0] req_cfg_seed,         // xorshift32 state (non-zero)
    // feedback
    input  logic [15:0] req_entropy,
    input  logic [2:0]  req_feedback,  // path_feedback: 0 ack, 1 ack_ecn, 2 nack_trimmed,
                                       // 3 nack_trimmed_last_hop, 4 timeout, 5 failure_detected
    input  logic [63:0] req_now_ps,

    output logic        rsp_valid,
    output logic [1:0]  rsp_op,
    output logic [15:0] rsp_slot,
    output logic        rsp_error,     // slot out of range or not open, or config beyond limits
    output logic [15:0] rsp_value,     // next: the entropy value; else 0
    // State summary after the op (all 0 after close or for an error):
    output logic [2:0]  rsp_choice,    // entropy_choice of the last next(): 0 none_yet, 1 fixed,
                                       // 2 round_robin, 3 explored, 4 reused, 5 frozen
    output logic        rsp_freezing,
    output logic        rsp_in_window,
    output logic [16:0] rsp_available,
    output logic [16:0] rsp_held,
    output logic [31:0] rsp_window_sent,

    output logic [7:0]  latency,       // LATENCY, constant
    output logic [16:0] contexts,      // CONTEXTS, constant
    output logic [4:0]  cache_bits     // CACHE_BITS, constant
);

    localparam int LATENCY = 2;
    localparam int SB = $clog2(CONTEXTS);  // slot address bits
    localparam int CB = CACHE_BITS;        // cache address bits
    localparam int WB = 32;                // window counter bits

    localparam logic [1:0] OP_OPEN = 2'd0, OP_NEXT = 2'd1, OP_FEEDBACK = 2'd2, OP_CLOSE = 2'd3;
    localparam logic [1:0] T_NONE = 2'd0, T_DEFAULT = 2'd1, T_REPS = 2'd2;
    localparam logic [2:0] C_NONE_YET = 3'd0, C_FIXED = 3'd1, C_ROUND_ROBIN = 3'd2,
                           C_EXPLORED = 3'd3, C_REUSED = 3'd4, C_FROZEN = 3'd5;
    // ack_ecn (1) and nack_trimmed (2) discard: no state change, so no name needed.
    localparam logic [2:0] F_ACK = 3'd0, F_NACK_LAST_HOP = 3'd3, F_TIMEOUT = 3'd4,
                           F_FAILURE = 3'd5;

    assign latency    = 8'(LATENCY);
    assign contexts   = 17'(CONTEXTS);
    assign cache_bits = 5'(CACHE_BITS);

    // One context's state: configuration (written at open) and the running state.
    typedef struct packed {
        logic [1:0]    kind;
        logic [15:0]   base;        // None: fixed value (mask 0); Default: StartingPortOffset
        logic [7:0]    port_mask;   // 2^EntropyMaskBits - 1
        logic [CB-1:0] cmask;       // cache entries - 1
        logic [16:0]   value_set_size;
        logic [63:0]   timeout_ps;
        logic [WB-1:0] window;
        logic [7:0]    step;        // round robin step, mod 256 (the mask is at most 8 bits)
        logic [31:0]   rng;         // xorshift32 state
        logic          freezing;
        logic [63:0]   freeze_start_ps;
        logic          in_window;
        logic [WB-1:0] win_sent;    // packets sent in the open window
        logic [CB-1:0] wr_ptr;      // next cache slot to write
        logic [CB:0]   available;   // newest `available` slots are available
        logic [CB:0]   held;        // slots written at least once
        logic [CB-1:0] turn;        // freezing's turn over the held slots
        logic [2:0]    last_choice;
    } ctx_t;

    // ---- storage ----
    ctx_t          ctx_ram   [CONTEXTS];
    logic [15:0]   cache_ram [CONTEXTS << CB];
    logic [CONTEXTS-1:0] slot_open;  // flops: cleared by reset

    // ---- xorshift32 and the draw ----
    function automatic logic [31:0] xorshift32(input logic [31:0] x_in);
        logic [31:0] x;
        x = x_in;
`ifdef UETSIM_MUTANT_XORSHIFT_BIT
        x = x ^ ((x << 13) & 32'hFFEF_FFFF);  // mutant: bit 20 of the first shift lost
`else
        x = x ^ (x << 13);
`endif
        x = x ^ (x >> 17);
        x = x ^ (x << 5);
        return x;
    endfunction

    function automatic logic [15:0] draw(input logic [31:0] x, input logic [16:0] n);
        /* verilator lint_off UNUSEDSIGNAL */
        logic [48:0] p;  // the draw is bits 47:32 (bit 48 is 0: n <= 65,536)
        /* verilator lint_on UNUSEDSIGNAL */
        p = {17'b0, x} * {32'b0, n};
        return p[47:32];
    endfunction

    // ---- stage 0: the accepted request and its context ----
    logic          s0_valid;
    logic [1:0]    s0_op;
    logic [15:0]   s0_slot;
    logic [1:0]    s0_cfg_type;
    logic [15:0]   s0_cfg_base;
    logic [3:0]    s0_cfg_mask_bits;
    logic [4:0]    s0_cfg_cache_bits;
    logic [16:0]   s0_cfg_value_set_size;
    logic [63:0]   s0_cfg_timeout_ps;
    logic [31:0]   s0_cfg_window;
    logic [31:0]   s0_cfg_seed;
    logic [15:0]   s0_entropy;
    logic [2:0]    s0_feedback;
    logic [63:0]   s0_now_ps;
    ctx_t          s0_ram_q;     // the RAM's read data
    ctx_t          s0_fwd_ctx;   // the state the request ahead wrote, when s0_fwd
    logic          s0_fwd;
    ctx_t          c;            // the context this request works on

    assign req_ready = rst_n;
    wire accept = req_valid && req_ready;

    // ---- decision (combinational from stage 0) ----
    ctx_t          nc;           // next context state
    logic          wr_ctx;       // write nc back
    logic          wr_cache;     // recycle: write s0_entropy at cache_addr
    logic          rd_cache;     // the value is the cache entry at cache_addr
    logic [CB-1:0] cache_addr;
    logic [15:0]   value;        // the value when not from the cache
    logic          err;
    logic [SB-1:0] slot_a;

    assign slot_a = s0_slot[SB-1:0];

    always_comb begin
        logic [CB:0]   cap;
        logic [WB-1:0] k;
        logic          forced;
        logic          explore;
        logic          reuse;
        logic [31:0]   x;
        logic [CB-1:0] t;
        logic [64:0]   deadline;
        logic          ends_freezing;
        /* verilator lint_off UNUSEDSIGNAL */
        logic [8:0]    pm;  // 2^bits - 1: the top bit is always 0
        logic [CB:0]   cm;
        /* verilator lint_on UNUSEDSIGNAL */

        nc         = c;
        wr_ctx     = 1'b0;
        wr_cache   = 1'b0;
        rd_cache   = 1'b0;
        cache_addr = '0;
        value      = 16'h0;
        err        = 1'b0;
        cap        = {1'b0, c.cmask} + 1'b1;
        k          = '0;
        forced     = 1'b0;
        explore    = 1'b0;
        reuse      = 1'b0;
        x          = xorshift32(c.rng);
        t          = '0;
        deadline   = {1'b0, c.freeze_start_ps} + {1'b0, c.timeout_ps};
        ends_freezing = 1'b0;
        pm         = (9'd1 << s0_cfg_mask_bits) - 9'd1;
        cm         = ((CB+1)'(1) << s0_cfg_cache_bits) - (CB+1)'(1);

        if (s0_slot >= 16'(CONTEXTS)) begin
            err = 1'b1;
        end else if (s0_op == OP_OPEN) begin
            if (32'(s0_cfg_cache_bits) > CB && s0_cfg_type == T_REPS) begin
                err = 1'b1;
            end else begin
                nc = '0;
                nc.kind           = s0_cfg_type;
                nc.base           = s0_cfg_base;
                nc.port_mask      = s0_cfg_type == T_DEFAULT ? pm[7:0] : 8'h0;
                nc.cmask          = s0_cfg_type == T_REPS ? cm[CB-1:0] : '0;
                nc.value_set_size = s0_cfg_value_set_size;
                nc.timeout_ps     = s0_cfg_timeout_ps;
                nc.window         = s0_cfg_window;
                nc.rng            = s0_cfg_seed;
                nc.last_choice    = C_NONE_YET;
                wr_ctx = 1'b1;
            end
        end else if (!slot_open[slot_a]) begin
            err = 1'b1;
        end else if (s0_op == OP_NEXT) begin
            wr_ctx = 1'b1;
            if (c.kind != T_REPS) begin
                value = c.base + {8'h0, c.step & c.port_mask};
                nc.step = c.step + 8'd1;
                nc.last_choice = c.kind == T_NONE ? C_FIXED : C_ROUND_ROBIN;
            end else begin
                if (c.in_window) begin
                    k = c.win_sent + 1'b1;
`ifdef UETSIM_MUTANT_WINDOW_OFF_BY_ONE
                    forced = ((c.window - k + 1'b1) & WB'(c.cmask)) == '0;
`else
                    forced = ((c.window - k) & WB'(c.cmask)) == '0;
`endif
                    if (k == c.window) begin
                        nc.in_window = 1'b0;
                        nc.win_sent  = '0;
                    end else begin
                        nc.win_sent  = k;
                    end
                    if (forced || c.available == '0) explore = 1'b1;
                    else reuse = 1'b1;
                end else if (c.freezing && c.available == '0 && c.held != '0) begin
                    // Freezing with nothing available: the held slots in turn, none removed.
                    t = ({1'b0, c.turn} >= c.held) ? '0 : c.turn;
                    rd_cache = 1'b1;
                    cache_addr = t;
                    nc.turn = ({1'b0, t} + 1'b1 == c.held) ? '0 : t + 1'b1;
                    nc.last_choice = C_FROZEN;
                end else if (c.available == '0) begin
                    explore = 1'b1;
                end else begin
                    reuse = 1'b1;
                end
                if (explore) begin
                    nc.rng = x;
                    value = draw(x, c.value_set_size);
                    nc.last_choice = C_EXPLORED;
                end
                if (reuse) begin
                    // The oldest available value: `available` slots behind the write pointer.
`ifdef UETSIM_MUTANT_OLDEST_OFF_BY_ONE
                    cache_addr = CB'(({1'b0, c.wr_ptr} + cap - c.available + 1'b1) & {1'b0, c.cmask});
`else
                    cache_addr = CB'(({1'b0, c.wr_ptr} + cap - c.available) & {1'b0, c.cmask});
`endif
                    rd_cache = 1'b1;
                    nc.available = c.available - 1'b1;
                    nc.last_choice = C_REUSED;
                end
            end
        end else if (s0_op == OP_FEEDBACK) begin
            if (c.kind == T_REPS) begin
                wr_ctx = 1'b1;
                if (s0_feedback == F_ACK || s0_feedback == F_NACK_LAST_HOP) begin
                    // Recycle: write the next slot; the oldest available is overwritten when
                    // all are available.
                    wr_cache = 1'b1;
                    cache_addr = c.wr_ptr;
                    nc.wr_ptr = (c.wr_ptr + 1'b1) & c.cmask;
                    if (c.held < cap) nc.held = c.held + 1'b1;
                    if (c.available < cap) nc.available = c.available + 1'b1;
`ifdef UETSIM_MUTANT_TIMEOUT_GT
                    ends_freezing = c.freezing && {1'b0, s0_now_ps} > deadline;
`else
                    ends_freezing = c.freezing && {1'b0, s0_now_ps} >= deadline;
`endif
                    if (ends_freezing) begin
                        nc.freezing  = 1'b0;
                        nc.in_window = c.window != '0;
                        nc.win_sent  = '0;
                    end
                end else if (s0_feedback == F_TIMEOUT || s0_feedback == F_FAILURE) begin
                    // A path failure freezes, unless freezing already or in the window.
`ifdef UETSIM_MUTANT_FAILURE_IN_WINDOW
                    if (!c.freezing) begin  // mutant: a failure in the window freezes
`else
                    if (!c.freezing && !c.in_window) begin
`endif
                        nc.freezing = 1'b1;
                        nc.freeze_start_ps = s0_now_ps;
`ifdef UETSIM_MUTANT_TURN_FROM_ZERO
                        nc.turn = '0;
`else
                        nc.turn = c.held == cap ? c.wr_ptr : '0;
`endif
                    end
                end
                // ack_ecn, nack_trimmed: discarded, no state change.
            end
        end
        // OP_CLOSE: only slot_open changes.
    end

    // ---- stage 1: results, cache read data ----
    logic          s1_valid;
    logic [1:0]    s1_op;
    logic [15:0]   s1_slot;
    logic          s1_err;
    logic          s1_rd_cache;
    logic [15:0]   s1_value;
    logic [15:0]   s1_cache_q;
    // The state summary after the op (0 after close or an error).
    logic [2:0]    s1_choice;
    logic          s1_freezing;
    logic          s1_in_window;
    logic [CB:0]   s1_available;
    logic [CB:0]   s1_held;
    logic [WB-1:0] s1_win_sent;

    // The context read of the next request: from the RAM, or the state this request writes.
    wire fwd_hit = s0_valid && wr_ctx && !err && (req_slot == s0_slot);

    always_ff @(posedge clk) begin
        // RAMs: no reset (a slot's state is written at open). Reads are enabled only for the
        // request that needs them.
        if (accept) begin
            s0_ram_q <= ctx_ram[req_slot[SB-1:0]];
`ifdef UETSIM_MUTANT_NO_BYPASS
            s0_fwd <= fwd_hit && 1'b0;  // mutant: no bypass, the RAM's stale data
`else
            s0_fwd <= fwd_hit;
`endif
            if (fwd_hit) s0_fwd_ctx <= nc;
        end
        if (s0_valid && wr_ctx && !err) ctx_ram[slot_a] <= nc;
        if (s0_valid && wr_cache && !err) cache_ram[{slot_a, cache_addr}] <= s0_entropy;
        if (s0_valid && rd_cache && !err) s1_cache_q <= cache_ram[{slot_a, cache_addr}];
    end

    assign c = s0_fwd ? s0_fwd_ctx : s0_ram_q;

    // The response: stage 1's registers, the value chosen between the cache RAM's registered
    // read data and the computed value.
    assign rsp_valid       = s1_valid;
    assign rsp_op          = s1_op;
    assign rsp_slot        = s1_slot;
    assign rsp_error       = s1_err;
    assign rsp_value       = s1_rd_cache ? s1_cache_q : s1_value;
    assign rsp_choice      = s1_choice;
    assign rsp_freezing    = s1_freezing;
    assign rsp_in_window   = s1_in_window;
    assign rsp_available   = 17'(s1_available);
    assign rsp_held        = 17'(s1_held);
    assign rsp_window_sent = s1_win_sent;

    always_ff @(posedge clk) begin
        if (!rst_n) begin
            s0_valid  <= 1'b0;
            s1_valid  <= 1'b0;
            slot_open <= '0;
        end else begin
            s0_valid <= accept;
            s1_valid <= s0_valid;
            if (s0_valid && !err) begin
                if (s0_op == OP_OPEN) slot_open[slot_a] <= 1'b1;
                if (s0_op == OP_CLOSE) slot_open[slot_a] <= 1'b0;
            end
        end
    end

    always_ff @(posedge clk) begin
        if (accept) begin
            s0_op                 <= req_op;
            s0_slot               <= req_slot;
            s0_cfg_type           <= req_cfg_type;
            s0_cfg_base           <= req_cfg_base;
            s0_cfg_mask_bits      <= req_cfg_mask_bits;
            s0_cfg_cache_bits     <= req_cfg_cache_bits;
            s0_cfg_value_set_size <= req_cfg_value_set_size;
            s0_cfg_timeout_ps     <= req_cfg_timeout_ps;
            s0_cfg_window         <= req_cfg_window;
            s0_cfg_seed           <= req_cfg_seed;
            s0_entropy            <= req_entropy;
            s0_feedback           <= req_feedback;
            s0_now_ps             <= req_now_ps;
        end
        s1_op       <= s0_op;
        s1_slot     <= s0_slot;
        s1_err      <= err;
        s1_rd_cache <= rd_cache && !err;
        s1_value    <= err ? 16'h0 : value;
        if (!err && s0_op != OP_CLOSE) begin
            s1_choice    <= nc.last_choice;
            s1_freezing  <= nc.freezing;
            s1_in_window <= nc.in_window;
            s1_available <= nc.available;
            s1_held      <= nc.held;
            s1_win_sent  <= nc.in_window ? nc.win_sent : '0;
        end else begin
            s1_choice    <= C_NONE_YET;
            s1_freezing  <= 1'b0;
            s1_in_window <= 1'b0;
            s1_available <= '0;
            s1_held      <= '0;
            s1_win_sent  <= '0;
        end

    end

endmodule
