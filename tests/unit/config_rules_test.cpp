// The rules between keys name registered keys only: a typo in a rule's key path is caught when the
// schema is built, not by a user whose scenario silently skips the check.
#include <gtest/gtest.h>

#include <regex>
#include <stdexcept>

#include "sim/config/scenario_keys.h"

namespace uetsim::config {
namespace {

TEST(config_rules, the_schema_builds_and_every_rule_key_is_registered)
{
    const auto& s = schema();
    ASSERT_FALSE(s.rules.empty());
    for (const auto& r : s.rules) {
        EXPECT_FALSE(r.keys.empty()) << r.doc;
        for (const auto& k : r.keys) EXPECT_NE(s.keys.find(k), nullptr) << r.doc << ": " << k;
    }
}

TEST(config_rules, a_rule_naming_an_unregistered_key_fails_the_build)
{
    scenario_schema s;
    s.keys.integer("Topology.Hosts", UETSIM_FIELD(topology.hosts), {1, 4096}, "Hosts.");
    s.rules.push_back({"ok", {"Topology.Hosts"}, [](scenario&, const given_keys&) {}});
    EXPECT_NO_THROW(s.check_rule_keys());
    s.rules.push_back({"typo", {"Topology.Hots"}, [](scenario&, const given_keys&) {}});
    try {
        s.check_rule_keys();
        FAIL() << "no error";
    } catch (const std::logic_error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "the rule 'typo' names Topology.Hots, which is not a registered scenario key");
    }
    // A handle to a key (what a rule captures to look up given keys) is checked the same way.
    EXPECT_EQ(s.keys.key("Topology.Hosts").info.path, "Topology.Hosts");
    EXPECT_THROW(s.keys.key("Topology.Hots"), std::logic_error);
}

// Every Section.Key a rule's doc line mentions is one of the keys the rule declares.
TEST(config_rules, rule_docs_name_declared_keys)
{
    const auto& s = schema();
    std::string sections;
    for (const auto& name : s.section_names()) sections += (sections.empty() ? "" : "|") + name;
    const std::regex path("\\b(" + sections + ")\\.[A-Za-z]+");
    for (const auto& r : s.rules) {
        for (std::sregex_iterator it(r.doc.begin(), r.doc.end(), path), end; it != end; ++it) {
            const std::string p = it->str();
            EXPECT_NE(std::find(r.keys.begin(), r.keys.end(), p), r.keys.end())
                << "rule '" << r.doc << "' mentions " << p << " but does not declare it";
        }
    }
}

}  // namespace
}  // namespace uetsim::config
