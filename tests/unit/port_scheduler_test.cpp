// The egress arbiter shared by switch and NIC ports: control first, then strict priority from
// TC7 down, skipping paused classes. No kernel.
#include <gtest/gtest.h>

#include "hw/common/port_scheduler.h"

using namespace uetsim;

TEST(port_scheduler, nothing_waiting_picks_none)
{
    port_scheduler s;
    EXPECT_EQ(s.pick(false, 0), port_scheduler::none);
}

TEST(port_scheduler, control_goes_before_every_class)
{
    port_scheduler s;
    EXPECT_EQ(s.pick(true, 0xFF), port_scheduler::control_slot);
    EXPECT_EQ(s.pick(true, 0), port_scheduler::control_slot);
    EXPECT_EQ(port_scheduler::control_slot, 8);
}

TEST(port_scheduler, strict_priority_highest_class_first)
{
    port_scheduler s;
    EXPECT_EQ(s.pick(false, 0b0000'0001), 0);
    EXPECT_EQ(s.pick(false, 0b0000'1001), 3);
    EXPECT_EQ(s.pick(false, 0b1000'1001), 7);
    EXPECT_EQ(s.pick(false, 0b0100'0110), 6);
}

TEST(port_scheduler, paused_classes_are_skipped)
{
    port_scheduler s;
    s.pause(0b1000'1000);  // TC7 and TC3
    EXPECT_EQ(s.paused(), 0b1000'1000);
    EXPECT_EQ(s.pick(false, 0b1000'1001), 0);
    EXPECT_EQ(s.pick(false, 0b1000'1000), port_scheduler::none);         // only paused classes wait
    EXPECT_EQ(s.pick(true, 0b1000'1000), port_scheduler::control_slot);  // never paused
    s.pause(0b0000'0001);
    EXPECT_EQ(s.pick(false, 0b1000'1001), port_scheduler::none);
}

TEST(port_scheduler, resume_lets_a_class_go_again)
{
    port_scheduler s;
    s.pause(0b1000'1001);
    s.resume(0b1000'0000);  // TC7 only
    EXPECT_EQ(s.paused(), 0b0000'1001);
    EXPECT_EQ(s.pick(false, 0b1000'1001), 7);
    s.resume(0xFF);
    EXPECT_EQ(s.paused(), 0);
    EXPECT_EQ(s.pick(false, 0b0000'1001), 3);
}
