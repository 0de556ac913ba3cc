// UET 1.0's profiles (AI Base, AI Full, HPC) and which of the model's optional transport
// features each has (docs/jobs-and-profiles.md). A NIC implements one profile; a scenario that
// asks a NIC for a feature its profile lacks is refused before the run. Pure logic.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace uetsim {

enum class uet_profile : uint8_t { ai_base, ai_full, hpc };

// The features of the model a profile switches on or off. RUD is in every profile.
enum class uet_feature : uint8_t { rud, rod, rudi, uud, deferrable_send, rccc };

inline constexpr std::array<uet_profile, 3> all_uet_profiles{
    uet_profile::ai_base, uet_profile::ai_full, uet_profile::hpc};
inline constexpr std::array<uet_feature, 6> all_uet_features{uet_feature::rud,
                                                             uet_feature::rod,
                                                             uet_feature::rudi,
                                                             uet_feature::uud,
                                                             uet_feature::deferrable_send,
                                                             uet_feature::rccc};

// The profile table. Deferrable sends are in both AI profiles and not in HPC (seed 003); AI Full
// is a superset of AI Base; ROD (ordered delivery for MPI's message order) and RCCC are in AI
// Full and HPC, not in AI Base, the minimum a collective library needs. RUDI and UUD are in every
// profile: the project's spec facts do not place them, and this is the model's reading.
constexpr bool profile_has(uet_profile p, uet_feature f)
{
    switch (f) {
        case uet_feature::rud:
        case uet_feature::rudi:
        case uet_feature::uud:
            return true;
        case uet_feature::rod:
        case uet_feature::rccc:
            return p != uet_profile::ai_base;
        case uet_feature::deferrable_send:
            return p != uet_profile::hpc;
    }
    return false;
}

constexpr std::string_view profile_name(uet_profile p)
{
    switch (p) {
        case uet_profile::ai_base:
            return "AIBase";
        case uet_profile::ai_full:
            return "AIFull";
        case uet_profile::hpc:
            return "HPC";
    }
    return "?";
}

constexpr std::string_view feature_name(uet_feature f)
{
    switch (f) {
        case uet_feature::rud:
            return "RUD";
        case uet_feature::rod:
            return "ROD";
        case uet_feature::rudi:
            return "RUDI";
        case uet_feature::uud:
            return "UUD";
        case uet_feature::deferrable_send:
            return "deferrable sends";
        case uet_feature::rccc:
            return "RCCC";
    }
    return "?";
}

// "AIFull or HPC": the profiles that have `f`.
inline std::string profiles_with(uet_feature f)
{
    std::string out;
    int n = 0;
    for (uet_profile p : all_uet_profiles)
        if (profile_has(p, f)) ++n;
    int i = 0;
    for (uet_profile p : all_uet_profiles) {
        if (!profile_has(p, f)) continue;
        ++i;
        if (i > 1) out += i == n ? " or " : ", ";
        out += profile_name(p);
    }
    return out;
}

// "RUD, ROD, RUDI, UUD, deferrable sends, RCCC": the features `p` has.
inline std::string profile_features(uet_profile p)
{
    std::string out;
    for (uet_feature f : all_uet_features)
        if (profile_has(p, f)) out += (out.empty() ? "" : ", ") + std::string(feature_name(f));
    return out;
}

}  // namespace uetsim
