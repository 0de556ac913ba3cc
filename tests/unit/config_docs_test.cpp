// docs/scenario-keys.md is generated from the key schema: it must match the program.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/config/output.h"
#include "sim/config/scenario_keys.h"

namespace uetsim::config {
namespace {

// The source tree: UETSIM_SOURCE (set by ctest), else the tree this file is in.
std::string source_dir()
{
    if (const char* env = std::getenv("UETSIM_SOURCE")) return env;
    return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().string();
}

TEST(config_docs, scenario_keys_md_is_up_to_date)
{
    std::string root = source_dir();
    std::ifstream f(root + "/docs/scenario-keys.md");
    ASSERT_TRUE(f.good()) << "docs/scenario-keys.md is missing";
    std::stringstream ss;
    ss << f.rdbuf();
    EXPECT_TRUE(ss.str() == keys_markdown())
        << "docs/scenario-keys.md is stale; regenerate it with: "
           "build/bin/uetsim keys --markdown > docs/scenario-keys.md";
}

TEST(config_docs, every_key_has_a_doc_line_and_allowed_values)
{
    for (const auto& k : schema().keys.keys()) {
        EXPECT_FALSE(k.info.doc.empty()) << k.info.path;
        EXPECT_FALSE(k.info.allowed.empty()) << k.info.path;
        EXPECT_FALSE(k.info.default_value.empty()) << k.info.path;
        for (const auto& e : k.info.elements) EXPECT_FALSE(e.doc.empty()) << e.path;
    }
}

TEST(config_docs, markdown_lists_every_key_and_section)
{
    std::string md = keys_markdown();
    for (const auto& k : schema().keys.keys())
        EXPECT_NE(md.find("`" + k.info.path + "`"), std::string::npos) << k.info.path;
    for (const auto& s : schema().sections)
        EXPECT_NE(md.find("## " + s.name + "\n"), std::string::npos) << s.name;
}

}  // namespace
}  // namespace uetsim::config
