// A user's entropy load balancer with a longer pipeline: the built-in entropy_lb (its own file,
// rtl/entropy_lb/entropy_lb.sv) with one more register stage on every response pin, so it
// answers latency + 1 = 3 cycles after acceptance and says so on its `latency` pin. Built by
// `uetsim rtl-build entropy_lb_delayed.sv entropy_lb.sv --top entropy_lb_delayed --as
// EntropyLoadBalancer` for tests/system/rtl_library_test.cpp: UetNic.EntropyLookupCycles: auto
// follows the library's latency.
module entropy_lb_delayed (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        req_valid,
    output logic        req_ready,
    input  logic [1:0]  req_op,
    input  logic [15:0] req_slot,
    input  logic [1:0]  req_cfg_type,
    input  logic [15:0] req_cfg_base,
    input  logic [3:0]  req_cfg_mask_bits,
    input  logic [4:0]  req_cfg_cache_bits,
    input  logic [16:0] req_cfg_value_set_size,
    input  logic [63:0] req_cfg_timeout_ps,
    input  logic [31:0] req_cfg_window,
    input  logic [31:0] req_cfg_seed,
    input  logic [15:0] req_entropy,
    input  logic [2:0]  req_feedback,
    input  logic [63:0] req_now_ps,
    output logic        rsp_valid,
    output logic [1:0]  rsp_op,
    output logic [15:0] rsp_slot,
    output logic        rsp_error,
    output logic [15:0] rsp_value,
    output logic [2:0]  rsp_choice,
    output logic        rsp_freezing,
    output logic        rsp_in_window,
    output logic [16:0] rsp_available,
    output logic [16:0] rsp_held,
    output logic [31:0] rsp_window_sent,
    output logic [7:0]  latency,
    output logic [16:0] contexts,
    output logic [4:0]  cache_bits
);
    logic        valid_q;
    logic [1:0]  op_q;
    logic [15:0] slot_q;
    logic        error_q;
    logic [15:0] value_q;
    logic [2:0]  choice_q;
    logic        freezing_q;
    logic        in_window_q;
    logic [16:0] available_q;
    logic [16:0] held_q;
    logic [31:0] window_sent_q;
    logic [7:0]  inner_latency;

    entropy_lb inner (
        .clk, .rst_n, .req_valid, .req_ready, .req_op, .req_slot, .req_cfg_type, .req_cfg_base,
        .req_cfg_mask_bits, .req_cfg_cache_bits, .req_cfg_value_set_size, .req_cfg_timeout_ps,
        .req_cfg_window, .req_cfg_seed, .req_entropy, .req_feedback, .req_now_ps,
        .rsp_valid(valid_q), .rsp_op(op_q), .rsp_slot(slot_q), .rsp_error(error_q),
        .rsp_value(value_q), .rsp_choice(choice_q), .rsp_freezing(freezing_q),
        .rsp_in_window(in_window_q), .rsp_available(available_q), .rsp_held(held_q),
        .rsp_window_sent(window_sent_q), .latency(inner_latency), .contexts, .cache_bits);

    always_ff @(posedge clk) begin
        rsp_valid       <= rst_n && valid_q;
        rsp_op          <= op_q;
        rsp_slot        <= slot_q;
        rsp_error       <= error_q;
        rsp_value       <= value_q;
        rsp_choice      <= choice_q;
        rsp_freezing    <= freezing_q;
        rsp_in_window   <= in_window_q;
        rsp_available   <= available_q;
        rsp_held        <= held_q;
        rsp_window_sent <= window_sent_q;
    end

    assign latency = inner_latency + 8'd1;
endmodule
