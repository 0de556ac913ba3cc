// flow_hash: the switch's ECMP flow hash as synthesizable, purely combinational logic.
//
// Bit-exact with uetsim::flow_hash16() (hw/switch/flow_hash.cpp) for every method:
//   0 crc32WithSalt  fold16(fmix32(crc32(~salt seed, key) ^ salt))
//   1 crc32          fold16(crc32_ieee(key))
//   2 hashWithSalt   fold16((sip ^ dip ^ {sport, dport}) + salt)
//   3 hash           fold16(sip ^ dip ^ {sport, dport})
//   4 dpr            {7'b0, (dip - 1)[8:0]}      (destination index)
//   5 dprWithFallback same as dpr (the fallback to crc32 when the index is not a member is the
//                    member selector's job, outside this block)
//   6, 7             0 (as the C++ for an out-of-range method)
// The CRC is the reflected IEEE 802.3 CRC-32 (polynomial 0xEDB88320) over 13 bytes, in order:
// protocol, src_port (big endian), dst_port, src_ip, dst_ip.
//
// Test-only mutant (RTL_DESIGN D2; tests verilate a copy as Vflow_hash_mutant):
//   UETSIM_MUTANT_FLOW_HASH_SPORT5  bit 0 of the hash inverted when src_port[2:0] == 5, so about
//                                   one key in eight differs from the model
//
// No `timescale: the block has no delays, and without one Verilator's default precision
// (1 ps) matches SystemC's default resolution (docs/rtl.md).

module flow_hash (
    input  logic [2:0]  method,
    input  logic [7:0]  protocol,
    input  logic [31:0] src_ip,
    input  logic [31:0] dst_ip,
    input  logic [15:0] src_port,
    input  logic [15:0] dst_port,
    input  logic [31:0] salt,
    output logic [15:0] hash
);

    localparam logic [31:0] CRC_POLY = 32'hEDB8_8320;  // reflected 0x04C11DB7
    localparam int KEY_BYTES = 13;

    // Running CRC register over the key, byte 0 (the most significant byte of `key`) first,
    // each byte least significant bit first. No final inversion.
    function automatic logic [31:0] crc32_update(input logic [31:0] state,
                                                 input logic [8*KEY_BYTES-1:0] key);
        logic [31:0] c;
        c = state;
        for (int i = 0; i < KEY_BYTES; i++) begin
            c = c ^ {24'h0, key[8*(KEY_BYTES-i)-1 -: 8]};
            for (int b = 0; b < 8; b++) begin
                c = c[0] ? ((c >> 1) ^ CRC_POLY) : (c >> 1);
            end
        end
        return c;
    endfunction

    // murmur3 fmix32 (32-bit wrapping multiplies).
    function automatic logic [31:0] fmix32(input logic [31:0] x_in);
        logic [31:0] x;
        x = x_in;
        x = x ^ (x >> 16);
        x = x * 32'h85EB_CA6B;
        x = x ^ (x >> 13);
        x = x * 32'hC2B2_AE35;
        x = x ^ (x >> 16);
        return x;
    endfunction

    function automatic logic [15:0] fold16(input logic [31:0] x);
        return x[31:16] ^ x[15:0];
    endfunction

    logic [8*KEY_BYTES-1:0] key;
    logic [31:0] crc_plain;   // crc32_ieee(key)
    logic [31:0] crc_salted;  // CRC seeded with ~salt, finally inverted
    logic [31:0] xor_tuple;   // sip ^ dip ^ {sport, dport}
    logic [8:0]  dst_index;   // low 9 bits of dst_ip - 1

    always_comb begin
        key        = {protocol, src_port, dst_port, src_ip, dst_ip};
        crc_plain  = ~crc32_update(32'hFFFF_FFFF, key);
        crc_salted = ~crc32_update(~salt, key);
        xor_tuple  = src_ip ^ dst_ip ^ {src_port, dst_port};
        dst_index  = dst_ip[8:0] - 9'd1;  // the low bits of a difference need only low bits

        unique case (method)
            3'd0:    hash = fold16(fmix32(crc_salted ^ salt));
            3'd1:    hash = fold16(crc_plain);
            3'd2:    hash = fold16(xor_tuple + salt);
            3'd3:    hash = fold16(xor_tuple);
            3'd4,
            3'd5:    hash = {7'b0, dst_index};
            default: hash = 16'h0;
        endcase
`ifdef UETSIM_MUTANT_FLOW_HASH_SPORT5
        if (src_port[2:0] == 3'd5) hash = hash ^ 16'h1;
`endif
    end

endmodule
