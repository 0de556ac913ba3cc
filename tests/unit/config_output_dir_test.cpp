// The output folder is checked (and an earlier manifest removed) before anything is simulated.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

#include "sim/cli.h"
#include "sim/config/schema.h"
#include "tests/support/run_uetsim.h"

namespace uetsim {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::string& dir)
{
    try {
        prepare_output_dir(dir, "uetsim");
    } catch (const config::config_error& e) {
        return e.what();
    }
    return "no error";
}

TEST(config_output_dir, creates_nested_folders)
{
    std::string dir = test::scratch_dir("outdir") + "/a/b/c";
    prepare_output_dir(dir, "uetsim");
    EXPECT_TRUE(fs::is_directory(dir));
    EXPECT_TRUE(fs::is_empty(dir));  // the write probe is gone
}

TEST(config_output_dir, removes_only_the_earlier_manifest_of_that_name)
{
    std::string dir = test::scratch_dir("outdir");
    test::write_file(dir + "/run1-manifest.json", "{}");
    test::write_file(dir + "/run1-nd-stats-0.csv", "x\n");
    test::write_file(dir + "/other-manifest.json", "{}");
    prepare_output_dir(dir, "run1");
    EXPECT_FALSE(fs::exists(dir + "/run1-manifest.json"));
    EXPECT_TRUE(fs::exists(dir + "/run1-nd-stats-0.csv"));
    EXPECT_TRUE(fs::exists(dir + "/other-manifest.json"));
}

TEST(config_output_dir, unusable_folders_are_bad_input)
{
    EXPECT_EQ(error_of("/proc/uetsim-x"),
              "output folder '/proc/uetsim-x' cannot be created: No such file or directory");
    std::string file = test::write_file(test::scratch_dir("outdir") + "/f", "x");
    EXPECT_EQ(error_of(file), "output folder '" + file + "' cannot be created: Not a directory");
    EXPECT_EQ(error_of(file + "/sub"),
              "output folder '" + file + "/sub' cannot be created: Not a directory");
}

}  // namespace
}  // namespace uetsim
