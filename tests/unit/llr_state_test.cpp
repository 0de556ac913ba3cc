// Link Level Retry's two state machines without the kernel (hw/link/llr_sender.h,
// llr_receiver.h, llr_sizing.h; docs/link-layer.md): numbering, the replay buffer and its room,
// cumulative ACKs, go-back-N from the frame after the one a NACK names, the timer's replay of
// everything held, and the receiver's one NACK then silence until the frame it expects.
#include <gtest/gtest.h>

#include <vector>

#include "hw/link/llr_receiver.h"
#include "hw/link/llr_sender.h"
#include "hw/link/llr_sizing.h"

using namespace uetsim;

namespace {

// Frames are opaque to the sender: distinct addresses stand for them.
packet* frame(int i)
{
    static char slots[64];
    return reinterpret_cast<packet*>(&slots[i]);
}

}  // namespace

TEST(llr_sender, numbers_frames_from_one_and_stalls_when_the_buffer_is_full)
{
    llr_sender s(3 * 4202);  // three full frames
    EXPECT_EQ(s.next_seq(), 1u);
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(s.has_room(4202));
        EXPECT_EQ(s.push(frame(i), 4202), uint64_t(i + 1));
    }
    EXPECT_EQ(s.held_bytes(), 3u * 4202);
    EXPECT_FALSE(s.has_room(4202));  // the fourth waits
    EXPECT_FALSE(s.has_room(1));
    std::vector<packet*> freed;
    EXPECT_TRUE(s.ack(1, [&](packet* p) { freed.push_back(p); }));
    EXPECT_TRUE(freed.empty());  // it went on at the far end: nothing of it is the buffer's
    EXPECT_TRUE(s.has_room(4202));  // room for exactly one again
    EXPECT_FALSE(s.has_room(4203));
    EXPECT_EQ(s.acked_seq(), 1u);
    EXPECT_EQ(s.peak(), 3u * 4202);
}

TEST(llr_sender, a_cumulative_ack_frees_everything_up_to_it_and_an_old_one_nothing)
{
    llr_sender s(100000);
    for (int i = 0; i < 5; ++i) s.push(frame(i), 1000);
    s.keep(2, frame(1));  // the one that arrived out of sequence before its replay did
    int freed = 0;
    EXPECT_TRUE(s.ack(3, [&](packet*) { ++freed; }));
    EXPECT_EQ(freed, 1);
    EXPECT_FALSE(s.ack(2, [&](packet*) { ++freed; }));  // a late, older ACK
    EXPECT_EQ(freed, 1);
    EXPECT_EQ(s.acked_seq(), 3u);
    EXPECT_EQ(s.held_frames(), 2u);
    EXPECT_EQ(s.held_bytes(), 2000u);
}

TEST(llr_sender, a_nack_replays_go_back_n_from_the_frame_after_the_last_good_one)
{
    llr_sender s(100000);
    for (int i = 0; i < 6; ++i) s.push(frame(i), 100 + i);  // seq 1..6
    int freed = 0;
    // The receiver got 1 and 2, then 3 was corrupted: NACK(2). 1 and 2 went on (not kept).
    s.nack(2, [&](packet*) { ++freed; });
    EXPECT_EQ(freed, 0);
    EXPECT_TRUE(s.replaying());
    EXPECT_EQ(s.replays(), 1u);
    std::vector<uint64_t> seqs;
    while (const llr_sender::entry* e = s.next_replay()) {
        seqs.push_back(e->seq);
        EXPECT_EQ(e->frame, frame(int(e->seq) - 1));
    }
    EXPECT_EQ(seqs, (std::vector<uint64_t>{3, 4, 5, 6}));
    EXPECT_FALSE(s.replaying());
    EXPECT_EQ(s.replayed_frames(), 4u);
    EXPECT_EQ(s.replayed_bytes(), 102u + 103 + 104 + 105u);
    // The frames stay until acknowledged.
    EXPECT_EQ(s.held_frames(), 4u);
    EXPECT_EQ(s.next_seq(), 7u);
}

TEST(llr_sender, an_ack_during_a_replay_keeps_its_place)
{
    llr_sender s(100000);
    for (int i = 0; i < 4; ++i) s.push(frame(i), 100);
    s.nack(0, [](packet*) {});  // replay 1..4
    ASSERT_EQ(s.next_replay()->seq, 1u);
    s.ack(2, [](packet*) {});  // 1 and 2 were good after all (an ACK already on its way)
    ASSERT_TRUE(s.replaying());
    EXPECT_EQ(s.next_replay()->seq, 3u);
    EXPECT_EQ(s.next_replay()->seq, 4u);
    EXPECT_EQ(s.next_replay(), nullptr);
}

TEST(llr_sender, owns_only_the_frames_handed_back_and_frees_only_those)
{
    llr_sender s(100000);
    for (int i = 0; i < 4; ++i) s.push(frame(i), 100 + i);  // seq 1..4
    // 1 arrived in sequence and went on; 2 was corrupted and 3 came after the gap: both handed
    // back as first sent; 4 is still on the wire.
    s.keep(2, frame(1));
    s.keep(3, frame(2));
    ASSERT_TRUE(s.timeout());
    std::vector<bool> kept;
    std::vector<uint32_t> bytes;
    while (const llr_sender::entry* e = s.next_replay()) {
        kept.push_back(e->kept);
        bytes.push_back(e->bytes);
        EXPECT_EQ(e->frame, frame(int(e->seq) - 1));  // the frame as first sent, copied to replay
    }
    EXPECT_EQ(kept, (std::vector<bool>{false, true, true, false}));
    EXPECT_EQ(bytes, (std::vector<uint32_t>{100, 101, 102, 103}));
    EXPECT_EQ(s.replayed_bytes(), 406u);
    // An ACK frees what the buffer owns, not frame 1's packet, which its receiver has.
    std::vector<packet*> freed;
    EXPECT_TRUE(s.ack(3, [&](packet* p) { freed.push_back(p); }));
    EXPECT_EQ(freed, (std::vector<packet*>{frame(1), frame(2)}));
    EXPECT_EQ(s.held_frames(), 1u);
    EXPECT_EQ(s.held_bytes(), 103u);
    // A copy kept for a frame that did arrive (a tapped link) is freed with its ACK.
    s.keep(4, frame(9));
    EXPECT_TRUE(s.ack(4, [&](packet* p) { freed.push_back(p); }));
    EXPECT_EQ(freed.back(), frame(9));
}

TEST(llr_sender, the_timer_replays_everything_held_and_nothing_when_empty)
{
    llr_sender s(100000);
    EXPECT_FALSE(s.timeout());
    s.push(frame(0), 100);
    s.push(frame(1), 100);
    EXPECT_TRUE(s.timeout());
    EXPECT_EQ(s.next_replay()->seq, 1u);
    EXPECT_EQ(s.next_replay()->seq, 2u);
    EXPECT_FALSE(s.replaying());
    // A frame pushed after a replay is not part of the next one until the timer fires again.
    s.push(frame(2), 100);
    EXPECT_FALSE(s.replaying());
}

TEST(llr_receiver, delivers_in_sequence_and_acks_the_last_good_frame)
{
    llr_receiver r;
    EXPECT_TRUE(r.on_frame(1, true));
    EXPECT_TRUE(r.on_frame(2, true));
    EXPECT_TRUE(r.ack_pending());
    EXPECT_FALSE(r.nack_pending());
    EXPECT_EQ(r.last_good(), 2u);
    EXPECT_FALSE(r.take_control());  // an ACK
    EXPECT_FALSE(r.ack_pending());
}

TEST(llr_receiver, one_nack_at_the_first_error_then_silence_until_the_replay)
{
    llr_receiver r;
    ASSERT_TRUE(r.on_frame(1, true));
    r.take_control();
    EXPECT_FALSE(r.on_frame(2, false));  // corrupted
    EXPECT_TRUE(r.nack_pending());
    EXPECT_EQ(r.last_good(), 1u);  // the NACK names frame 1: replay from 2
    EXPECT_TRUE(r.take_control());
    // 3 and 4 were already on the wire: discarded, no second NACK, no ACK.
    EXPECT_FALSE(r.on_frame(3, true));
    EXPECT_FALSE(r.on_frame(4, true));
    EXPECT_FALSE(r.nack_pending());
    EXPECT_FALSE(r.ack_pending());
    // The replay: 2, 3, 4 delivered in order.
    EXPECT_TRUE(r.on_frame(2, true));
    EXPECT_TRUE(r.on_frame(3, true));
    EXPECT_TRUE(r.on_frame(4, true));
    EXPECT_TRUE(r.ack_pending());
    EXPECT_EQ(r.last_good(), 4u);
    EXPECT_EQ(r.nacks(), 1u);
}

TEST(llr_receiver, a_gap_is_a_nack_and_a_duplicate_is_acknowledged_again)
{
    llr_receiver r;
    ASSERT_TRUE(r.on_frame(1, true));
    EXPECT_FALSE(r.on_frame(3, true));  // 2 vanished
    EXPECT_TRUE(r.nack_pending());
    EXPECT_EQ(r.last_good(), 1u);
    r.take_control();
    ASSERT_TRUE(r.on_frame(2, true));
    ASSERT_TRUE(r.on_frame(3, true));
    r.take_control();
    EXPECT_FALSE(r.on_frame(2, true));  // a timer replay of a frame already delivered
    EXPECT_TRUE(r.ack_pending());
    EXPECT_FALSE(r.nack_pending());
}

TEST(llr_sizing, the_round_trip_and_the_auto_buffer_by_hand)
{
    // 400 Gbps, 500 ns, 4202-byte frames, 8-byte CtlOS, 2048-byte ACK spacing:
    // 1000 ns + (2 x 4202 + 2048 + 8) x 8 / 400 Gbps = 1000 + 209.2 = 1209.2 ns; at 400 Gbps that
    // is 60,460 bytes, 14.39 frames: 15 frames, 63,030 bytes; the timeout is 2418.4 ns.
    llr_link_params p{400e9, 500e-9, 4202, 8, 2048};
    EXPECT_NEAR(llr_round_trip_s(p), 1209.2e-9, 1e-15);
    EXPECT_EQ(llr_auto_buffer_bytes(p), 15u * 4202);
    EXPECT_NEAR(llr_auto_timeout_s(p), 2418.4e-9, 1e-15);
    // 1 km of fibre (5 us) at 800 Gbps: 10,000 ns + 104.6 ns; 1,010,460 bytes, 240.5 frames.
    llr_link_params km{800e9, 5e-6, 4202, 8, 2048};
    EXPECT_EQ(llr_auto_buffer_bytes(km), 241u * 4202);
}
