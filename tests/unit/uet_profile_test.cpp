// The UET profile table (hw/nic/uet/uet_profile.h) and the job table (job_table.h): deferrable
// sends in both AI profiles and not in HPC (seed 003), AI Full a superset of AI Base, ROD and
// RCCC outside AI Base, RUDI and UUD in every profile; the names the rules print; a job table
// serving only its jobs.
#include <gtest/gtest.h>

#include "hw/nic/uet/job_table.h"
#include "hw/nic/uet/uet_profile.h"

namespace uetsim {
namespace {

TEST(uet_profile, the_table)
{
    using p = uet_profile;
    using f = uet_feature;
    for (p x : all_uet_profiles) EXPECT_TRUE(profile_has(x, f::rud)) << profile_name(x);
    EXPECT_TRUE(profile_has(p::ai_base, f::deferrable_send));
    EXPECT_TRUE(profile_has(p::ai_full, f::deferrable_send));
    EXPECT_FALSE(profile_has(p::hpc, f::deferrable_send));
    EXPECT_FALSE(profile_has(p::ai_base, f::rod));
    EXPECT_TRUE(profile_has(p::ai_full, f::rod));
    EXPECT_TRUE(profile_has(p::hpc, f::rod));
    EXPECT_FALSE(profile_has(p::ai_base, f::rccc));
    EXPECT_TRUE(profile_has(p::ai_full, f::rccc));
    EXPECT_TRUE(profile_has(p::hpc, f::rccc));
    // RUDI and UUD in every profile (the model's reading; docs/jobs-and-profiles.md).
    for (p x : all_uet_profiles) {
        EXPECT_TRUE(profile_has(x, f::rudi)) << profile_name(x);
        EXPECT_TRUE(profile_has(x, f::uud)) << profile_name(x);
    }
}

TEST(uet_profile, ai_full_is_a_superset_of_ai_base_and_has_every_feature)
{
    for (uet_feature f : all_uet_features) {
        if (profile_has(uet_profile::ai_base, f)) EXPECT_TRUE(profile_has(uet_profile::ai_full, f));
        // The default profile: every feature the model has is allowed, as before profiles.
        EXPECT_TRUE(profile_has(uet_profile::ai_full, f)) << feature_name(f);
    }
}

TEST(uet_profile, names)
{
    EXPECT_EQ(profile_name(uet_profile::ai_base), "AIBase");
    EXPECT_EQ(profile_name(uet_profile::ai_full), "AIFull");
    EXPECT_EQ(profile_name(uet_profile::hpc), "HPC");
    EXPECT_EQ(profile_features(uet_profile::ai_base), "RUD, RUDI, UUD, deferrable sends");
    EXPECT_EQ(profile_features(uet_profile::ai_full),
              "RUD, ROD, RUDI, UUD, deferrable sends, RCCC");
    EXPECT_EQ(profile_features(uet_profile::hpc), "RUD, ROD, RUDI, UUD, RCCC");
    EXPECT_EQ(profiles_with(uet_feature::rudi), "AIBase, AIFull or HPC");
    EXPECT_EQ(profiles_with(uet_feature::uud), "AIBase, AIFull or HPC");
    EXPECT_EQ(profiles_with(uet_feature::rod), "AIFull or HPC");
    EXPECT_EQ(profiles_with(uet_feature::deferrable_send), "AIBase or AIFull");
    EXPECT_EQ(profiles_with(uet_feature::rud), "AIBase, AIFull or HPC");
}

TEST(job_table, open_serves_every_job_a_list_only_its_own)
{
    const job_table open;
    EXPECT_TRUE(open.open());
    EXPECT_TRUE(open.serves(0));
    EXPECT_TRUE(open.serves(k_max_job_id));
    const job_table t({7, 3, 7, 16777215});
    EXPECT_FALSE(t.open());
    EXPECT_EQ(t.jobs(), (std::vector<uint32_t>{3, 7, 16777215}));
    EXPECT_TRUE(t.serves(3));
    EXPECT_TRUE(t.serves(7));
    EXPECT_TRUE(t.serves(16777215));
    EXPECT_FALSE(t.serves(0));
    EXPECT_FALSE(t.serves(4));
    EXPECT_EQ(k_max_job_id, 16777215u);  // 24 bits
}

}  // namespace
}  // namespace uetsim
