// Link Level Retry in a fabric (docs/link-layer.md): at BER 1e-7 on one spine link the transport
// sees no loss on it (uet-transport-stats num_rtx 0) and the messages finish within 2 % of the
// error-free run, while without LLR the same run retransmits end to end; with BER 0, LLR adds
// only its control ordered sets, and leaving out a replay timer that cannot expire changes no
// record; bad LLR settings exit 2 naming the key and the link; inspect
// shows each link's resolved replay buffer.
//
// Numbers used below, at the defaults (leaf-spine, 16 hosts, 8 per leaf, 8 spines, 400 Gbps,
// SwitchDelay 500 ns, MSS 4096): a full data frame is 4,202 B on the wire; a leaf-spine link's
// LLR round trip is 1,000 ns + (2 x 4,202 + 2,048 + 8) B x 8 / 400 Gbps = 1,209.2 ns, its auto
// replay buffer 60,460 B rounded up to 15 frames, 63,030 B, its auto timeout 2,418.4 ns.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

namespace {

struct outcome
{
    nlohmann::json manifest;
    double max_fct_us = 0;
    double rtx = 0;  // uet-transport-stats num_rtx over the senders, at the end
    csv links;
};

// Eight 2 MiB messages host0..7 -> host8..15, sprayed over the eight spines, with `records`.
command_result run_cross_in(const std::string& dir, const std::string& records,
                            const std::string& extra)
{
    std::string y = "Simulation: {Name: x, StopTime: 50ms}\nRecords: {Enabled: [" + records +
                    "]}\n" + extra + "Flows:\n";
    for (int h = 0; h < 8; ++h)
        y += "  - {Src: " + std::to_string(h) + ", Dst: " + std::to_string(h + 8) +
             ", Bytes: 2MiB}\n";
    return run_uetsim({"run", write_file(dir + "/s.yaml", y), "--quiet", "--out", dir});
}

outcome run_cross(const std::string& tag, const std::string& extra)
{
    const std::string dir = scratch_dir(tag);
    const command_result r = run_cross_in(dir, "uet-transport-stats, flow-perf, link-stats", extra);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    outcome o;
    o.manifest = nlohmann::json::parse(read_text(dir + "/x-manifest.json"));
    const csv fp = read_csv(dir + "/x-flow-perf-0.csv");
    EXPECT_EQ(fp.rows.size(), 8u);
    for (size_t i = 0; i < fp.rows.size(); ++i)
        o.max_fct_us = std::max(o.max_fct_us, fp.num(i, "fct_usec"));
    const csv tr = read_csv(dir + "/x-uet-transport-stats-0.csv");
    std::map<std::string, double> last;
    for (size_t i = 0; i < tr.rows.size(); ++i)
        last[tr.str(i, "component_name")] = tr.num(i, "num_rtx");
    for (const auto& [host, n] : last) o.rtx += n;
    o.links = read_csv(dir + "/x-link-stats-0.csv");
    return o;
}

// The last row of a link direction in link-stats.
size_t last_row(const csv& c, const std::string& link, const std::string& dir)
{
    size_t last = c.rows.size();
    for (size_t i = 0; i < c.rows.size(); ++i)
        if (c.str(i, "link_name") == link && c.str(i, "direction") == dir) last = i;
    EXPECT_LT(last, c.rows.size()) << link;
    return last;
}

}  // namespace

TEST(llr, replays_bit_errors_on_a_spine_link_so_the_transport_never_retransmits)
{
    const std::string ber = "Link[leaf0-spine0]: {BitErrorRate: 1e-7";
    const outcome clean = run_cross("llr-clean", "");
    const outcome plain = run_cross("llr-plain", ber + "}\n");
    const outcome llr = run_cross("llr-on", ber + ", Llr: true}\n");

    // Without LLR the frames the FCS check drops are recovered end to end.
    const size_t p = last_row(plain.links, "leaf0-spine0", "a_to_b");
    EXPECT_GT(plain.links.num(p, "corrupted"), 0);
    EXPECT_GT(plain.rtx, 0);
    EXPECT_EQ(clean.rtx, 0);

    // With LLR the same link corrupts frames and replays them; the transport sees nothing.
    EXPECT_TRUE(llr.manifest["scoreboard"]["ok"].get<bool>()) << llr.manifest["scoreboard"];
    const size_t up = last_row(llr.links, "leaf0-spine0", "a_to_b");
    EXPECT_EQ(llr.links.num(up, "llr"), 1);
    EXPECT_GT(llr.links.num(up, "corrupted"), 0);
    EXPECT_GE(llr.links.num(up, "llr_replays"), 1);
    EXPECT_GE(llr.links.num(up, "llr_replayed_frames"), llr.links.num(up, "corrupted"));
    EXPECT_EQ(llr.rtx, 0);
    EXPECT_EQ(llr.manifest["packets_dropped"].get<double>(),
              llr.links.num(up, "corrupted") +
                  llr.links.num(last_row(llr.links, "leaf0-spine0", "b_to_a"), "corrupted"));
    // And the messages finish within 2 % of the error-free run.
    EXPECT_LE(llr.max_fct_us, clean.max_fct_us * 1.02)
        << "clean " << clean.max_fct_us << " us, with LLR " << llr.max_fct_us << " us";
    // Only leaf0-spine0 runs LLR.
    EXPECT_EQ(llr.links.num(last_row(llr.links, "leaf0-spine1", "a_to_b"), "llr"), 0);
}

TEST(llr, with_no_bit_errors_it_adds_only_its_control_ordered_sets)
{
    // LLR on every link at BER 0: nothing is corrupted, replayed or stalled (the auto buffer
    // covers the round trip); each direction's wire carries ACKs of 8 bytes for the other
    // direction's frames, and those are the only bytes LLR adds. Their wire time (160 ps each,
    // ahead of the reverse direction's next frame) delays the messages by less than 0.5 %.
    const outcome off = run_cross("llr-ber0-off", "");
    const outcome on = run_cross("llr-ber0-on", "Link: {Llr: true}\n");
    EXPECT_TRUE(on.manifest["scoreboard"]["ok"].get<bool>());
    ASSERT_EQ(on.links.rows.size(), off.links.rows.size());
    double control = 0, frames_on = 0, frames_off = 0;
    for (size_t i = 0; i < on.links.rows.size(); ++i) {
        EXPECT_EQ(on.links.num(i, "llr"), 1);
        EXPECT_EQ(on.links.num(i, "corrupted"), 0);
        EXPECT_EQ(on.links.num(i, "llr_replays"), 0);
        EXPECT_EQ(on.links.num(i, "llr_replayed_bytes"), 0);
        EXPECT_EQ(on.links.num(i, "llr_stall_sec"), 0);
        EXPECT_EQ(on.links.num(i, "llr_control_bytes"), 8 * on.links.num(i, "llr_control_frames"));
        EXPECT_EQ(off.links.num(i, "llr_control_bytes"), 0);
    }
    for (const std::string l : {"host0-leaf0", "leaf0-spine0", "host8-leaf1"})
        for (const std::string d : {"a_to_b", "b_to_a"}) {
            const size_t i = last_row(on.links, l, d), j = last_row(off.links, l, d);
            control += on.links.num(i, "llr_control_bytes");
            frames_on += on.links.num(i, "frames");
            frames_off += off.links.num(j, "frames");
            // A direction that carried frames has its frames acknowledged on the other wire.
            const std::string other = d == "a_to_b" ? "b_to_a" : "a_to_b";
            if (on.links.num(i, "frames") > 0) {
                EXPECT_GT(on.links.num(last_row(on.links, l, other), "llr_control_frames"), 0)
                    << l << " " << d;
            }
        }
    EXPECT_GT(control, 0);
    EXPECT_EQ(on.rtx, 0);
    EXPECT_EQ(off.rtx, 0);
    // The same data went over the same host links.
    EXPECT_EQ(on.links.num(last_row(on.links, "host0-leaf0", "a_to_b"), "bytes"),
              off.links.num(last_row(off.links, "host0-leaf0", "a_to_b"), "bytes"));
    EXPECT_GE(on.max_fct_us, off.max_fct_us);
    EXPECT_LE(on.max_fct_us, off.max_fct_us * 1.005);
}

TEST(llr, the_replay_timer_is_left_out_where_it_cannot_expire_and_no_record_changes)
{
    // At BER 0 with no fault, an ACK comes within the LLR round trip, so a timeout of two round
    // trips (auto) cannot expire: the timer is left out. Timeouts of 1.4 round trips (host links
    // 409.2 ns, leaf-spine links 1,209.2 ns) keep it on every link, waking once per timeout
    // while frames are held, and with nothing lost it never expires there either: every record
    // is the same, with fewer events where it is left out.
    const std::string records =
        "nd-stats, flow-perf, uet-transport-stats, link-stats, scala-switch-agg-buff-stats";
    const std::string left_out = scratch_dir("llr-timer-left-out");
    const std::string kept = scratch_dir("llr-timer-kept");
    command_result r = run_cross_in(left_out, records, "Link: {Llr: true}\n");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cross_in(kept, records,
                     "Link: {Llr: true}\n"
                     "Link[host*-leaf*]: {LlrReplayTimeout: 570ns}\n"
                     "Link[leaf*-spine*]: {LlrReplayTimeout: 1700ns}\n");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto a = csv_files(left_out), b = csv_files(kept);
    ASSERT_EQ(a.size(), 5u);
    ASSERT_EQ(b.size(), a.size());
    for (const auto& [name, text] : a) {
        ASSERT_EQ(b.count(name), 1u) << name;
        EXPECT_TRUE(b.at(name) == text) << name << " differs";
    }
    const auto m = [](const std::string& dir) {
        return nlohmann::json::parse(read_text(dir + "/x-manifest.json"));
    };
    EXPECT_TRUE(m(left_out)["scoreboard"]["ok"].get<bool>());
    EXPECT_TRUE(m(kept)["scoreboard"]["ok"].get<bool>());
    EXPECT_LT(m(left_out)["events_executed"].get<uint64_t>(),
              m(kept)["events_executed"].get<uint64_t>());
    const csv links = read_csv(left_out + "/x-link-stats-0.csv");
    for (size_t i = 0; i < links.rows.size(); ++i) EXPECT_EQ(links.num(i, "llr_replays"), 0);
}

TEST(llr, inspect_shows_each_links_resolved_replay_buffer)
{
    const command_result r = run_uetsim(
        {"inspect", "--json", "--set", "Link[leaf0-spine*].Llr=true", "--set",
         "Link[leaf0-spine1].LlrReplayBufferBytes=10000", "--set", "Link[leaf0-spine2].Delay=5us"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    std::map<std::string, nlohmann::json> by_name;
    for (const auto& l : j["links"]) by_name[l["name"]] = l;
    EXPECT_FALSE(by_name["host0-leaf0"]["llr"].get<bool>());
    EXPECT_FALSE(by_name["host0-leaf0"].contains("llr_replay_buffer_bytes"));
    const auto& a = by_name["leaf0-spine0"];
    EXPECT_TRUE(a["llr"].get<bool>());
    EXPECT_EQ(a["llr_replay_buffer_bytes"], 15u * 4202);
    EXPECT_NEAR(a["llr_round_trip_s"].get<double>(), 1209.2e-9, 1e-15);
    EXPECT_NEAR(a["llr_replay_timeout_s"].get<double>(), 2418.4e-9, 1e-15);
    EXPECT_EQ(by_name["leaf0-spine1"]["llr_replay_buffer_bytes"], 10000u);
    // 5 us each way: 10,209.2 ns, 510,460 B, 121.48 frames: 122 frames.
    EXPECT_EQ(by_name["leaf0-spine2"]["llr_replay_buffer_bytes"], 122u * 4202);
    EXPECT_FALSE(by_name["leaf1-spine0"]["llr"].get<bool>());
}

TEST(llr, bad_settings_exit_2_naming_the_key_and_the_link)
{
    struct bad
    {
        std::vector<std::string> sets;
        std::vector<std::string> names;
    };
    const std::vector<bad> cases = {
        {{"Link[leaf0-spine3].Llr=a"},
         {"Link[leaf0-spine3].Llr", "end A, leaf0", "needs both ends"}},
        {{"Link[leaf1-spine*].Llr=b"}, {"Link[leaf1-spine0].Llr", "end B, spine0"}},
        {{"Link[leaf0-spine0].Llr=true", "Link[leaf0-spine0].LlrReplayBufferBytes=4000"},
         {"Link[leaf0-spine0].LlrReplayBufferBytes", "4000 B", "4202 B", "63030 B"}},
        {{"Link[host2-leaf0].Llr=true", "Link[host2-leaf0].LlrReplayTimeout=100ns"},
         {"Link[host2-leaf0].LlrReplayTimeout", "100 ns", "round trip"}},
        {{"Link.Llr=maybe"}, {"Link.Llr", "maybe", "false, true, a, b"}},
        {{"Link[leaf0-spine0].LlrReplayTimeout=0s"}, {"Link[leaf0-spine0].LlrReplayTimeout"}},
    };
    for (const bad& b : cases) {
        std::vector<std::string> args{"inspect"};
        for (const auto& s : b.sets) args.insert(args.end(), {"--set", s});
        const command_result r = run_uetsim(args);
        EXPECT_EQ(r.exit_code, 2) << b.sets[0] << "\n" << r.err;
        for (const auto& n : b.names)
            EXPECT_NE(r.err.find(n), std::string::npos) << n << " not in: " << r.err;
    }
}
