// uet-monitor rows from packets, without the kernel: which columns a data packet, an ACK (with
// its SACK bitmap and RTT) and a NACK fill, and no row for a packet that is not UET's.
#include <gtest/gtest.h>

#include "hw/nic/uet/uet_monitor_sink.h"
#include "tlm/packet.h"

using namespace uetsim;

TEST(uet_monitor_row, a_sent_data_packet_with_its_sender_state)
{
    packet p;
    p.kind = packet_kind::uet_data;
    p.id = 77;
    p.wire_bytes = 4202;
    p.ip.src = 1;
    p.ip.dst = 2;
    p.ip.dscp = 10;
    p.udp.src_port = 0xC123;
    p.pds.spdcid = 4;
    p.pds.dpdcid = 32770;
    p.pds.psn = 900;
    p.pds.ack_request = true;
    const uet_monitor_sender s{8192, 4184, 12345.5, 3};
    uet_monitor_row r;
    ASSERT_TRUE(make_monitor_row(p, uet_monitor_row::dir::tx, 1500, 9, 1, &s, -1, r));
    EXPECT_EQ(r.sim_time_ps, 1500u);
    EXPECT_EQ(r.fep_id, 9u);
    EXPECT_EQ(r.packet_uid, 77u);
    EXPECT_EQ(r.remote_ip, 2u);  // sent: the destination
    EXPECT_EQ(r.local_pdc, 4);
    EXPECT_EQ(r.remote_pdc, 32770);
    EXPECT_EQ(r.packet_type, uet_monitor_row::type::rud_request);
    EXPECT_TRUE(r.has_entropy);
    EXPECT_EQ(r.entropy_value, 0xC123);
    EXPECT_TRUE(r.ar);
    EXPECT_EQ(r.psn, 900u);
    EXPECT_FALSE(r.has_ecn_marked);  // only on receipt
    EXPECT_TRUE(r.has_sender_state);
    EXPECT_EQ(r.bytes_in_flight, 4184u);
    EXPECT_EQ(r.job_id, 3u);
}

TEST(uet_monitor_row, a_received_ack_lists_its_sack_bitmap_and_rtt)
{
    packet p;
    p.kind = packet_kind::uet_ack;
    p.ip.src = 2;
    p.ip.ecn = ecn::ce;
    p.pds.spdcid = 32770;
    p.pds.dpdcid = 4;
    p.pds.ack_psn = 903;
    p.pds.cack_psn = 900;
    p.pds.sack_base = 896;
    p.pds.sack_bitmap = 0b1010'0000'0001;  // bits 0, 9 and 11
    uet_monitor_row r;
    ASSERT_TRUE(make_monitor_row(p, uet_monitor_row::dir::rx, 0, 9, 1, nullptr, 2500.0, r));
    EXPECT_EQ(r.remote_ip, 2u);  // received: the source
    EXPECT_EQ(r.local_pdc, 4);
    EXPECT_EQ(r.packet_type, uet_monitor_row::type::ack_cc);
    EXPECT_EQ(r.psn, 903u);
    EXPECT_EQ(r.bitmap_psns, (std::vector<uint32_t>{896, 905, 907}));
    EXPECT_TRUE(r.ecn_marked);
    EXPECT_TRUE(r.has_rtt);
    EXPECT_EQ(r.rtt_ns, 2500.0);
    EXPECT_FALSE(r.has_sender_state);
}

TEST(uet_monitor_row, a_nack_shows_the_senders_pdc_as_entropy_and_raw_has_no_row)
{
    packet n;
    n.kind = packet_kind::uet_nack;
    n.pds.spdcid = 32771;
    n.pds.nack_code = 2;
    uet_monitor_row r;
    ASSERT_TRUE(make_monitor_row(n, uet_monitor_row::dir::tx, 0, 9, 1, nullptr, -1, r));
    EXPECT_EQ(r.packet_type, uet_monitor_row::type::nack);
    EXPECT_TRUE(r.nack_last_hop);
    EXPECT_EQ(r.entropy_value, 32771);
    packet raw;
    raw.kind = packet_kind::raw_data;
    EXPECT_FALSE(make_monitor_row(raw, uet_monitor_row::dir::tx, 0, 9, 1, nullptr, -1, r));
}
