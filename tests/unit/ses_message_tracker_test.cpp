// The target's SES view of RUDI and UUD messages (hw/nic/uet/ses_message_tracker.h), no SystemC
// kernel: a message completes once, when its last packet is placed, whatever the order; a packet
// placed already is a duplicate, before the message completes and after; messages from two
// sources with one id are apart; an empty message is one packet.
#include <gtest/gtest.h>

#include "hw/nic/uet/ses_message_tracker.h"

using namespace uetsim;
using arrival = ses_message_tracker::arrival;

// 10,000 B at 4,096 B a packet: offsets 0, 4096, 8192 (the last 1,808 B), in the order 2, 0, 1.
TEST(ses_message_tracker, completes_once_when_the_last_packet_is_placed_in_any_order)
{
    ses_message_tracker t;
    EXPECT_EQ(t.on_packet(0, 7, 8192, 10000, 4096), arrival::placed);
    EXPECT_EQ(t.on_packet(0, 7, 0, 10000, 4096), arrival::placed);
    EXPECT_EQ(t.incomplete(), 1u);
    EXPECT_EQ(t.on_packet(0, 7, 4096, 10000, 4096), arrival::completes);
    EXPECT_EQ(t.incomplete(), 0u);
}

// A copy of packet 0 before the message completes, and of packet 1 after it did (a RUDI
// retransmission whose RUDI_RESP was lost): both duplicates; the message does not complete again.
TEST(ses_message_tracker, a_packet_placed_already_is_a_duplicate_before_and_after_completion)
{
    ses_message_tracker t;
    EXPECT_EQ(t.on_packet(3, 1, 0, 8192, 4096), arrival::placed);
    EXPECT_EQ(t.on_packet(3, 1, 0, 8192, 4096), arrival::duplicate);
    EXPECT_EQ(t.on_packet(3, 1, 4096, 8192, 4096), arrival::completes);
    EXPECT_EQ(t.on_packet(3, 1, 4096, 8192, 4096), arrival::duplicate);
    EXPECT_EQ(t.on_packet(3, 1, 0, 8192, 4096), arrival::duplicate);
    EXPECT_EQ(t.incomplete(), 0u);
}

// Message 1 from hosts 0 and 2; host 0's loses its second packet (UUD) and stays incomplete.
TEST(ses_message_tracker, sources_are_apart_and_a_loss_leaves_the_message_incomplete)
{
    ses_message_tracker t;
    EXPECT_EQ(t.on_packet(0, 1, 0, 8192, 4096), arrival::placed);
    EXPECT_EQ(t.on_packet(2, 1, 0, 8192, 4096), arrival::placed);
    EXPECT_EQ(t.on_packet(2, 1, 4096, 8192, 4096), arrival::completes);
    EXPECT_EQ(t.incomplete(), 1u);
    EXPECT_EQ(t.on_packet(0, 1, 8192, 8192, 4096), arrival::duplicate) << "past the message";
}

TEST(ses_message_tracker, an_empty_message_is_one_packet)
{
    ses_message_tracker t;
    EXPECT_EQ(t.on_packet(0, 9, 0, 0, 4096), arrival::completes);
    EXPECT_EQ(t.on_packet(0, 9, 0, 0, 4096), arrival::duplicate);
}
