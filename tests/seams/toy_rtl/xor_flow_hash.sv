// A toy flow hash for the RTL block seam (docs/architecture.md, "Seams"): the FlowHash pin
// contract (`uetsim rtl-contracts`) with another hash, the XOR of every key field folded to 16
// bits. Built from the test tree by `uetsim rtl-build --as FlowHash` and loaded with
// Rtl.FlowHashLibrary, touching no file of uetsim (tests/seams/toy_flow_hash_test.cpp).
module xor_flow_hash (
    input  logic [2:0]  method,
    input  logic [7:0]  protocol,
    input  logic [31:0] src_ip,
    input  logic [31:0] dst_ip,
    input  logic [15:0] src_port,
    input  logic [15:0] dst_port,
    input  logic [31:0] salt,
    output logic [15:0] hash
);
    assign hash = src_ip[31:16] ^ src_ip[15:0] ^ dst_ip[31:16] ^ dst_ip[15:0] ^ src_port ^
                  dst_port ^ {8'b0, protocol} ^ salt[31:16] ^ salt[15:0] ^ {13'b0, method};
`ifdef UETSIM_TOY_STOP_ON_UDP
    // Test only (tests/system/rtl_library_test.cpp): Verilog $stop at the first UDP packet, for
    // the Verilator hooks inside a library.
    always_comb if (protocol == 8'd17) $stop;
`endif
endmodule
