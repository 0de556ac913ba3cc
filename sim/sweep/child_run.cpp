#include "sim/sweep/child_run.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "testbench/run/run_control.h"

extern char** environ;

namespace uetsim::sweep {

namespace fs = std::filesystem;

std::string self_exe()
{
    std::error_code ec;
    fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("/proc/self/exe") : p.string();
}

namespace {

std::vector<std::string> run_args(const plan& p, const run& r, const std::string& run_dir)
{
    std::vector<std::string> args = {"run"};
    if (!p.base.empty()) args.push_back(p.base);
    for (const auto& s : p.run_sets(r)) {
        args.push_back("--set");
        args.push_back(s);
    }
    args.insert(args.end(), {"--out", run_dir, "--quiet"});
    return args;
}

const char* command_file = "run-command.txt";

}  // namespace

std::string run_command(const plan& p, const run& r, const std::string& run_dir)
{
    std::string out;
    for (const auto& a : run_args(p, r, run_dir)) out += a + "\n";
    return out;
}

bool already_complete(const plan& p, const run& r, const std::string& run_dir)
{
    if (manifest_status(run_dir) != "complete") return false;
    std::ifstream f(fs::path(run_dir) / command_file);
    if (!f) return false;
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str() == run_command(p, r, run_dir);
}

pid_t spawn_logged(const std::string& exe, const std::vector<std::string>& arguments,
                   const std::string& dir)
{
    std::vector<std::string> args = arguments;
    args.insert(args.begin(), exe);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const std::string out = dir + "/stdout.log", err = dir + "/stderr.log";
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    // The parent ignores SIGPIPE (a closed stderr pipe must not end it); its children do not.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t deflt;
    sigemptyset(&deflt);
    sigaddset(&deflt, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &deflt);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        throw std::runtime_error("cannot start '" + exe + "' in " + dir + ": " + std::strerror(rc));
    return pid;
}

child start_run(const std::string& exe, const plan& p, const run& r, const std::string& out_dir)
{
    child c;
    c.run_index = r.index;
    c.dir = (fs::path(out_dir) / r.id).string();
    fs::create_directories(c.dir);
    std::ofstream(fs::path(c.dir) / command_file) << run_command(p, r, c.dir);
    c.start = std::chrono::steady_clock::now();
    c.pid = spawn_logged(exe, run_args(p, r, c.dir), c.dir);
    return c;
}

run_outcome outcome_of(const child& c, int wait_status, long max_rss_kib)
{
    run_outcome o;
    o.ran = true;
    o.wall_time_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
    o.peak_rss_bytes = uint64_t(max_rss_kib) * 1024;
    if (WIFEXITED(wait_status))
        o.exit_status = WEXITSTATUS(wait_status);
    else if (WIFSIGNALED(wait_status))
        o.exit_status = 128 + WTERMSIG(wait_status);
    if (o.exit_status != 0) {
        std::ifstream f(c.dir + "/stderr.log");
        std::string line;
        while (std::getline(f, line))
            if (!line.empty()) {
                o.error = line;
                break;
            }
        if (o.error.empty() && WIFSIGNALED(wait_status))
            o.error = std::string("killed by signal ") + std::to_string(WTERMSIG(wait_status)) +
                      " (" + strsignal(WTERMSIG(wait_status)) + ")";
        if (o.error.empty()) o.error = "exit status " + std::to_string(o.exit_status);
    }
    return o;
}

run_outcome wait_for(const child& c)
{
    bool forwarded = false;
    for (;;) {
        int status = 0;
        rusage ru{};
        const pid_t pid = wait4(c.pid, &status, 0, &ru);
        if (pid == c.pid) return outcome_of(c, status, ru.ru_maxrss);
        if (pid < 0 && errno != EINTR) {
            run_outcome o;
            o.ran = true;
            o.exit_status = 1;
            o.error = std::string("lost the run's process: ") + std::strerror(errno);
            return o;
        }
        if (stop_signal() && !forwarded) {
            kill(c.pid, stop_signal());
            forwarded = true;
        }
    }
}

}  // namespace uetsim::sweep
