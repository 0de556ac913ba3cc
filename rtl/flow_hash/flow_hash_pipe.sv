// flow_hash_pipe: the registered variant of flow_hash (one pipeline stage, initiation interval
// of one key per clock). A key presented with in_valid at a rising clk edge comes out as
// hash/out_valid after that edge (latency one cycle). The combinational flow_hash stays the
// reference; this wrapper shows the clocked seam a timing-closed switch pipeline would use.

module flow_hash_pipe (
    input  logic        clk,
    input  logic        rst_n,     // synchronous, active low
    input  logic        in_valid,
    input  logic [2:0]  method,
    input  logic [7:0]  protocol,
    input  logic [31:0] src_ip,
    input  logic [31:0] dst_ip,
    input  logic [15:0] src_port,
    input  logic [15:0] dst_port,
    input  logic [31:0] salt,
    output logic        out_valid,
    output logic [15:0] hash
);

    logic [15:0] hash_comb;

    flow_hash u_hash (
        .method   (method),
        .protocol (protocol),
        .src_ip   (src_ip),
        .dst_ip   (dst_ip),
        .src_port (src_port),
        .dst_port (dst_port),
        .salt     (salt),
        .hash     (hash_comb)
    );

    always_ff @(posedge clk) begin
        if (!rst_n) begin
            out_valid <= 1'b0;
            hash      <= 16'h0;
        end else begin
            out_valid <= in_valid;
            if (in_valid) hash <= hash_comb;
        end
    end

endmodule
