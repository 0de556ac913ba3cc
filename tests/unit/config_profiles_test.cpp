// UetNic.Profile and the job keys in the loader: the default keeps every feature the model has,
// and a scenario asking a NIC for a feature its profile lacks is refused before the run with the
// key, the host, the profile, what it has and what would allow it (exit code 2 in the command).
#include <gtest/gtest.h>

#include "sim/config/loader.h"
#include "tests/support/config_errors.h"
#include "sim/config/scenario_keys.h"

namespace uetsim::config {
namespace {

const std::string fabric = "Topology: {Kind: single-switch, Hosts: 4}\n";

using test::error_of;

TEST(config_profiles, the_default_profile_allows_every_modelled_feature)
{
    const scenario sc =
        resolve_text(fabric +
                     "UetNic: {RcccEnabled: true}\n"
                     "Flows: [{Src: 0, Dst: 1, Bytes: 4KiB, Mode: ROD},\n"
                     "        {Src: 2, Dst: 3, Bytes: 4KiB, RecvPostedAt: 1us, JobId: 7}]\n");
    EXPECT_EQ(sc.nic.uet.profile, uet_profile::ai_full);
    EXPECT_TRUE(sc.nic.uet.job_table.empty());
    EXPECT_EQ(sc.flows.messages[0].job_id, 0u);
    EXPECT_EQ(sc.flows.messages[1].job_id, 7u);
}

TEST(config_profiles, rod_under_ai_base)
{
    EXPECT_EQ(
        error_of(fabric + "UetNic: {Profile: AIBase}\n"
                          "Flows: [{Src: 0, Dst: 1, Bytes: 4KiB, Mode: ROD}]\n"),
        "Flows[0].Mode: ROD on host0, whose UetNic.Profile is AIBase, which has no ROD "
        "(AIBase has RUD, RUDI, UUD, deferrable sends); ROD needs UetNic.Profile AIFull or HPC");
    // Only the receiving NIC's profile lacks it: named through its override.
    EXPECT_EQ(error_of(fabric + "Flows: [{Src: 0, Dst: 1, Bytes: 4KiB, Mode: ROD}]\n",
                       {"UetNic[host1].Profile=AIBase"}),
              "Flows[0].Mode: ROD on host1, whose UetNic[host1].Profile is AIBase, which has no "
              "ROD (AIBase has RUD, RUDI, UUD, deferrable sends); ROD needs UetNic[host1].Profile "
              "AIFull or "
              "HPC");
    EXPECT_EQ(error_of(fabric + "RdmaApplication: {Enabled: true, Mode: ROD}\n",
                       {"UetNic.Profile=AIBase"})
                  .substr(0, 54),
              "RdmaApplication.Mode: ROD on host0, whose UetNic.Profi");
}

TEST(config_profiles, deferrable_sends_under_hpc)
{
    EXPECT_EQ(
        error_of(fabric + "UetNic: {Profile: HPC}\n"
                          "Flows: [{Src: 2, Dst: 3, Bytes: 4KiB, RecvPostedAt: 1us}]\n"),
        "Flows[0].RecvPostedAt: a deferrable send on host2, whose UetNic.Profile is HPC, "
        "which has no deferrable sends (HPC has RUD, ROD, RUDI, UUD, RCCC); deferrable sends needs "
        "UetNic.Profile AIBase or AIFull");
    // ROD is in HPC; RUDI and UUD are in every profile.
    EXPECT_EQ(error_of(fabric + "UetNic: {Profile: AIBase}\n"
                                "Flows: [{Src: 2, Dst: 3, Bytes: 4KiB, Mode: RUDI},\n"
                                "        {Src: 0, Dst: 1, Bytes: 4KiB, Mode: UUD}]\n"),
              "no error");
    EXPECT_EQ(error_of(fabric + "UetNic: {Profile: HPC}\n"
                                "Flows: [{Src: 2, Dst: 3, Bytes: 4KiB, Mode: ROD}]\n"),
              "no error");
}

TEST(config_profiles, rccc_under_ai_base)
{
    EXPECT_EQ(error_of(fabric + "UetNic: {Profile: AIBase, RcccEnabled: true}\n"),
              "UetNic.RcccEnabled: true on host0, whose UetNic.Profile is AIBase, which has no "
              "RCCC (AIBase has RUD, RUDI, UUD, deferrable sends); RCCC needs UetNic.Profile "
              "AIFull or HPC");
    // RCCC on host3 only, whose profile has it; the AIBase hosts do not use it.
    EXPECT_EQ(error_of(fabric + "UetNic: {Profile: AIBase}\n",
                       {"UetNic[host3].RcccEnabled=true", "UetNic[host3].Profile=HPC"}),
              "no error");
}

TEST(config_profiles, job_ids_are_24_bits)
{
    EXPECT_EQ(error_of(fabric + "UetNic: {JobTable: [1, 16777216]}\n"),
              "UetNic.JobTable: 16777216 is not a JobID; allowed: whole numbers 0..16777215 (24 "
              "bits)");
    EXPECT_EQ(error_of(fabric, {"UetNic[host2].JobTable=[2.5]"}),
              "UetNic[host2].JobTable: 2.5 is not a JobID; allowed: whole numbers 0..16777215 (24 "
              "bits)");
    EXPECT_NE(error_of(fabric + "Flows: [{Src: 0, Dst: 1, Bytes: 4KiB, JobId: 16777216}]\n")
                  .find("Flows[0].JobId: 16777216 is out of range 0..16777215"),
              std::string::npos);
    EXPECT_NE(error_of(fabric + "UetNic: {Profile: AIPlus}\n")
                  .find("UetNic.Profile: 'AIPlus' is not one of AIBase, AIFull, HPC"),
              std::string::npos);
}

}  // namespace
}  // namespace uetsim::config
