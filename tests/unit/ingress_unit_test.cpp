// Ingress accounting per (ingress port, traffic class), without the kernel.
#include <gtest/gtest.h>

#include "hw/switch/ingress_unit.h"

using namespace uetsim;

TEST(ingress_unit, starts_empty_for_every_port_and_class)
{
    ingress_unit in(3);
    EXPECT_EQ(in.ports(), 3u);
    for (uint16_t p = 0; p < 3; ++p) {
        EXPECT_EQ(in.port_bytes(p), 0u);
        for (uint8_t tc = 0; tc < 8; ++tc) EXPECT_EQ(in.bytes(p, tc), 0u);
    }
}

TEST(ingress_unit, counts_each_port_and_class_apart)
{
    ingress_unit in(4);
    in.charge(1, 0, 4184);  // a 4096-byte UET data packet
    in.charge(1, 0, 4184);
    in.charge(1, 2, 60);  // an ACK
    in.charge(3, 7, 46);  // a minimum-size frame
    EXPECT_EQ(in.bytes(1, 0), 8368u);
    EXPECT_EQ(in.bytes(1, 2), 60u);
    EXPECT_EQ(in.bytes(3, 7), 46u);
    EXPECT_EQ(in.bytes(0, 0), 0u);
    EXPECT_EQ(in.bytes(2, 0), 0u);
    EXPECT_EQ(in.bytes(1, 1), 0u);
    EXPECT_EQ(in.port_bytes(1), 8428u);  // 2 x 4184 + 60
    EXPECT_EQ(in.port_bytes(3), 46u);
    EXPECT_EQ(in.port_bytes(0), 0u);
}

TEST(ingress_unit, releases_what_was_charged)
{
    ingress_unit in(2);
    in.charge(0, 0, 4184);
    in.charge(0, 0, 4184);
    in.release(0, 0, 4184 - 46);  // one of them trimmed to its header
    EXPECT_EQ(in.bytes(0, 0), 4184u + 46);
    in.release(0, 0, 4184);
    in.release(0, 0, 46);
    EXPECT_EQ(in.bytes(0, 0), 0u);
    EXPECT_EQ(in.port_bytes(0), 0u);
}
