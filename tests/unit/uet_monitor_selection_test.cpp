// uet_monitor_selection: the ScalaUETMonitor filters (exact match, `All`, combined), the
// connection staying selected at both of its ends, the RTT and receiver-penalty triggers and
// their shared budget, and the checks of the filters' text, on hand-built rows.
#include <gtest/gtest.h>

#include "testbench/records/uet_monitor_selection.h"

namespace uetsim {
namespace {

using dir = uet_monitor_row::dir;
using type = uet_monitor_row::type;

constexpr uint32_t ip_a = 0x0A000001;  // 10.0.0.1, FEP 1: the sender
constexpr uint32_t ip_b = 0x0A000002;  // 10.0.0.2, FEP 2: the receiver of connection A->B
constexpr uint32_t ip_c = 0x0A000003;  // 10.0.0.3, FEP 3

uet_monitor_row row(uint32_t fep, type t, dir d, uint32_t lip, uint16_t lpdc, uint32_t rip,
                    uint16_t rpdc)
{
    uet_monitor_row r;
    r.fep_id = fep;
    r.packet_type = t;
    r.direction = d;
    r.local_ip = lip;
    r.local_pdc = lpdc;
    r.remote_ip = rip;
    r.remote_pdc = rpdc;
    return r;
}

// Connection A->B: A's PDC 5, B's 32769; A learns 32769 from its first ACK.
const uet_monitor_row ab_data_tx = row(1, type::rud_request, dir::tx, ip_a, 5, ip_b, 0);
const uet_monitor_row ab_data_rx = row(2, type::rud_request, dir::rx, ip_b, 0, ip_a, 5);
const uet_monitor_row ab_ack_tx = row(2, type::ack_cc, dir::tx, ip_b, 32769, ip_a, 5);
const uet_monitor_row ab_ack_rx = row(1, type::ack_cc, dir::rx, ip_a, 5, ip_b, 32769);
const uet_monitor_row ab_nack_tx = row(2, type::nack, dir::tx, ip_b, 32769, ip_a, 5);
const uet_monitor_row ab_probe_tx = row(1, type::ctrl, dir::tx, ip_a, 5, ip_b, 32769);
// Connection A->C: A's PDC 6, C's 32769.
const uet_monitor_row ac_data_tx = row(1, type::rud_request, dir::tx, ip_a, 6, ip_c, 32769);
const uet_monitor_row ac_ack_rx = row(1, type::ack_cc, dir::rx, ip_a, 6, ip_c, 32769);
const uet_monitor_row ac_data_rx = row(3, type::rud_request, dir::rx, ip_c, 32769, ip_a, 6);

uet_monitor_settings monitor_on()
{
    uet_monitor_settings s;
    s.enabled = true;
    return s;
}

TEST(uet_monitor_selection, every_row_of_a_connection_names_its_sending_end)
{
    const uint64_t ab = (uint64_t(ip_a) << 16) | 5;
    for (const auto* r :
         {&ab_data_tx, &ab_data_rx, &ab_ack_tx, &ab_ack_rx, &ab_nack_tx, &ab_probe_tx})
        EXPECT_EQ(uet_monitor_selection::connection(*r), ab);
    EXPECT_EQ(uet_monitor_selection::connection(ac_data_rx), (uint64_t(ip_a) << 16) | 6);
}

TEST(uet_monitor_selection, with_every_filter_all_the_monitor_logs_everything)
{
    uet_monitor_selection sel(monitor_on());
    for (const auto* r : {&ab_data_tx, &ab_data_rx, &ac_data_tx, &ac_ack_rx})
        EXPECT_TRUE(sel.wanted(*r));
}

TEST(uet_monitor_selection, off_and_without_triggers_nothing_is_logged)
{
    uet_monitor_settings s = monitor_on();
    s.enabled = false;
    uet_monitor_selection sel(s);
    EXPECT_FALSE(s.any());
    for (const auto* r : {&ab_data_tx, &ab_data_rx, &ac_ack_rx}) EXPECT_FALSE(sel.wanted(*r));
}

TEST(uet_monitor_selection, a_match_selects_the_connection_at_both_ends_for_the_rest_of_the_run)
{
    uet_monitor_settings s = monitor_on();
    s.filter_fep_id = "2";
    uet_monitor_selection sel(s);
    // A's first data packet goes out before any row of B matched: not logged.
    EXPECT_FALSE(sel.wanted(ab_data_tx));
    EXPECT_TRUE(sel.wanted(ab_data_rx));  // at FEP 2: selects A->B
    // From now on A's rows of A->B are logged too, though FEP 1 does not match.
    EXPECT_TRUE(sel.wanted(ab_ack_rx));
    EXPECT_TRUE(sel.wanted(ab_data_tx));
    EXPECT_TRUE(sel.wanted(ab_probe_tx));
    // A->C has no row at FEP 2.
    EXPECT_FALSE(sel.wanted(ac_data_tx));
    EXPECT_FALSE(sel.wanted(ac_data_rx));
    EXPECT_EQ(sel.selected(), 1u);
}

TEST(uet_monitor_selection, filters_combine_and_match_exactly)
{
    uet_monitor_settings s = monitor_on();
    s.filter_fep_id = "1";
    s.filter_remote_ip = "10.0.0.3";
    uet_monitor_selection sel(s);
    EXPECT_FALSE(sel.filters_match(ab_data_tx));  // FEP 1, but remote 10.0.0.2
    EXPECT_FALSE(sel.filters_match(ac_data_rx));  // remote is A at FEP 3
    EXPECT_TRUE(sel.filters_match(ac_data_tx));
    s.filter_fep_id = "11";  // exact: 11 is not 1
    EXPECT_FALSE(uet_monitor_selection(s).filters_match(ac_data_tx));
    s = monitor_on();
    s.filter_local_ip = "10.0.0.2";
    uet_monitor_selection by_local(s);
    EXPECT_FALSE(by_local.filters_match(ab_data_tx));
    EXPECT_TRUE(by_local.filters_match(ab_ack_tx));
    EXPECT_FALSE(by_local.filters_match(ac_data_rx));
}

TEST(uet_monitor_selection, a_pdc_filter_matches_the_local_or_the_remote_id)
{
    uet_monitor_settings s = monitor_on();
    s.filter_pdc = "10.0.0.2:32769";
    uet_monitor_selection sel(s);
    EXPECT_FALSE(sel.filters_match(ab_data_tx));  // remote id still 0
    EXPECT_TRUE(sel.filters_match(ab_ack_tx));    // local at B
    EXPECT_TRUE(sel.filters_match(ab_ack_rx));    // remote at A
    EXPECT_FALSE(sel.filters_match(ac_ack_rx));   // 32769 too, but at 10.0.0.3
    s.filter_pdc = "10.0.0.1:5";
    uet_monitor_selection sender(s);
    EXPECT_TRUE(sender.filters_match(ab_data_tx));
    EXPECT_TRUE(sender.filters_match(ab_data_rx));
    EXPECT_FALSE(sender.filters_match(ac_data_tx));
}

TEST(uet_monitor_selection, the_rtt_trigger_fires_at_or_above_its_threshold_within_the_budget)
{
    uet_monitor_settings s;
    s.trigger_on_rtt = true;  // threshold 100 us, limit 1
    EXPECT_TRUE(s.any());
    uet_monitor_selection sel(s);
    uet_monitor_row slow_ab = ab_ack_rx;
    slow_ab.has_rtt = true;
    slow_ab.rtt_ns = 99'999;
    EXPECT_FALSE(sel.wanted(slow_ab));
    EXPECT_FALSE(sel.wanted(ab_data_tx));
    slow_ab.rtt_ns = 100'000;  // at the threshold
    EXPECT_TRUE(sel.wanted(slow_ab));
    EXPECT_EQ(sel.triggers_left(), 0u);
    EXPECT_TRUE(sel.wanted(ab_data_rx));  // the other end, from now on
    uet_monitor_row slow_ac = ac_ack_rx;
    slow_ac.has_rtt = true;
    slow_ac.rtt_ns = 500'000;
    EXPECT_FALSE(sel.wanted(slow_ac));  // budget spent
    EXPECT_FALSE(sel.wanted(ac_data_tx));
}

TEST(uet_monitor_selection, the_penalty_trigger_reads_an_acks_penalty_or_the_senders_latest)
{
    uet_monitor_settings s;
    s.trigger_on_penalty = true;
    s.penalty_threshold = 64;
    s.triggered_pdc_limit = 2;
    uet_monitor_selection sel(s);
    uet_monitor_row ack = ab_ack_tx;
    ack.has_penalty = true;
    ack.penalty = 63;
    EXPECT_FALSE(sel.wanted(ack));
    ack.penalty = 64;
    EXPECT_TRUE(sel.wanted(ack));
    uet_monitor_row data = ac_data_tx;
    data.has_sender_penalty = true;
    data.sender_penalty = 100;
    EXPECT_TRUE(sel.wanted(data));
    EXPECT_EQ(sel.triggers_left(), 0u);
    EXPECT_EQ(sel.selected(), 2u);
    // An RTT does not fire the penalty trigger.
    uet_monitor_settings p;
    p.trigger_on_penalty = true;
    uet_monitor_row rtt = ab_ack_rx;
    rtt.has_rtt = true;
    rtt.rtt_ns = 1e9;
    EXPECT_FALSE(uet_monitor_selection(p).trigger_fires(rtt));
}

TEST(uet_monitor_selection, a_zero_budget_never_triggers_and_filter_matches_do_not_spend_it)
{
    uet_monitor_settings s;
    s.trigger_on_rtt = true;
    s.triggered_pdc_limit = 0;
    uet_monitor_row slow = ab_ack_rx;
    slow.has_rtt = true;
    slow.rtt_ns = 1e6;
    EXPECT_FALSE(uet_monitor_selection(s).wanted(slow));

    s = monitor_on();
    s.filter_fep_id = "1";
    s.trigger_on_rtt = true;
    uet_monitor_selection sel(s);
    bool triggered = false;
    EXPECT_TRUE(sel.wanted(slow, &triggered));  // the filter selects it
    EXPECT_FALSE(triggered);                    // ... not a trigger (Trace.Trigger On: monitor)
    EXPECT_EQ(sel.triggers_left(), 1u);
    uet_monitor_row slow_c = row(3, type::ack_cc, dir::rx, ip_c, 9, ip_b, 32770);
    slow_c.has_rtt = true;
    slow_c.rtt_ns = 1e6;
    EXPECT_TRUE(sel.wanted(slow_c, &triggered));  // FEP 3 does not match: the trigger selects it
    EXPECT_TRUE(triggered);
    EXPECT_EQ(sel.triggers_left(), 0u);
    triggered = false;
    EXPECT_TRUE(sel.wanted(slow_c, &triggered));  // already selected: no new trigger
    EXPECT_FALSE(triggered);
}

TEST(uet_monitor_selection, filter_text_is_all_or_an_exact_value)
{
    EXPECT_EQ(parse_ipv4("32.0.0.2"), 0x20000002u);
    EXPECT_EQ(parse_ipv4("255.255.255.255"), 0xFFFFFFFFu);
    for (const char* bad :
         {"32.0.0", "32.0.0.256", "1.2.3.4.5", "a.b.c.d", "", "1..2.3", " 1.2.3.4"})
        EXPECT_FALSE(parse_ipv4(bad)) << bad;
    EXPECT_EQ(ipv4_text(0x20000002), "32.0.0.2");
    EXPECT_EQ(ipv4_text(0xFFFF0A01), "255.255.10.1");
    EXPECT_FALSE(ip_filter_error("All"));
    EXPECT_TRUE(ip_filter_error("all"));  // exact spelling
    EXPECT_TRUE(ip_filter_error("32.0.0.2:4500"));
    EXPECT_FALSE(pdc_filter_error("32.0.0.2:4500"));
    EXPECT_FALSE(pdc_filter_error("All"));
    for (const char* bad : {"32.0.0.2", "32.0.0.2:", "32.0.0.2:65536", "4500", "32.0.0:4500"})
        EXPECT_TRUE(pdc_filter_error(bad)) << bad;
    EXPECT_FALSE(fep_id_filter_error("17"));
    EXPECT_FALSE(fep_id_filter_error("All"));
    for (const char* bad : {"-1", "x", "1.5", "", "4294967296"})
        EXPECT_TRUE(fep_id_filter_error(bad)) << bad;
}

}  // namespace
}  // namespace uetsim
