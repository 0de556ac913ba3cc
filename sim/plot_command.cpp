#include "sim/plot_command.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "sim/sweep/child_run.h"

namespace uetsim {

namespace {

namespace fs = std::filesystem;

// The script: $UETSIM_PLOT_SCRIPT, else beside the binary, else in the source tree it was built
// from.
std::string plot_script()
{
    if (const char* env = std::getenv("UETSIM_PLOT_SCRIPT")) return env;
    std::error_code ec;
    const fs::path beside = fs::path(sweep::self_exe()).parent_path() / "uetsim_plot.py";
    if (fs::exists(beside, ec)) return beside.string();
    return std::string(UETSIM_PLOT_SOURCE);
}

// Debian's python3 (where python3-matplotlib and python3-pandas install) unless told otherwise.
std::string python()
{
    if (const char* env = std::getenv("UETSIM_PYTHON")) return env;
    std::error_code ec;
    if (fs::exists("/usr/bin/python3", ec)) return "/usr/bin/python3";
    return "python3";
}

}  // namespace

int run_plot(const std::vector<std::string>& args)
{
    const std::string script = plot_script();
    std::error_code ec;
    if (!fs::exists(script, ec)) {
        std::cerr << "uetsim: internal error: the plot script " << script << " is missing\n";
        return 1;
    }
    std::vector<std::string> all = {python(), script};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[0], argv.data());
        std::cerr << "uetsim: error: cannot run " << all[0]
                  << " for the plots: install python3, python3-matplotlib and python3-pandas\n";
        _exit(1);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace uetsim
