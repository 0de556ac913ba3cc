#include "tests/support/run_uetsim.h"

#include <cstdio>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace uetsim::test {

namespace {

std::string slurp_fd(int fd)
{
    std::string s;
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<size_t>(n));
    return s;
}

// A fresh, empty folder of this process under the system temp dir.
std::string make_fresh_dir(const std::string& tag)
{
    static int counter = 0;
    auto p = std::filesystem::temp_directory_path() /
             ("uetsim-" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p.string();
}

}  // namespace

std::string source_dir()
{
    if (const char* env = std::getenv("UETSIM_SOURCE")) return env;
    return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().string();
}

std::string uetsim_path()
{
    const char* bin = std::getenv("UETSIM_BIN");
    return bin ? bin : UETSIM_BIN_DEFAULT;
}

int start_uetsim(const std::vector<std::string>& args, const std::string& out_path,
                 const std::string& err_path, bool new_group)
{
    std::string exe = uetsim_path();
    pid_t pid = fork();
    if (pid == 0) {
        if (new_group) setpgid(0, 0);
        FILE* o = freopen(out_path.c_str(), "w", stdout);
        FILE* e = freopen(err_path.c_str(), "w", stderr);
        (void)o;
        (void)e;
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(exe.c_str()));
        for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(exe.c_str(), argv.data());
        _exit(127);
    }
    if (new_group)
        setpgid(pid, pid);  // also here: the test may signal the group before the child runs
    return pid;
}

int wait_uetsim(int pid)
{
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

command_result run_uetsim(const std::vector<std::string>& args)
{
    std::string dir = make_fresh_dir("cmd");
    std::string out_path = dir + "/stdout", err_path = dir + "/stderr";
    command_result r;
    r.exit_code = wait_uetsim(start_uetsim(args, out_path, err_path, false));
    r.out = read_text(out_path);
    r.err = read_text(err_path);
    std::filesystem::remove_all(dir);
    return r;
}

std::string write_file(const std::string& path, const std::string& text)
{
    std::ofstream f(path);
    f << text;
    return path;
}

std::string read_text(const std::string& path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

int csv::col(const std::string& name) const
{
    for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
    return -1;
}

const std::string& csv::str(size_t row, const std::string& name) const
{
    int c = col(name);
    if (c < 0) throw std::runtime_error("no column " + name);
    return rows.at(row).at(static_cast<size_t>(c));
}

double csv::num(size_t row, const std::string& name) const
{
    return std::stod(str(row, name));
}

csv read_csv(const std::string& path)
{
    csv c;
    std::ifstream f(path);
    EXPECT_TRUE(f.good()) << "missing record " << path;
    std::string line;
    bool first = true;
    while (std::getline(f, line)) {
        std::vector<std::string> cells;
        std::string cell;
        bool quoted = false;
        for (char ch : line) {
            if (ch == '"')
                quoted = !quoted;
            else if (ch == ',' && !quoted)
                cells.push_back(std::move(cell)), cell.clear();
            else
                cell += ch;
        }
        cells.push_back(cell);
        if (first)
            c.header = cells, first = false;
        else
            c.rows.push_back(cells);
    }
    return c;
}

std::string scratch_dir(const std::string& tag)
{
    static struct cleanup
    {
        std::vector<std::string> dirs;
        ~cleanup()
        {
            std::error_code ec;
            for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
        }
    } created;
    created.dirs.push_back(make_fresh_dir(tag));
    return created.dirs.back();
}

std::string shell_output(const std::string& command)
{
    std::string out;
    FILE* f = popen(command.c_str(), "r");
    if (!f) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    pclose(f);
    return out;
}

std::map<std::string, std::string> csv_files(const std::string& dir)
{
    std::map<std::string, std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".csv")
            out[e.path().filename().string()] = read_text(e.path().string());
    return out;
}

}  // namespace uetsim::test
