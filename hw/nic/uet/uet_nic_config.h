// Attributes of the UET NIC (scenario section `UetNic`): PDS manager, buffers, pipeline timing.
// Defaults are the UET NIC pages'; the pipeline latencies are uetsim's (docs/uet-nic.md).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "hw/common/value_range.h"
#include "hw/nic/common/nic_buffer_config.h"
#include "hw/nic/common/pipeline_stage.h"
#include "hw/nic/uet/rccc_config.h"
#include "hw/nic/uet/uet_profile.h"

namespace uetsim {

// Everything but the job table: what a NIC keeps, one copy for every NIC alike
// (shared_settings.h compares it byte by byte, so it holds no pointer).
struct uet_nic_settings
{
    // Transport (ScalaUETPdsManager).
    uint32_t rdma_data_mss = 4096;
    uint32_t ack_request_every_nth_packet = 1;
    bool ack_request_first_packet = true;
    bool ack_request_last_packet = true;
    double initial_retransmit_timeout_s = 150e-6;
    uint32_t max_exponential_rto_backoff_count = 5;
    static constexpr value_range max_exponential_rto_backoff_count_range{0, 15};
    bool fixed_rexmit_time_enable = false;
    double fixed_rexmit_timeout_s = 150e-6;
    bool trimming_enabled = false;
    bool use_distinct_dscp_for_retransmits = true;
    bool pdc_groups_enabled = true;
    // The prefetch buffer (the transport page): off, a new packet's egress space is reserved
    // and the window checked when its fetch is issued; on, the fetched payload waits in a buffer
    // of prefetch_buffer_size bytes shared by the NIC's PDCs until the window and the egress
    // pool let it go, and its egress space is reserved then.
    bool prefetch_buffer_enable = false;      // PrefetchBufferEnable
    uint64_t prefetch_buffer_size = 262'144;  // PrefetchBufferSize, bytes (at least 4,202)
    bool enable_event_logging = false;        // EnableEventLogging: this NIC's rows in uet-events
    bool enable_buffer_stats = false;         // EnableBufferStats: its pools in net-buff-stats
    // RCCC, the receiver's credit beside NSCC (docs/nscc.md, "RCCC"); off by default.
    rccc_config rccc;
    // PDC close handshake (docs/pdc-lifecycle.md): 0 never (a PDC ends at its sender only, as
    // before); above 0, an idle queue-pair PDC closes after this time and every closing PDC
    // sends CLOSE_CMD and waits for its ACK, and a target out of receiving ends NACKs
    // NO_PDC_AVAIL instead of stopping the run.
    double pdc_idle_close_timeout_s = 0;
    static constexpr double pdc_idle_close_timeout_max_s = 1;
    // The UET profile the NIC implements (Profile; docs/jobs-and-profiles.md).
    uet_profile profile = uet_profile::ai_full;
    // Data packets take their message's class (RdmaDataPacketTC, a Flows entry's TrafficClass).
    uint8_t control_traffic_class = 1;

    // The transmit and receive buffers (EgressBufferManager, IngressBufferManager: the
    // buffers-and-PFC page; docs/buffers-and-pfc.md "UET NIC buffers"). PFCEnableVector is kept
    // as written: an entry of 1 enables the class, any other value leaves it disabled.
    nic_buffer_settings egress = default_egress_buffer();
    nic_ingress_settings ingress = default_ingress_buffer();
    std::array<double, 8> pfc_enable_vector{};

    // Pipeline (docs/nic-pipeline.md): the NIC clock and each stage's latency, initiation
    // interval and input FIFO in cycles. The defaults are the fixed latencies the NIC had before
    // stages had intervals and FIFOs: only the scheduler paces (one packet per 2 cycles).
    double clock_hz = 1e9;
    pipeline_stage_timing doorbell{15, 0, 0};       // doorbell -> the scheduler wakes (15 ns)
    pipeline_stage_timing scheduler{0, 2, 0};       // picks the next packet
    pipeline_stage_timing payload_fetch{0, 0, 0};   // DMA read of the payload (beyond PCIe time)
    pipeline_stage_timing entropy_lookup{1, 0, 0};  // the group's load balancer picks the value
    pipeline_stage_timing header_build{4, 0, 0};    // payload arrived -> egress queue
    pipeline_stage_timing rx_parse{4, 0, 0};        // frame received -> parsed (MAC FIFO ahead)
    pipeline_stage_timing pdc_lookup{0, 0, 0};      // the receiving or sending PDC found
    pipeline_stage_timing sack_update{0, 0, 0};     // PSN tracking, SACK state updated
    pipeline_stage_timing host_write{0, 0, 0};      // payload handed to the host write engine
    pipeline_stage_timing ack_build{0, 0, 0};       // ACK/NACK generation
    // Payload-fetch DMA read tags (0: unlimited, as before tags were modelled).
    uint32_t max_outstanding_reads = 0;
    // PDC context cache (docs/nic-pipeline.md): 0 keeps every PDC's context on chip; otherwise
    // this many contexts are on chip and a miss reads one of pdc_context_bytes from host memory
    // (through the read tags) and writes back the least recently used one.
    uint32_t pdc_context_cache_entries = 0;
    static constexpr value_range pdc_context_cache_entries_range{0, 65536};
    uint32_t pdc_context_bytes = 256;
    static constexpr value_range pdc_context_bytes_range{16, 4096};
    // Context slots of the entropy load balancer (one per open PDC group) and of the SACK
    // tracker (one per receiving PDC), as in hardware (docs/uet-nic.md, "Engines and context
    // slots"). Running out stops the run; the defaults leave every reference scenario room.
    uint32_t entropy_contexts = 4096;
    static constexpr value_range entropy_contexts_range{1, 65536};
    uint32_t sack_contexts = 4096;
    static constexpr value_range sack_contexts_range{1, 65536};

    double cycle_s() const { return 1.0 / clock_hz; }
    uint32_t nominal_bytes(uint32_t payload) const { return payload + 88; }
};

struct uet_nic_config : uet_nic_settings
{
    // The JobIDs the NIC serves (JobTable; empty: every job, no check): made into the NIC's
    // job_table when it is built.
    std::vector<double> job_table;

    // The settings are copied whole, their padding included: a base's implicit copy leaves its
    // tail padding as it was, and NICs share settings whose bytes are equal (share_settings).
    uet_nic_config() = default;
    uet_nic_config(const uet_nic_config& o) : job_table(o.job_table) { copy_settings(o); }
    uet_nic_config(uet_nic_config&& o) noexcept : job_table(std::move(o.job_table))
    {
        copy_settings(o);
    }
    uet_nic_config& operator=(const uet_nic_config& o)
    {
        if (this == &o) return *this;
        copy_settings(o);
        job_table = o.job_table;
        return *this;
    }
    uet_nic_config& operator=(uet_nic_config&& o) noexcept
    {
        if (this == &o) return *this;
        copy_settings(o);
        job_table = std::move(o.job_table);
        return *this;
    }

private:
    void copy_settings(const uet_nic_settings& o)
    {
        std::memcpy(static_cast<uet_nic_settings*>(this), &o, sizeof(uet_nic_settings));
    }
};
// The job table starts after the settings' last byte, so copy_settings writes only settings.
static_assert(sizeof(uet_nic_config) == sizeof(uet_nic_settings) + sizeof(std::vector<double>));
static_assert(std::is_trivially_copyable_v<uet_nic_settings>);

}  // namespace uetsim
