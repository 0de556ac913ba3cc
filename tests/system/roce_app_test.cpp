// The RDMA application on RoCE NICs end to end: the default scenario (16 hosts, 8 pairs, the
// default timeline) with Nic.Type roce runs with a clean scoreboard and completes WQEs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/run_uetsim.h"

using namespace uetsim::test;

TEST(roce_app, the_default_rdma_application_runs_end_to_end_on_roce)
{
    const std::string out = scratch_dir("roce-app");
    const command_result r = run_uetsim({"run", "--quiet", "--out", out, "--set",
                                         "Simulation.RunTime=0.002", "--set", "Nic.Type=roce"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("scoreboard            ok"), std::string::npos) << r.out;
    const csv perf = read_csv(out + "/uetsim-rdma-perf-0.csv");
    ASSERT_GT(perf.rows.size(), 100u);
    // 250,000 B WQEs: at least their serialization at 400 Gbps (62 packets of 4,154 B with the
    // last one shorter) plus the 4 x 100 ns of host-link propagation there and back.
    const double ideal_usec = (250000 + 62 * 58) * 8 / 400e3 + 0.4;
    for (size_t i = 0; i < perf.rows.size(); ++i) {
        EXPECT_EQ(perf.str(i, "metric_name"), "RDMA-WRITE");
        EXPECT_GE(perf.num(i, "perf_metric_usec"), ideal_usec) << "row " << i;
    }
}
