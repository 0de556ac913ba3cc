// Helpers for system tests that drive the real `uetsim` command and read its records.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace uetsim::test {

struct command_result
{
    int exit_code = -1;
    std::string out;
    std::string err;
};

// The uetsim binary the tests run: $UETSIM_BIN, else build/bin/uetsim.
std::string uetsim_path();

// The source tree (examples/, docs/): $UETSIM_SOURCE, else where this file was built from.
std::string source_dir();

// Runs build/bin/uetsim with the given arguments (no shell quoting needed).
command_result run_uetsim(const std::vector<std::string>& args);

// Starts build/bin/uetsim in the background, by default as the leader of a new process group
// (so that a test can signal it and its children as a terminal or a batch system would); stdout
// and stderr go to the given files. wait_uetsim returns its exit code (128 + the signal when
// killed).
int start_uetsim(const std::vector<std::string>& args, const std::string& out_path,
                 const std::string& err_path, bool new_group = true);
int wait_uetsim(int pid);

// Runs a shell command (e.g. tshark on a capture) and returns its standard output.
std::string shell_output(const std::string& command);

// A fresh, empty folder under the system temp dir, unique to this process, removed (with
// everything in it) when the test process ends, so a run leaves nothing behind.
std::string scratch_dir(const std::string& tag);

// Writes text to a file and returns its path.
std::string write_file(const std::string& path, const std::string& text);

// A CSV file as a header and rows of cells; fails the test if the file is missing.
struct csv
{
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    int col(const std::string& name) const;  // -1 when absent
    double num(size_t row, const std::string& name) const;
    const std::string& str(size_t row, const std::string& name) const;
};
csv read_csv(const std::string& path);

std::string read_text(const std::string& path);

// The CSV files of a run's folder, by file name, with their text (records compared byte for byte).
std::map<std::string, std::string> csv_files(const std::string& dir);

}  // namespace uetsim::test
