// test_adder: a test-only clocked block for rtl/common (tests/rtl/rtl_common_test.cpp). A
// request {a, b} accepted at a rising edge (req_valid & req_ready) answers rsp_sum = a + b
// (33 bits) with rsp_valid exactly LATENCY = 2 cycles later: two register stages. `stall` holds
// req_ready low, to exercise the wrapper's wait for ready. Pin conventions: RTL_DESIGN D2.
//
// UETSIM_MUTANT_ADDER_BIT4: bit 4 of the sum inverted when a[0] is set (the lockstep test's
// wrong RTL).

module test_adder (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        stall,
    input  logic        req_valid,
    output logic        req_ready,
    input  logic [31:0] req_a,
    input  logic [31:0] req_b,
    output logic        rsp_valid,
    output logic [32:0] rsp_sum,
    output logic [7:0]  latency
);

    logic        s1_valid;
    logic [32:0] s1_sum;

    assign req_ready = !stall;
    assign latency = 8'd2;

    always_ff @(posedge clk) begin
        if (!rst_n) begin
            s1_valid  <= 1'b0;
            s1_sum    <= 33'h0;
            rsp_valid <= 1'b0;
            rsp_sum   <= 33'h0;
        end else begin
            s1_valid <= req_valid && req_ready;
            if (req_valid && req_ready) begin
`ifdef UETSIM_MUTANT_ADDER_BIT4
                s1_sum <= ({1'b0, req_a} + {1'b0, req_b}) ^ {28'h0, req_a[0], 4'h0};
`else
                s1_sum <= {1'b0, req_a} + {1'b0, req_b};
`endif
            end
            rsp_valid <= s1_valid;
            if (s1_valid) rsp_sum <= s1_sum;
        end
    end

endmodule
