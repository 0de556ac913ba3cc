// A packet from the pool is a fresh one, whatever it carried before: a RoCE frame's BTH, a
// connection-management message and a PFC frame's classes share their bytes (packet.h), and each
// must read zero in a packet that has not set it.
#include <gtest/gtest.h>

#include "tlm/packet_pool.h"

using namespace uetsim;

TEST(packet_pool, a_reused_packet_reads_zero_in_every_header_sharing_its_bytes)
{
    packet_pool pool;
    packet* p = pool.acquire();
    p->kind = packet_kind::roce_data;
    p->bth.opcode = 0x0a;
    p->bth.dest_qp = 0xffffff;
    p->bth.psn = 0xffffff;
    p->bth.ack_request = p->bth.solicited = true;
    p->bth.aeth_syndrome = 0xff;
    p->bth.msn = 0xffffff;
    p->pds.psn = 77;
    pool.release(p);

    packet* q = pool.acquire();
    ASSERT_EQ(q, p);  // the same storage, taken again
    EXPECT_EQ(q->kind, packet_kind::raw_data);
    EXPECT_EQ(q->pds.psn, 0u);
    EXPECT_EQ(q->pfc.class_enable, 0u);
    for (int t = 0; t < 8; ++t) EXPECT_EQ(q->pfc.quanta[t], 0u) << "class " << t;
    EXPECT_EQ(uint8_t(q->cm.type), 0u);
    EXPECT_EQ(q->cm.connection, 0u);
    EXPECT_EQ(q->cm.initiator_host, 0u);
    EXPECT_EQ(q->cm.responder_host, 0u);
    EXPECT_EQ(q->bth.msn, 0u);
}
