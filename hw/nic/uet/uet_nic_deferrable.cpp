// The UET NIC's deferrable sends (UET 1.0 DEFERRABLE_SEND and DEFERRABLE_RTR, the AI profiles'
// rendezvous). The initiator sends a deferrable send eagerly. A target whose host has not posted
// the message's receive buffer when its first packet arrives discards the transfer (each packet
// is still acknowledged, the ACK's SES response saying "deferred") instead of buffering it; when
// the host posts the buffer, the target sends an RTR, a 0-byte request of its own to the
// initiator. The initiator stops sending the message at the first deferred ACK and, once the
// RTR is in and every packet of the first transfer is acknowledged, sends the message again from
// its first byte (the restarted transfer, which the target places whatever else).
#include "hw/nic/uet/uet_nic.h"

#include "hw/nic/common/host_commands.h"
#include "tlm/header_sizes.h"

namespace uetsim {

void uet_nic::post_deferrable_message(uint64_t message, uint32_t dst_host, uint32_t dst_ip,
                                      uint64_t bytes, uint8_t traffic_class)
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    m_next_opcode = ses_op::deferrable_send;
    post_message(message, dst_host, dst_ip, bytes, traffic_class, k_no_queue_pair);
}

void uet_nic::receive_posted(uint32_t src_host, uint64_t message)
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    deferrable_receives::entry e;
    if (!m_deferrable.on_posted(src_host, message, e)) return;  // eager: nothing deferred yet
    m_next_opcode = ses_op::deferrable_rtr;
    m_next_job = e.job;
    post_message(k_rtr_message_bit | message, src_host, e.src_ip, 0, e.traffic_class,
                 k_no_queue_pair);
}

void uet_nic::deferred_by_target(sender_pdc& pdc, uet_message& m)
{
    m.deferred = true;
    auto early = m_early_rtrs.find(m.id);
    if (early != m_early_rtrs.end()) {
        m_early_rtrs.erase(early);
        m.rtr_arrived = true;
        return;  // resume_if_ready follows in on_ack
    }
    m_deferred_sends[m.id] = pdc.id;
}

void uet_nic::rtr_arrived(uint64_t message)
{
    settle_idle_pass();  // the NIC acts: a held-back scheduler pass first
    auto it = m_deferred_sends.find(message);
    if (it == m_deferred_sends.end()) {
        // The RTR overtook the deferred ACK (another path): kept until that ACK arrives.
        m_early_rtrs[message] = true;
        return;
    }
    sender_pdc& pdc = m_pdcs.at(it->second);
    uet_message& m = m_messages[pdc.message];
    m.rtr_arrived = true;
    resume_if_ready(pdc, m);
}

void uet_nic::resume_if_ready(sender_pdc& pdc, uet_message& m)
{
    if (!m.rtr_arrived || !pdc.st.idle()) return;
    m_deferred_sends.erase(m.id);
    m.resumed = true;
    m.next_offset = 0;
    m.packets_issued = 0;
    m.bytes_acked = 0;
    pdc_group& g = m_pdcs.group(pdc.group);
    if (g.credit) g.credit->add_demand(m.bytes + uint64_t(m.packets) * wire::uet_data_overhead);
    pds().enqueue(pdc.group, false);
    kick_scheduler();
}

}  // namespace uetsim
