// The waveform seam measured: a toy probe kind from the test tree (each host's NIC data packets
// sent, sampled every microsecond and at the end) joins the run's trace with add_probe_kind,
// after the built-in probes of each host; the trace writer walks it like its own rows and
// uetsim's files are not touched.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "hw/kernel/wakeup.h"
#include "hw/nic/common/host_nic.h"
#include "testbench/elab/fabric.h"
#include "testbench/run/simulation.h"
#include "testbench/trace/probe_registry.h"
#include "tests/support/run_uetsim.h"
#include "tests/support/vcd_reader.h"

using namespace uetsim;

namespace {

constexpr uint64_t sample_ps = 1'000'000;

// host<N>.toy.data_packets_sent: the NIC's count, sampled on a wake-up of its own.
class packets_sent_probe
{
public:
    packets_sent_probe(waveform_signals& w, const std::string& c, host_nic& nic)
        : m_w(w), m_nic(nic), m_id(w.add(c, "toy.data_packets_sent", 32, true))
    {
        m_tick.notify_at_ps(sim_now_ps());
    }
    void sample() { m_w.set(m_id, m_nic.data_packets_sent()); }

private:
    waveform_signals& m_w;
    host_nic& m_nic;
    uint32_t m_id;
    wakeup m_tick{[this] {
                      sample();
                      m_tick.notify_at_ps(sim_now_ps() + sample_ps);
                  },
                  wakeup::phase::sample};
};

void attach_packets_sent(probe_site& s, size_t h, const std::string& c)
{
    auto& p = s.keep(std::make_unique<packets_sent_probe>(s.signals, c, s.fab.nic_at(h)));
    s.on_finish([&p] { p.sample(); });  // the count the run ends with
}

}  // namespace

TEST(toy_probe, a_probe_kind_from_outside_joins_the_trace)
{
    add_probe_kind({"toy_packets_sent", probe_scope::host, attach_packets_sent});
    EXPECT_EQ(probe_kinds().back().name, "link");  // placed with the host rows, links stay last
    scenario sc;
    sc.simulation.name = "toyprobe";
    sc.simulation.stop_time_s = 200e-6;
    sc.topology.kind = topology_kind::single_switch;
    sc.topology.hosts = 4;
    const uint64_t bytes[] = {100'000, 40'000};
    for (uint32_t i = 0; i < 2; ++i) {
        flow_spec f;
        f.src = i;
        f.dst = 3;
        f.bytes = bytes[i];
        sc.flows.messages.push_back(f);
    }
    sc.trace.enabled = true;
    sc.trace.file = "toyprobe.vcd";
    sc.trace.components = {"host*"};
    sc.trace.signals = {"data_packets_sent"};
    run_options o;
    o.out_dir = test::scratch_dir("toy_probe");
    const run_summary s = run_simulation(sc, o);
    ASSERT_TRUE(s.scoreboard_ok) << s.scoreboard_message;
    const test::vcd v = test::parse_vcd(test::read_text(o.out_dir + "/toyprobe.vcd"));
    // Every host has the toy signal (and only it: the built-in ones are filtered out by name).
    ASSERT_EQ(v.names.size(), 4u);
    uint64_t total = 0;
    for (uint32_t h = 0; h < 4; ++h) {
        const std::string name = "host" + std::to_string(h) + ".toy.data_packets_sent";
        ASSERT_FALSE(v.of(name).empty()) << name;
        total += v.at(name, v.last_time);
    }
    // The run's own count: every data packet the NICs sent, read from the trace.
    EXPECT_EQ(total, s.data_packets_sent);
    EXPECT_GT(v.at("host0.toy.data_packets_sent", v.last_time),
              v.at("host1.toy.data_packets_sent", v.last_time));  // 100 kB against 40 kB
}
