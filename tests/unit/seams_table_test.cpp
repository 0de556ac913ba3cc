// docs/architecture.md's table of what a change touches is checked against the toys that measure
// it: every toy test in tests/seams/ is named in the table, and every tests/seams/ file the table
// names exists, so the table cannot drift from the seams again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/run_uetsim.h"

namespace {

std::string seams_section()
{
    std::ifstream f(uetsim::test::source_dir() + "/docs/architecture.md");
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string page = ss.str();
    const size_t a = page.find("## Seams");
    const size_t b = page.find("\n## ", a + 1);
    return a == std::string::npos ? "" : page.substr(a, b - a);
}

}  // namespace

TEST(seams_table, names_every_toy_and_only_files_that_exist)
{
    const std::string table = seams_section();
    ASSERT_FALSE(table.empty()) << "docs/architecture.md has no Seams section";
    const std::regex named("`(tests/seams/[A-Za-z0-9_/.]+)`");
    std::set<std::string> paths;
    for (std::sregex_iterator it(table.begin(), table.end(), named), e; it != e; ++it)
        paths.insert((*it)[1].str());
    const std::string root = uetsim::test::source_dir();
    for (const std::string& p : paths)
        EXPECT_TRUE(std::filesystem::exists(root + "/" + p)) << p << " is named but missing";
    size_t toys = 0;
    for (const auto& e : std::filesystem::directory_iterator(root + "/tests/seams")) {
        const std::string name = e.path().filename().string();
        if (name.size() < 9 || name.substr(name.size() - 9) != "_test.cpp") continue;
        ++toys;
        bool mentioned = paths.count("tests/seams/" + name) > 0;
        // A toy in a folder of its own is named by one of its files.
        const std::string stem = name.substr(0, name.size() - 9);
        for (const std::string& p : paths)
            mentioned = mentioned || p.find(stem) != std::string::npos;
        EXPECT_TRUE(mentioned) << "tests/seams/" << name << " is not in the seams table";
    }
    EXPECT_GE(toys, 3u);  // the NIC type, the admission policy, the record
}
