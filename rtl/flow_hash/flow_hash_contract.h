// The flow-hash block's pin contract: every port of rtl/flow_hash/flow_hash.sv, in its order,
// with direction, width, role and meaning. The one place they are written: the wrapper
// (flow_hash_block.h) registers and checks its pins from it, `uetsim rtl-build --as FlowHash`
// checks a user's block against it, and docs/rtl.md's table is generated from it
// (`uetsim rtl-contracts --markdown`, rtl/library/rtl_contract.h).
//
// X(dir, name, width, role, meaning); roles as rtl_pin_role (rtl/library/rtl_contract.h).
#pragma once

#define UETSIM_FLOW_HASH_PINS(X)                                                            \
    X(in, method, 3, data,                                                                  \
      "`ecmp_hash_method`: 0 crc32WithSalt, 1 crc32, 2 hashWithSalt, 3 hash, 4 dpr, 5 "     \
      "dprWithFallback; 6 and 7 give 0 (as the C++)")                                       \
    X(in, protocol, 8, data, "IP protocol")                                                 \
    X(in, src_ip, 32, data, "IPv4 source address")                                          \
    X(in, dst_ip, 32, data, "IPv4 destination address")                                     \
    X(in, src_port, 16, data, "L4 source port (UET/RoCE: it carries the entropy)")          \
    X(in, dst_port, 16, data, "L4 destination port")                                        \
    X(in, salt, 32, data, "the switch's salt (`switch_salt(node_id, RandomSeed)`)")         \
    X(out, hash, 16, data,                                                                  \
      "the flow hash, combinational (no clock); for dpr/dprWithFallback `{7'b0, (dst_ip - " \
      "1)[8:0]}`")
