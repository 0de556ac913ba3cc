// Drives one queue pair's rate loop (hw/nic/roce/dcqcn_rate) through a fixed CNP pattern at the
// defaults (400 Gbps) and prints its state after every event as CSV, for dcqcn_rate.py.
// The queue pair sends 4,154-byte data packets back to back at its allowed rate. Pattern: one CNP
// at 0 (the page's worked example), then from 600 us to 1200 us one CNP for every 5th packet
// sent (20% of the packets CE-marked, the CNP back at once). The loop's timer runs as the NIC
// runs it: every half interval from an episode's start while congested.
#include <cstdint>
#include <cstdio>

#include "hw/nic/roce/dcqcn_rate.h"

using namespace uetsim;

int main()
{
    dcqcn_rate r(dcqcn_config{}, 400e9);
    const uint64_t us = 1'000'000;  // ps
    const uint64_t end = 2000 * us;
    const double packet_bits = 4154 * 8;
    double owed_packets = 0;
    uint64_t sent = 0;
    std::printf("t_us,event,rate_gbps,target_gbps,recovery\n");
    auto row = [&](uint64_t t, const char* ev) {
        std::printf("%.3f,%s,%.6f,%.6f,%u\n", double(t) / us, ev, r.rate_bps() / 1e9,
                    r.target_bps() / 1e9, r.recovery_count());
    };
    row(0, "start");
    uint64_t next_half = UINT64_MAX;
    const uint64_t step = 500'000;  // 0.5 us: CNP times and half boundaries fall on it
    for (uint64_t t = 0; t <= end; t += step) {
        // Packets and CNPs of this step, then the loop's half if it falls here.
        bool cnp = t == 0;
        owed_packets += r.rate_bps() * double(step) * 1e-12 / packet_bits;
        for (; owed_packets >= 1; owed_packets -= 1) {
            r.on_data_sent();
            ++sent;
            if (t >= 600 * us && t < 1200 * us && sent % 5 == 0) cnp = true;
            if (cnp) {
                if (r.on_cnp()) next_half = t + r.half_interval_ps();
                row(t, "cnp");
                cnp = false;
            }
        }
        if (cnp) {
            if (r.on_cnp()) next_half = t + r.half_interval_ps();
            row(t, "cnp");
        }
        if (t == next_half) {
            next_half = r.run_half() ? t + r.half_interval_ps() : UINT64_MAX;
            row(t, "half");
        }
    }
    row(end, "end");
    return 0;
}
