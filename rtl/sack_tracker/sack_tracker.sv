// sack_tracker: the receiver's per-PDC SACK tracker, bit-exact with uetsim::pdc_receiver
// (hw/nic/uet/pdc_receiver.cpp): the expected PSN (CACK + 1), the PSNs received beyond it, the
// in-order / out-of-order / duplicate decision under 32-bit serial arithmetic (psn::diff), and
// the walk of 64-PSN SACK blocks of next_sack(). docs/rtl.md, section sack_tracker.
//
// Context slots: CONTEXTS per-PDC contexts, allocated by the C++ side (req_slot); the RTL never
// allocates. Each context holds WINDOW PSNs beyond its expected PSN in a circular bitmap: bit
// position p (PSN mod WINDOW) of the RAM word p / 64 of that slot. A per-word summary (valid: the
// word's RAM contents are meaningful, else it reads as zero; full: all 64 bits set) finds the
// first missing PSN after a hole fills with two RAM reads and priority encoders, however long the
// run of received PSNs is, and retires a run by clearing summary bits, not by shifting.
//
// The C++ model's window is unbounded; this one is not. A data packet WINDOW or more PSNs beyond
// the expected PSN changes nothing and answers rsp_out_of_window (the wrapper stops the run with
// an error naming the limit). Reference scenarios stay below 450 PSNs (docs/rtl.md).
//
// Handshake (RTL_DESIGN D2): one request at a time; req_ready is high when idle. A request
// accepted at a rising edge answers with rsp_valid for one cycle after the LATENCY-th rising edge,
// counting the accepting edge as the first. Every op answers with the context's state summary
// (rsp_cack, rsp_held, rsp_span; for close: the state it closed).
//   op 0 open  (req_psn = first PSN)   op 1 data (req_psn = the packet's PSN)
//   op 2 ack   (next_sack: rsp_sack_base / rsp_sack_bitmap, advances the block walk)
//   op 3 close
// rsp_arrival (data): 0 in order, 1 out of order, 2 duplicate (pdc_receiver::arrival).
// rsp_slot_error: slot >= CONTEXTS, open of an open slot, or another op on a closed one; nothing
// changes.
//
// Test-only mutants (tests/rtl/sack_tracker_rtl_test.cpp, docs/rtl.md):
//   UETSIM_MUTANT_DUP_BEYOND      a repeated PSN beyond the CACK counts as new (out of order)
//   UETSIM_MUTANT_SACK_INDEX      the SACK walk reports block b + 1 instead of b
//   UETSIM_MUTANT_WRAP_UNSIGNED   PSNs compared unsigned instead of by serial arithmetic
//   UETSIM_MUTANT_ADVANCE_EARLY   an advance over a run stops one PSN before its end
//   UETSIM_MUTANT_STALE_SUMMARY   an advance leaves the words inside the run marked valid

module sack_tracker #(
    parameter int CONTEXTS = 4096,  // 2 .. 65536; 4096: UetNic.SackContexts' default
    parameter int WINDOW   = 4096   // power of two, 128 .. 32768
) (
    input  logic        clk,
    input  logic        rst_n,       // synchronous, active low
    input  logic        req_valid,
    output logic        req_ready,
    input  logic [1:0]  req_op,
    input  logic [15:0] req_slot,
    input  logic [31:0] req_psn,
    output logic        rsp_valid,
    output logic [1:0]  rsp_arrival,
    output logic        rsp_out_of_window,
    output logic        rsp_slot_error,
    output logic [31:0] rsp_cack,
    output logic [31:0] rsp_sack_base,
    output logic [63:0] rsp_sack_bitmap,
    output logic [15:0] rsp_held,    // PSNs held beyond the CACK (after the op)
    output logic [15:0] rsp_span,    // offsets below this may be set (pdc_receiver::m_span)
    output logic [7:0]  latency,
    output logic [31:0] contexts,    // CONTEXTS
    output logic [31:0] window       // WINDOW
);

    localparam int WORDS = WINDOW / 64;
    localparam int WW = $clog2(WORDS);     // word index
    localparam int PW = $clog2(WINDOW);    // bit position in the circular window
    localparam int CW = PW + 1;            // counts up to WINDOW (span, held, run length)
    localparam int BW = WW + 1;            // block counts up to WORDS
    localparam int SW = $clog2(CONTEXTS);  // slot index
    localparam int LATENCY = 4;

    localparam logic [1:0] OP_OPEN = 2'd0, OP_DATA = 2'd1, OP_ACK = 2'd2, OP_CLOSE = 2'd3;
    localparam logic [1:0] IN_ORDER = 2'd0, OUT_OF_ORDER = 2'd1, DUPLICATE = 2'd2;

    assign latency = 8'(LATENCY);
    assign contexts = 32'(CONTEXTS);
    assign window = 32'(WINDOW);

    // ---- storage ------------------------------------------------------------------------------
    logic [CONTEXTS-1:0] ctx_open;
    logic [31:0]      ctx_exp   [CONTEXTS];  // expected PSN (CACK + 1)
    logic [CW-1:0]    ctx_span  [CONTEXTS];
    logic [CW-1:0]    ctx_held  [CONTEXTS];
    logic [31:0]      ctx_block [CONTEXTS];  // next_sack's walk counter (pdc_receiver::m_block)
    logic [WORDS-1:0] ctx_valid [CONTEXTS];
    logic [WORDS-1:0] ctx_full  [CONTEXTS];
    logic [63:0]      bm        [CONTEXTS][WORDS];  // two ports: read or write each

    // ---- helpers ------------------------------------------------------------------------------
    // Lowest clear bit of v (v must have one): isolate it, count the ones below it.
    function automatic logic [5:0] first_zero64(input logic [63:0] v);
        logic [63:0] lowest = ~v & (v + 64'h1);
        return 6'($countones(lowest - 64'h1));
    endfunction

    function automatic logic [WW-1:0] first_zero_words(input logic [WORDS-1:0] v);
        logic [WORDS-1:0] lowest = ~v & (v + WORDS'(1));
        return WW'($countones(lowest - WORDS'(1)));
    endfunction

    // The n lowest bits set (n may exceed 64).
    function automatic logic [63:0] low_ones(input logic [CW-1:0] n);
        return n >= CW'(64) ? '1 : (64'h1 << n[5:0]) - 64'h1;
    endfunction

    // 16 steps of restoring division: (r * 2^16 + bits) mod div, for r < div <= WORDS.
    function automatic logic [BW-1:0] rem_step16(input logic [BW-1:0] r_in,
                                                 input logic [15:0] bits,
                                                 input logic [BW-1:0] div);
        logic [BW-1:0] r = r_in;
        for (int i = 15; i >= 0; i--) begin
            r = {r[BW-2:0], bits[i]};
            if (r >= div) r = r - div;
        end
        return r;
    endfunction

    // Bits of word w whose offset from expected position e_pos is below k: the run retired by an
    // advance of k PSNs (offset 0, the PSN that filled the hole, is never set). A word's offsets
    // are contiguous from its bit 0 (offset so), except in the expected PSN's own word, where
    // they wrap to 0 at bit t = WINDOW - so.
    function automatic logic [63:0] run_mask(input logic [WW-1:0] w, input logic [PW-1:0] e_pos,
                                             input logic [CW-1:0] k);
        logic [PW-1:0] so = {w, 6'h0} - e_pos;
        logic [CW-1:0] beyond = k > {1'b0, so} ? k - {1'b0, so} : '0;  // bits from bit 0
        if (so > PW'(WINDOW - 64)) begin
            logic [5:0] t = 6'(-so);
            return (low_ones(k) << t) | (low_ones(beyond) & low_ones(CW'(t)));
        end
        return low_ones(beyond);
    endfunction

    // ---- control ------------------------------------------------------------------------------
    typedef enum logic [1:0] { S_IDLE, S_1, S_2, S_3 } state_t;
    state_t state;
    assign req_ready = state == S_IDLE;

    // The request and its context (read at the accepting edge).
    logic [1:0]       op_q;
    logic [SW-1:0]    slot_q;
    logic [31:0]      psn_q;
    logic             bad_slot_q;
    logic             open_q;
    logic [31:0]      exp_q;
    logic [CW-1:0]    span_q;
    logic [CW-1:0]    held_q;
    logic [31:0]      block_q;
    logic [WORDS-1:0] valid_q;
    logic [WORDS-1:0] full_q;

    // Words read from the bitmap RAM (masked by their valid bits when used).
    logic [WW-1:0]    addr_a_q, addr_b_q;
    logic [63:0]      word_a_q, word_b_q;
    logic             valid_a_q, valid_b_q;
    logic             found_a_q;      // in-order: the first missing PSN is in word A
    logic [5:0]       zero_a_q;       // ... at this bit
    logic [BW-1:0]    blocks_q;       // ack: SACK blocks within the span
    logic [BW-1:0]    rem_q;          // ack: partial, then final, block index
    logic             slot_error_q;
    logic [1:0]       cls_q;          // data: what S_1 decided
    logic             oow_q;

    // The answer, moved to the rsp_* pins at the last edge.
    logic [1:0]       res_arrival;
    logic [31:0]      res_cack, res_sack_base;
    logic [63:0]      res_sack_bitmap;
    logic [CW-1:0]    res_held, res_span;

    // ---- S_1: classify ------------------------------------------------------------------------
    logic [31:0] d;
    logic        d_neg, d_zero, d_in_window;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [31:0] exp1;  // its word and bit only
    /* verilator lint_on UNUSEDSIGNAL */
    logic        slot_error;
    logic [BW-1:0] blocks;
    assign d = psn_q - exp_q;
`ifdef UETSIM_MUTANT_WRAP_UNSIGNED
    assign d_neg = psn_q < exp_q;
`else
    assign d_neg = d[31];  // psn::diff(psn, expected) < 0
`endif
    assign d_zero = d == 32'd0;
    assign d_in_window = !d_neg && d < 32'(WINDOW);
    assign exp1 = exp_q + 32'd1;
    assign slot_error = bad_slot_q || (op_q == OP_OPEN ? open_q : !open_q);
    assign blocks = BW'((span_q + CW'(63)) >> 6);  // (m_span + 63) / 64, at most WORDS

    // ---- S_2: data word A in hand -------------------------------------------------------------
    logic [63:0] wa, wb;
    assign wa = valid_a_q ? word_a_q : 64'h0;
    assign wb = valid_b_q ? word_b_q : 64'h0;

    logic        hit;          // out of order: the PSN is already held
    logic [63:0] set_word;
    assign hit = wa[psn_q[5:0]]
`ifdef UETSIM_MUTANT_DUP_BEYOND
        && 1'b0
`endif
        ;
    assign set_word = wa | (64'h1 << psn_q[5:0]);

    logic [63:0] a_from_start;  // in order: word A with the bits below exp + 1 set
    assign a_from_start = wa | ((64'h1 << exp1[5:0]) - 64'h1);

    logic [2*WORDS-1:0] full_twice;
    logic [WORDS-1:0]   full_after_a;  // bit i: word A + 1 + i is full
    logic [WW-1:0]      addr_a1;
    assign full_twice = {full_q, full_q};
    assign addr_a1 = addr_a_q + WW'(1);
    assign full_after_a = full_twice[{1'b0, addr_a1} +: WORDS];

    logic [BW-1:0] block_index;  // ack: m_block % blocks
    assign block_index = rem_step16(rem_q, block_q[15:0], blocks_q);
    logic [BW-1:0] walk_index;   // the block this ACK reports
`ifdef UETSIM_MUTANT_SACK_INDEX
    assign walk_index = block_index + BW'(1);
`else
    assign walk_index = block_index;
`endif
    logic [WW-1:0] sack_word;
    assign sack_word = exp_q[PW-1:6] + WW'(walk_index);

    // ---- S_3: advance (in order) --------------------------------------------------------------
    logic [PW-1:0] new_pos;      // position of the first missing PSN after the run
    logic [PW-1:0] k_raw;
    logic [CW-1:0] k;            // PSNs the expected PSN moves: 1 .. WINDOW
    logic [31:0]   new_exp;
    logic [63:0]   new_a, new_b;
    logic [WW:0]   run_words;
    logic [WORDS-1:0] inner;     // words strictly between A and B: retired whole
    logic [2*WORDS-1:0] inner_twice;
    logic [WORDS-1:0] run_ones;
    assign run_ones = run_words[WW] ? '1 : (WORDS'(1) << run_words[WW-1:0]) - WORDS'(1);
    logic [WORDS-1:0] valid_n, full_n;
    logic [CW-1:0] span_n;
    assign new_pos = found_a_q ? {addr_a_q, zero_a_q} : {addr_b_q, first_zero64(wb)};
    assign k_raw = new_pos - exp_q[PW-1:0];
`ifdef UETSIM_MUTANT_ADVANCE_EARLY
    logic [CW-1:0] k_full;
    assign k_full = k_raw == '0 ? CW'(WINDOW) : {1'b0, k_raw};
    assign k = k_full > CW'(1) ? k_full - CW'(1) : k_full;
`else
    assign k = k_raw == '0 ? CW'(WINDOW) : {1'b0, k_raw};
`endif
    assign new_exp = exp_q + 32'(k);
    assign new_a = wa & ~run_mask(addr_a_q, exp_q[PW-1:0], k);
    assign new_b = wb & ~run_mask(addr_b_q, exp_q[PW-1:0], k);
    assign run_words = found_a_q ? '0 : (addr_b_q == addr_a_q ? (WW + 1)'(WORDS)
                                                          : {1'b0, addr_b_q - addr_a_q});
    always_comb begin
        // Words A + 1 .. A + run_words - 1: a mask of run_words bits without bit 0, rotated by A.
        inner_twice = {2{run_ones & ~WORDS'(1)}};
        inner = inner_twice[(WW + 1)'(WORDS) - {1'b0, addr_a_q} +: WORDS];
`ifdef UETSIM_MUTANT_STALE_SUMMARY
        inner = '0;
`endif
        valid_n = valid_q & ~inner;
        full_n = full_q & ~inner;
        valid_n[addr_a_q] = 1'b1;
        full_n[addr_a_q] = &new_a;
        if (!found_a_q) begin
            valid_n[addr_b_q] = 1'b1;
            full_n[addr_b_q] = &new_b;
        end
    end
    assign span_n = span_q > k ? span_q - k : '0;
    logic [CW-1:0] held_n;
    assign held_n = held_q - (k - CW'(1));  // the run's PSNs were held
    logic advancing, sacking;
    assign advancing = !slot_error_q && op_q == OP_DATA && !oow_q && cls_q == IN_ORDER;
    assign sacking = !slot_error_q && op_q == OP_ACK && held_q != '0;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [127:0] sack_pair;  // the low 64 bits are the bitmap
    /* verilator lint_on UNUSEDSIGNAL */
    assign sack_pair = {wb, wa} >> exp_q[5:0];  // 64 PSNs from exp + 64 * block_index

    // ---- the sequence -------------------------------------------------------------------------
    always_ff @(posedge clk) begin
        if (!rst_n) begin
            state <= S_IDLE;
            ctx_open <= '0;
            rsp_valid <= 1'b0;
            rsp_arrival <= 2'd0;
            rsp_out_of_window <= 1'b0;
            rsp_slot_error <= 1'b0;
            rsp_cack <= 32'h0;
            rsp_sack_base <= 32'h0;
            rsp_sack_bitmap <= 64'h0;
            rsp_held <= 16'h0;
            rsp_span <= 16'h0;
        end else begin
            rsp_valid <= 1'b0;
            case (state)
                S_IDLE: if (req_valid) begin
                    // Accept: the request and its context.
                    op_q <= req_op;
                    slot_q <= SW'(req_slot);
                    psn_q <= req_psn;
                    bad_slot_q <= {16'h0, req_slot} >= 32'(CONTEXTS);
                    open_q <= ctx_open[SW'(req_slot)];
                    exp_q <= ctx_exp[SW'(req_slot)];
                    span_q <= ctx_span[SW'(req_slot)];
                    held_q <= ctx_held[SW'(req_slot)];
                    block_q <= ctx_block[SW'(req_slot)];
                    valid_q <= ctx_valid[SW'(req_slot)];
                    full_q <= ctx_full[SW'(req_slot)];
                    state <= S_1;
                end
                S_1: begin
                    slot_error_q <= slot_error;
                    oow_q <= 1'b0;
                    res_arrival <= IN_ORDER;
                    res_cack <= exp_q - 32'd1;
                    res_sack_base <= 32'h0;
                    res_sack_bitmap <= 64'h0;
                    res_held <= held_q;
                    res_span <= span_q;
                    blocks_q <= blocks;
                    rem_q <= '0;
                    if (slot_error) begin
                        res_cack <= 32'h0;
                        res_held <= '0;
                        res_span <= '0;
                    end else begin
                        case (op_q)
                            OP_OPEN: begin
                                ctx_open[slot_q] <= 1'b1;
                                ctx_exp[slot_q] <= psn_q;
                                ctx_span[slot_q] <= '0;
                                ctx_held[slot_q] <= '0;
                                ctx_block[slot_q] <= 32'h0;
                                ctx_valid[slot_q] <= '0;
                                ctx_full[slot_q] <= '0;
                                res_cack <= psn_q - 32'd1;
                                res_held <= '0;
                                res_span <= '0;
                            end
                            OP_CLOSE: ctx_open[slot_q] <= 1'b0;
                            OP_DATA: begin
                                if (d_neg) begin
                                    cls_q <= DUPLICATE;
                                    res_arrival <= DUPLICATE;
                                end else if (d_zero) begin
                                    cls_q <= IN_ORDER;
                                    addr_a_q <= exp1[PW-1:6];
                                    word_a_q <= bm[slot_q][exp1[PW-1:6]];
                                    valid_a_q <= valid_q[exp1[PW-1:6]];
                                end else if (d_in_window) begin
                                    cls_q <= OUT_OF_ORDER;
                                    addr_a_q <= psn_q[PW-1:6];
                                    word_a_q <= bm[slot_q][psn_q[PW-1:6]];
                                    valid_a_q <= valid_q[psn_q[PW-1:6]];
                                end else begin
                                    cls_q <= DUPLICATE;  // unused: nothing changes
                                    oow_q <= 1'b1;
                                end
                            end
                            default: begin  // OP_ACK: the high half of m_block % blocks
                                if (held_q != '0)
                                    rem_q <= rem_step16('0, block_q[31:16], blocks);
                            end
                        endcase
                    end
                    state <= S_2;
                end
                S_2: begin
                    if (!slot_error_q && op_q == OP_DATA && !oow_q) begin
                        if (cls_q == OUT_OF_ORDER) begin
                            if (hit) begin
                                res_arrival <= DUPLICATE;
                            end else begin
                                res_arrival <= OUT_OF_ORDER;
                                bm[slot_q][addr_a_q] <= set_word;
                                ctx_valid[slot_q][addr_a_q] <= 1'b1;
                                ctx_full[slot_q][addr_a_q] <= &set_word;
                                ctx_held[slot_q] <= held_q + CW'(1);
                                res_held <= held_q + CW'(1);
                                if (d[CW-1:0] + CW'(1) > span_q) begin
                                    ctx_span[slot_q] <= d[CW-1:0] + CW'(1);
                                    res_span <= d[CW-1:0] + CW'(1);
                                end
                            end
                        end else if (cls_q == IN_ORDER) begin
                            found_a_q <= !(&a_from_start);
                            zero_a_q <= first_zero64(a_from_start);
                            addr_b_q <= addr_a1 + first_zero_words(full_after_a);
                            word_b_q <= bm[slot_q][addr_a1 + first_zero_words(full_after_a)];
                            valid_b_q <= valid_q[addr_a1 + first_zero_words(full_after_a)];
                        end
                    end
                    if (!slot_error_q && op_q == OP_ACK) begin
                        res_sack_base <= exp_q;
                        if (held_q != '0) begin
                            rem_q <= walk_index;
                            addr_a_q <= sack_word;
                            word_a_q <= bm[slot_q][sack_word];
                            valid_a_q <= valid_q[sack_word];
                            addr_b_q <= sack_word + WW'(1);
                            word_b_q <= bm[slot_q][sack_word + WW'(1)];
                            valid_b_q <= valid_q[sack_word + WW'(1)];
                            ctx_block[slot_q] <= block_q + 32'd1;
                        end
                    end
                    state <= S_3;
                end
                default: begin  // S_3
                    if (advancing) begin
                        ctx_exp[slot_q] <= new_exp;
                        ctx_held[slot_q] <= held_n;
                        ctx_span[slot_q] <= span_n;
                        ctx_valid[slot_q] <= valid_n;
                        ctx_full[slot_q] <= full_n;
                        bm[slot_q][addr_a_q] <= new_a;
                        if (!found_a_q && addr_b_q != addr_a_q) bm[slot_q][addr_b_q] <= new_b;
                    end
                    rsp_valid <= 1'b1;
                    rsp_arrival <= res_arrival;
                    rsp_out_of_window <= oow_q && !slot_error_q;
                    rsp_slot_error <= slot_error_q;
                    rsp_cack <= advancing ? new_exp - 32'd1 : res_cack;
                    rsp_sack_base <= sacking ? exp_q + {{(32 - BW - 6){1'b0}}, rem_q, 6'h0}
                                             : res_sack_base;
                    rsp_sack_bitmap <= sacking ? sack_pair[63:0] : res_sack_bitmap;
                    rsp_held <= advancing ? 16'(held_n) : 16'(res_held);
                    rsp_span <= advancing ? 16'(span_n) : 16'(res_span);
                    state <= S_IDLE;
                end
            endcase
        end
    end

endmodule
