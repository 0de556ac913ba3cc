// The admission seam measured: a toy policy from the test tree (a fixed byte budget per lossy
// egress queue, whatever the pool holds) replaces the stage 4 form the Switch keys choose, at
// every switch, through shared_buffer_config::admission; uetsim's own files are not touched. An
// incast of 4 x 64 NIC-less packets on a single switch shows it: a budget of 0 drops every
// packet at egress, a budget without a bound drops none although the keys set a 10-packet cap.
#include <gtest/gtest.h>

#include <limits>
#include <memory>

#include "hw/switch/shared_buffer_config.h"
#include "testbench/run/simulation.h"
#include "tests/support/lossy_incast.h"
#include "tests/support/run_uetsim.h"

using namespace uetsim;

namespace {

class budget_policy final : public admission_policy
{
public:
    explicit budget_policy(double budget_bytes) : m_budget(budget_bytes) {}
    std::string_view name() const override { return "budget"; }
    void size(shared_buffer_pool& p) const override
    {
        p.fixed_egress_limit_bytes = 0;
        p.static_egress_limit_bytes = p.nominal_bytes;  // ECN as the dynamic form has it
    }
    double egress_limit(const shared_buffer_pool&, uint64_t, bool) const override
    {
        return m_budget;
    }

private:
    double m_budget;
};

// The keys' own form would be a cap of 10 data packets (tests/support/lossy_incast.h).
scenario incast(double budget_bytes)
{
    scenario sc = test::lossy_incast("budget");
    sc.sw.buffer.admission = std::make_shared<budget_policy>(budget_bytes);
    return sc;
}

run_summary run(const scenario& sc)
{
    run_options o;
    o.out_dir = test::scratch_dir("budget");
    return run_simulation(sc, o);
}

}  // namespace

TEST(budget_admission, a_budget_of_zero_drops_every_lossy_packet_at_egress)
{
    const run_summary s = run(incast(0));
    EXPECT_EQ(s.packets_dropped, 256u);
    EXPECT_EQ(s.packets_trimmed, 0u);
}

TEST(budget_admission, an_unbounded_budget_drops_none_where_the_keys_cap_would)
{
    const run_summary s = run(incast(std::numeric_limits<double>::infinity()));
    EXPECT_EQ(s.packets_dropped, 0u);
    EXPECT_TRUE(s.scoreboard_ok) << s.scoreboard_message;
    EXPECT_EQ(s.flows_completed, 4u);
}

// The layout names the policy it runs, and the keys' forms still choose where none is given.
TEST(budget_admission, the_layout_runs_the_policy_given_else_the_keys_form)
{
    shared_buffer_config cfg;
    EXPECT_EQ(derive_shared_buffer_layout(cfg, 8).admission_name(), "dynamic");
    cfg.admission = std::make_shared<budget_policy>(1000);
    const shared_buffer_layout l = derive_shared_buffer_layout(cfg, 8);
    EXPECT_EQ(l.admission_name(), "budget");
    EXPECT_DOUBLE_EQ(l.egress_queue_limit(0, 0, false), 1000.0);
    EXPECT_EQ(l.pools[0].static_egress_limit_bytes, l.pools[0].nominal_bytes);
}
