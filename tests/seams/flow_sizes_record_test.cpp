// The record seam measured: a toy record from the test tree (flow-sizes: one row per Flows
// message at the end of the run, its bytes sent and received) is declared with add_record and
// written by an unchanged run, beside uetsim's own records and listed in the manifest; uetsim's
// files are not touched.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "testbench/records/csv_writer.h"
#include "testbench/records/record_registry.h"
#include "testbench/run/simulation.h"
#include "testbench/traffic/flows.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

class flow_sizes_open : public open_record
{
public:
    flow_sizes_open(record_context& ctx, const std::string& path)
        : m_traffic(ctx.traffic), m_csv(path, {"flow_id", "src", "dst", "bytes", "bytes_received"})
    {
    }
    void finish() override
    {
        for (const flow_message& m : m_traffic.messages())
            m_csv.raw_row(std::to_string(m.id) + "," + std::to_string(m.spec.src) + "," +
                          std::to_string(m.spec.dst) + "," + std::to_string(m.spec.bytes) + "," +
                          std::to_string(m.bytes_received));
        m_csv.close();
    }

private:
    const flows& m_traffic;
    csv_writer m_csv;
};

const record_def& flow_sizes_record()
{
    static const record_def d = [] {
        record_def r;
        r.name = "flow-sizes";
        r.when = "at the end of a run with Flows";
        r.intro = "One row per Flows message.";
        r.columns = {{"flow_id", "the message's index"},
                     {"src", "sending host"},
                     {"dst", "receiving host"},
                     {"bytes", "the message's size"},
                     {"bytes_received", "payload bytes the receiver counted"}};
        r.applies = [](const record_context& ctx) { return !ctx.sc.flows.messages.empty(); };
        r.open = [](record_context& ctx, const std::string& path) -> std::unique_ptr<open_record> {
            return std::make_unique<flow_sizes_open>(ctx, path);
        };
        return r;
    }();
    return d;
}

}  // namespace

TEST(flow_sizes_record, a_record_from_outside_is_written_by_an_unchanged_run)
{
    add_record(flow_sizes_record());
    EXPECT_THROW(add_record(flow_sizes_record()), std::logic_error);
    EXPECT_EQ(record_registry().back()->name, "manifest");  // still written last
    scenario sc;
    sc.simulation.name = "sizes";
    sc.simulation.stop_time_s = 1e-3;
    sc.topology.kind = topology_kind::single_switch;
    sc.topology.hosts = 4;
    const uint64_t sizes[] = {10'000, 1, 1u << 20};
    for (uint32_t i = 0; i < 3; ++i) {
        flow_spec f;
        f.src = i;
        f.dst = 3;
        f.bytes = sizes[i];
        sc.flows.messages.push_back(f);
    }
    run_options o;
    o.out_dir = test::scratch_dir("flow_sizes");
    const run_summary s = run_simulation(sc, o);
    ASSERT_TRUE(s.scoreboard_ok) << s.scoreboard_message;
    const test::csv t = test::read_csv(o.out_dir + "/sizes-flow-sizes-0.csv");
    ASSERT_EQ(t.rows.size(), 3u);
    for (size_t r = 0; r < 3; ++r) {
        EXPECT_EQ(t.num(r, "bytes"), double(sizes[r]));
        EXPECT_EQ(t.num(r, "bytes_received"), double(sizes[r]));  // every byte arrived
        EXPECT_EQ(t.num(r, "src"), double(r));
    }
    std::ifstream m(o.out_dir + "/sizes-manifest.json");
    std::stringstream ss;
    ss << m.rdbuf();
    EXPECT_NE(ss.str().find("sizes-flow-sizes-0.csv"), std::string::npos);
}
