// PDC and work-request lifecycle events of the UET NIC (the uet-events record): the NIC reports
// each event with the PDC's two ends; the testbench writes them, so hw/ never depends on
// records. A NIC reports only with its EnableEventLogging on and a sink set: nothing is built
// per packet otherwise.
#pragma once

#include <cstdint>

namespace uetsim {

struct uet_event
{
    enum class type : uint8_t {
        pdc_created,
        wqe_created,
        send_complete,
        wqe_complete,
        recv_complete,
        pdc_terminated,
        // The close handshake and the NACKs of the PDC lifecycle (docs/pdc-lifecycle.md).
        close_cmd_sent,
        close_cmd_rcvd,
        close_req_sent,
        close_req_rcvd,
        nack_no_pdc_avail_sent,
        nack_no_pdc_avail_rcvd,
        nack_inv_dpdcid_sent,
        nack_inv_dpdcid_rcvd
    };

    uint64_t sim_time_ps = 0;
    uint32_t fep_id = 0;  // the NIC's node id
    uint32_t local_ip = 0, remote_ip = 0;
    uint16_t local_pdc = 0, remote_pdc = 0;  // remote 0 on the sender until its first ACK
    bool has_wqe = false;                    // work-request events only
    uint64_t wqe_id = 0;
    uint64_t wqe_bytes = 0;
    type ev = type::pdc_created;
};

class uet_event_sink
{
public:
    virtual ~uet_event_sink() = default;
    virtual void event(const uet_event& e) = 0;
};

}  // namespace uetsim
