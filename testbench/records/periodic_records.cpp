#include "testbench/records/periodic_records.h"

#include <algorithm>

#include "hw/common/activity.h"
#include "hw/common/time.h"

namespace uetsim {

namespace {

constexpr uint32_t no_subtier = 4294967295u;

bool enabled(const scenario& sc, const std::string& record)
{
    const auto& e = sc.records.enabled;
    return std::find(e.begin(), e.end(), record) != e.end();
}

std::string record_path(const std::string& dir, const scenario& sc, const std::string& record)
{
    return dir + "/" + sc.simulation.name + "-" + record + "-0.csv";
}

}  // namespace

periodic_records::periodic_records(const sc_core::sc_module_name& name, const scenario& sc,
                                   fabric& fab, const std::string& out_dir)
    : sc_core::sc_module(name), m_sc(sc), m_fab(fab)
{
    SC_HAS_PROCESS(periodic_records);
    const topology& t = fab.topo();
    if (enabled(sc, "nd-stats")) {
        m_nd = std::make_unique<csv_writer>(record_path(out_dir, sc, "nd-stats"),
                                            std::vector<std::string>{"time_utc",
                                                                     "sim_time_sec",
                                                                     "component_name",
                                                                     "nd_name",
                                                                     "component_type",
                                                                     "ifid",
                                                                     "uldl",
                                                                     "node_id",
                                                                     "tier",
                                                                     "subtier",
                                                                     "total_packets_tx",
                                                                     "total_packets_rx",
                                                                     "total_bytes_tx_GB",
                                                                     "total_bytes_rx_GB",
                                                                     "interval_bytes_tx_MB",
                                                                     "interval_bytes_rx_MB",
                                                                     "tx_rate_Gbps",
                                                                     "rx_rate_Gbps",
                                                                     "tx_link_percent_util",
                                                                     "rx_link_percent_util",
                                                                     "tx_drops",
                                                                     "rx_drops",
                                                                     "link_name",
                                                                     "link_rate_Gbps"});
        for (uint32_t d = 0; d < t.devices.size(); ++d)
            for (uint32_t p = 0; p < t.devices[d].ports.size(); ++p) m_ports.push_back({d, p});
        SC_METHOD(nd_tick);  // first call at time 0 only arms the first interval
    }
    if (enabled(sc, "switch-load-balancing-stats") && sc.sw.enable_load_balancing_stats) {
        m_lb = std::make_unique<csv_writer>(
            record_path(out_dir, sc, "switch-load-balancing-stats"),
            std::vector<std::string>{"time_utc",          "sim_time_sec",
                                     "component_name",    "component_type",
                                     "node_id",           "tier",
                                     "subtier",           "ifid",
                                     "ecmp_group_id",     "ecmp_group_ifids",
                                     "group_size",        "group_formed_ns",
                                     "flow_table_slots",  "bytes",
                                     "ivl_bytes",         "packets",
                                     "ivl_packets",       "assignments",
                                     "ivl_assignments",   "movements_in",
                                     "ivl_movements_in",  "movements_out",
                                     "ivl_movements_out", "ivl_share",
                                     "paused_skips",      "ivl_paused_skips",
                                     "paused_selections", "ivl_paused_selections"});
        for (uint32_t s = 0; s < fab.switch_count(); ++s) {
            const routing_table& rt = fab.switch_at(s).routes();
            for (int32_t set = 0; set < int32_t(rt.set_count()); ++set)
                if (rt.set_size(set) > 1)  // a single path is not an equal-cost choice
                    for (uint32_t m = 0; m < rt.set_size(set); ++m)
                        m_members.push_back({s, set, m});
        }
        SC_METHOD(lb_tick);
    }
}

void periodic_records::nd_tick()
{
    activity::tick();
    const double interval = m_sc.simulation.nd_stats_interval_s;
    if (!m_nd_started) {
        m_nd_started = true;
        next_trigger(seconds(interval));
        return;
    }
    const double now = to_seconds(sc_core::sc_time_stamp());
    write_nd(now, now - m_last_nd_s);
    m_last_nd_s = now;
    next_trigger(seconds(interval));
}

void periodic_records::lb_tick()
{
    activity::tick();
    if (!m_lb_started) {
        m_lb_started = true;
        next_trigger(seconds(m_sc.sw.load_balancing_stats_interval_s));
        return;
    }
    write_lb(to_seconds(sc_core::sc_time_stamp()));
    next_trigger(seconds(m_sc.sw.load_balancing_stats_interval_s));
}

void periodic_records::write_nd(double now, double interval)
{
    const topology& t = m_fab.topo();
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    for (auto& pr : m_ports) {
        const device& dev = t.devices[pr.device];
        const auto& ref = dev.ports[pr.port];
        link& l = m_fab.link_at(ref.link);
        uint64_t txp, rxp, txb, rxb, txd = 0, rxd = 0;
        if (dev.kind == device_kind::host) {
            const host_port_stats h = m_fab.host_stats(pr.device);
            txp = h.tx_packets, txb = h.tx_bytes, rxp = h.rx_packets, rxb = h.rx_bytes,
            rxd = h.rx_drops;
        } else {
            switch_port& sp = m_fab.switch_at(dev.index).port(pr.port);
            txp = sp.tx.packets(), txb = sp.tx.bytes();
            rxp = sp.counters().rx_packets, rxb = sp.counters().rx_bytes;
            txd = sp.counters().tx_drops;  // rx_drops stays 0: no ingress admission yet
        }
        const double ivl_tx = double(txb - pr.last_tx_bytes),
                     ivl_rx = double(rxb - pr.last_rx_bytes);
        pr.last_tx_bytes = txb, pr.last_rx_bytes = rxb;
        const double tx_gbps = interval > 0 ? ivl_tx * 8 / interval / 1e9 : 0.0;
        const double rx_gbps = interval > 0 ? ivl_rx * 8 / interval / 1e9 : 0.0;
        const double link_gbps = l.nominal_rate_bps() / 1e9;
        const bool host = dev.kind == device_kind::host;
        m_nd->row(utc, now, dev.name, host ? "uetsim::host_port" : "uetsim::switch_port",
                  host ? "NIC" : "Switch", pr.port, ref.uplink ? "ul" : "dl", dev.node_id, dev.tier,
                  no_subtier, txp, rxp, double(txb) / 1e9, double(rxb) / 1e9, ivl_tx / 1e6,
                  ivl_rx / 1e6, tx_gbps, rx_gbps, tx_gbps / link_gbps * 100,
                  rx_gbps / link_gbps * 100, txd, rxd, t.links[ref.link].name, link_gbps);
    }
}

void periodic_records::write_lb(double now)
{
    const topology& t = m_fab.topo();
    const std::string utc = utc_after(m_sc.simulation.epoch_utc, now);
    // Interval bytes per set first, for each member's share.
    std::vector<uint64_t> set_ivl(m_members.size(), 0);
    for (size_t i = 0; i < m_members.size();) {
        size_t j = i;
        uint64_t sum = 0;
        for (; j < m_members.size() && m_members[j].sw == m_members[i].sw &&
               m_members[j].set == m_members[i].set;
             ++j) {
            const auto& rt = m_fab.switch_at(m_members[j].sw).routes();
            sum += m_fab.switch_at(m_members[j].sw)
                       .member(rt.member_slot(m_members[j].set, m_members[j].member))
                       .bytes -
                   m_members[j].last_bytes;
        }
        for (size_t k = i; k < j; ++k) set_ivl[k] = sum;
        i = j;
    }
    for (size_t i = 0; i < m_members.size(); ++i) {
        auto& mr = m_members[i];
        fabric_switch& sw = m_fab.switch_at(mr.sw);
        const routing_table& rt = sw.routes();
        const device& dev = t.devices[sw.node_id()];
        const member_counters& c = sw.member(rt.member_slot(mr.set, mr.member));
        std::string ifids = "[";
        for (size_t m = 0; m < rt.set_size(mr.set); ++m)
            ifids += (m ? " " : "") + std::to_string(rt.member_port(mr.set, m));
        ifids += "]";
        const uint64_t ivl_b = c.bytes - mr.last_bytes, ivl_p = c.packets - mr.last_packets;
        mr.last_bytes = c.bytes, mr.last_packets = c.packets;
        const uint64_t formed = sw.set_formed_ps(mr.set);
        m_lb->row(utc, now, dev.name, "Switch", dev.node_id, dev.tier, no_subtier,
                  rt.member_port(mr.set, mr.member), mr.set, ifids, rt.set_size(mr.set),
                  formed == UINT64_MAX ? -1.0 : double(formed) / 1e3, 0, c.bytes, ivl_b, c.packets,
                  ivl_p, 0, 0, 0, 0, 0, 0, set_ivl[i] ? double(ivl_b) / double(set_ivl[i]) : 0.0, 0,
                  0, 0, 0);
    }
}

void periodic_records::finish()
{
    const double now = to_seconds(sc_core::sc_time_stamp());
    if (m_nd && (m_nd->rows() == 0 || now > m_last_nd_s)) write_nd(now, now - m_last_nd_s);
    if (m_lb) write_lb(now);  // the last row per member, always
    if (m_nd) m_nd->close();
    if (m_lb) m_lb->close();
}

std::vector<std::string> periodic_records::files() const
{
    std::vector<std::string> f;
    if (m_nd) f.push_back(m_nd->path());
    if (m_lb) f.push_back(m_lb->path());
    return f;
}

}  // namespace uetsim
