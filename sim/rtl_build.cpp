#include "sim/rtl_build.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "rtl/library/rtl_contract.h"
#include "rtl/library/rtl_library_loader.h"
#include "rtl/library/verilated_ports.h"
#include "sim/config/schema.h"

extern char** environ;

namespace uetsim {

namespace {

namespace fs = std::filesystem;
using config::config_error;

// The kit beside the executable (rtl/CMakeLists.txt lays it out, install() copies it).
struct rtl_kit
{
    fs::path share;    // include/, src/library_entry.cpp, blocks/
    fs::path runtime;  // libuetsim_rtl_runtime.a
};

rtl_kit find_kit()
{
    const fs::path exe = fs::read_symlink("/proc/self/exe");
    const fs::path prefix = exe.parent_path().parent_path();
    rtl_kit k{prefix / "share/uetsim/rtl-build",
              prefix / "lib/uetsim/rtl-build/libuetsim_rtl_runtime.a"};
    std::error_code ec;
    if (!fs::is_regular_file(k.share / "src/library_entry.cpp", ec) ||
        !fs::is_regular_file(k.runtime, ec))
        throw std::runtime_error(
            "rtl-build: its files are not beside " + exe.string() + " (" + k.share.string() +
            " and " + k.runtime.string() +
            "): install uetsim with `cmake --install`, or build the uetsim target in a build tree");
    return k;
}

// The first `name` in PATH, or empty.
std::string in_path(const std::string& name)
{
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');) {
        if (d.empty()) continue;
        const fs::path p = fs::path(d) / name;
        if (access(p.c_str(), X_OK) == 0) return p.string();
    }
    return "";
}

std::string read_file(const fs::path& p)
{
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// "a b" -> {"a", "b"} ($CXX may be "ccache g++").
std::vector<std::string> words(const std::string& s)
{
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::string command_text(const std::vector<std::string>& argv)
{
    std::string s;
    for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
    return s;
}

// Starts argv with stdout and stderr into `log`; returns the pid.
pid_t start(const std::vector<std::string>& argv, const fs::path& log)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_addclose(&fa, STDIN_FILENO);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        throw std::runtime_error("rtl-build: cannot start " + argv[0] + ": " + std::strerror(rc));
    return pid;
}

int finish(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// The last lines of a tool's output, for the message.
std::string tail(const fs::path& log, size_t lines = 30)
{
    std::istringstream in(read_file(log));
    std::vector<std::string> all;
    for (std::string l; std::getline(in, l);) all.push_back(l);
    std::string out;
    for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i)
        out += "  " + all[i] + "\n";
    return out;
}

// VM_CLASSES_FAST += \ a \ b ... in V<prefix>_classes.mk.
std::map<std::string, std::vector<std::string>> class_lists(const std::string& mk)
{
    std::map<std::string, std::vector<std::string>> out;
    std::istringstream in(mk);
    std::string list;
    for (std::string line; std::getline(in, line);) {
        const auto plus = line.find(" += \\");
        if (plus != std::string::npos) {
            list = line.substr(0, plus);
            out[list];
            continue;
        }
        if (list.empty()) continue;
        std::string w = line;
        w.erase(0, w.find_first_not_of(" \t"));
        if (w.empty()) {
            list.clear();
            continue;
        }
        if (w.size() > 2 && w.substr(w.size() - 2) == " \\") w.resize(w.size() - 2);
        out[list].push_back(w);
    }
    return out;
}

std::string c_string(const std::string& s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// Removes the temporary work folder however rtl-build ends.
struct work_folder
{
    fs::path path;
    bool keep = false;
    ~work_folder()
    {
        std::error_code ec;
        if (!keep && !path.empty()) fs::remove_all(path, ec);
    }
};

}  // namespace

int run_rtl_build(const rtl_build_options& o)
{
    // ---- the arguments (bad input: exit 2 before anything runs) ----
    const rtl_block_contract* contract = find_rtl_contract(o.as);
    if (!contract) {
        std::vector<std::string> keys;
        for (const auto& c : rtl_contracts()) keys.push_back(c.key);
        std::string hint;
        if (auto c = config::detail::closest(o.as, keys)) hint = "; did you mean '" + *c + "'?";
        throw config_error("rtl-build --as '" + o.as + "' is not one of " + rtl_contract_keys() +
                           hint);
    }
    std::vector<std::string> files, plus_items;
    for (const std::string& s : o.sources) {
        if (!s.empty() && s[0] == '+') {
            plus_items.push_back(s);
            continue;
        }
        std::error_code ec;
        if (!fs::is_regular_file(s, ec))
            throw config_error("rtl-build: source '" + s + "' does not exist (or is not a file)");
        files.push_back(fs::absolute(s).lexically_normal().string());
    }
    if (files.empty()) throw config_error("rtl-build: no source file given (BLOCK.sv ...)");
    if (o.top.empty() || o.top.find_first_not_of(
                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$") !=
                             std::string::npos)
        throw config_error("rtl-build --top '" + o.top + "' is not a module name");
    const fs::path out = fs::absolute(o.out).lexically_normal();
    {
        std::error_code ec;
        if (o.out.empty() || out.filename().empty())
            throw config_error("rtl-build --out '" + o.out + "' is not a file name");
        if (!fs::is_directory(out.parent_path(), ec))
            throw config_error("rtl-build --out '" + o.out + "': the folder " +
                               out.parent_path().string() + " does not exist");
        if (fs::is_directory(out, ec))
            throw config_error("rtl-build --out '" + o.out + "' is a folder");
    }

    // ---- the tools ----
    const rtl_kit kit = find_kit();
    const std::string verilator = in_path("verilator");
    if (verilator.empty())
        throw config_error("rtl-build: verilator is not in PATH (uetsim was built with '" +
                           std::string(UETSIM_VERILATOR_VERSION) + "')");
    const char* cxx_env = std::getenv("CXX");
    const std::vector<std::string> cxx = words(cxx_env && *cxx_env ? cxx_env : UETSIM_CXX_COMPILER);

    work_folder work;
    if (!o.work.empty()) {
        work.path = fs::absolute(o.work);
        work.keep = true;
        fs::create_directories(work.path);
    } else {
        std::string tmpl = (fs::temp_directory_path() / "uetsim-rtl-build-XXXXXX").string();
        if (!mkdtemp(tmpl.data()))
            throw std::runtime_error("rtl-build: cannot create a work folder in " +
                                     fs::temp_directory_path().string());
        work.path = tmpl;
    }
    auto run = [&](const std::vector<std::string>& argv, const std::string& log) {
        if (o.verbose) std::cout << "  " << command_text(argv) << "\n" << std::flush;
        return finish(start(argv, work.path / log));
    };

    {
        const int rc = run({verilator, "--version"}, "verilator-version.log");
        std::string version = read_file(work.path / "verilator-version.log");
        version = version.substr(0, version.find('\n'));
        if (rc != 0 || version != UETSIM_VERILATOR_VERSION)
            throw config_error(
                "rtl-build: " + verilator + " is '" + version +
                "', uetsim's runtime archive was built with '" + UETSIM_VERILATOR_VERSION +
                "': put that Verilator first in PATH, or rebuild uetsim with this one");
    }
    run({verilator, "--getenv", "VERILATOR_ROOT"}, "verilator-root.log");
    std::string vroot = read_file(work.path / "verilator-root.log");
    vroot = vroot.substr(0, vroot.find('\n'));

    std::cout << "rtl-build: " << contract->key << " from module " << o.top << " (" << files.size()
              << (files.size() == 1 ? " file" : " files") << ")\n"
              << "  kit:       " << kit.share.string() << "\n"
              << "  runtime:   " << kit.runtime.string() << "\n"
              << "  verilator: " << verilator << " (" << vroot << ")\n"
              << "  compiler:  " << command_text(cxx) << "\n"
              << std::flush;

    // ---- 1. Verilate ----
    const fs::path gen = work.path / "verilated";
    std::vector<std::string> vargs = {verilator, "--cc", "--compiler", "gcc", "--trace-fst"};
    for (const auto& a : words(UETSIM_VERILATOR_ARGS)) vargs.push_back(a);
    for (const auto& a : std::vector<std::string>{"--prefix", "Vuetsim_block", "--top-module",
                                                  o.top, "--Mdir", gen.string()})
        vargs.push_back(a);
    for (const auto& a : o.verilator_options) vargs.push_back(a);
    for (const auto& a : plus_items) vargs.push_back(a);
    for (const auto& f : files) vargs.push_back(f);
    if (run(vargs, "verilator.log") != 0)
        throw config_error("rtl-build: Verilator failed on module " + o.top + ":\n" +
                           tail(work.path / "verilator.log"));

    // ---- 2. The pin contract, before compiling ----
    const std::vector<rtl_port> ports = verilated_ports(read_file(gen / "Vuetsim_block.h"));
    if (auto why = rtl_contract_mismatch(*contract, ports))
        throw config_error("rtl-build --as " + std::string(contract->key) + ": module " + o.top +
                           ": " + *why + " (the contract: `uetsim rtl-contracts`, docs/rtl.md)");
    std::cout << "  pins:      " << ports.size() << ", as the " << contract->key
              << " contract says\n"
              << std::flush;

    // ---- 3. Compile and link ----
    auto classes = class_lists(read_file(gen / "Vuetsim_block_classes.mk"));
    auto unity = [&](const std::string& name, std::initializer_list<const char*> lists) {
        std::ofstream f(work.path / name);
        f << "// Generated by uetsim rtl-build: the Verilated classes in one translation unit.\n";
        for (const char* l : lists)
            for (const auto& c : classes[l]) f << "#include \"" << c << ".cpp\"\n";
    };
    unity("model_fast.cpp", {"VM_CLASSES_FAST", "VM_SUPPORT_FAST"});
    unity("model_slow.cpp", {"VM_CLASSES_SLOW", "VM_SUPPORT_SLOW"});
    {
        std::string source_list;
        for (const auto& f : files) source_list += (source_list.empty() ? "" : " ") + f;
        std::string block = contract->module;
        for (char& c : block) c = char(std::toupper(static_cast<unsigned char>(c)));
        std::ofstream f(work.path / "uetsim_library_info.h");
        f << "// Generated by uetsim rtl-build: what library_entry.cpp describes.\n"
          << "#pragma once\n#include \"rtl/library/rtl_library.h\"\n"
          << "#define UETSIM_LIBRARY_" << block << " 1\n"
          << "#define UETSIM_LIBRARY_KEY " << c_string(contract->key) << "\n"
          << "#define UETSIM_LIBRARY_TOP " << c_string(o.top) << "\n"
          << "#define UETSIM_LIBRARY_SOURCES " << c_string(source_list) << "\n"
          << "#define UETSIM_LIBRARY_UETSIM_VERSION " << c_string(UETSIM_VERSION) << "\n"
          << "#define UETSIM_LIBRARY_VERILATOR_VERSION " << c_string(UETSIM_VERILATOR_VERSION)
          << "\n"
          << "static const uetsim::rtl_library_port uetsim_library_ports[] = {\n";
        for (const auto& p : ports)
            f << "    {" << c_string(p.name) << ", " << int(p.dir) << ", " << p.width << "},\n";
        f << "};\n";
    }
    std::vector<std::string> flags = {"-std=c++17",
                                      "-fPIC",
                                      "-fvisibility=hidden",
                                      "-fvisibility-inlines-hidden",
                                      "-faligned-new",
                                      "-fcf-protection=none",
                                      "-w"};
    for (const auto& d : words(UETSIM_RTL_LIBRARY_DEFINES)) flags.push_back("-D" + d);
    for (const fs::path& inc : {work.path, gen, kit.share / "include", fs::path(vroot) / "include",
                                fs::path(vroot) / "include/vltstd"})
        flags.push_back("-I" + inc.string());
    struct unit
    {
        std::string source, opt;
    };
    const std::vector<unit> units = {{(work.path / "model_fast.cpp").string(), "-O2"},
                                     {(work.path / "model_slow.cpp").string(), "-O1"},
                                     {(kit.share / "src/library_entry.cpp").string(), "-O2"}};
    const unsigned jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::string> objects;
    std::vector<std::pair<pid_t, size_t>> running;
    // Waits until at most `keep` compilations run; a failure is reported once all have ended.
    std::string failed;
    auto reap = [&](size_t keep) {
        while (running.size() > keep) {
            const auto [pid, i] = running.front();
            running.erase(running.begin());
            if (finish(pid) != 0 && failed.empty())
                failed = "rtl-build: compiling " + units[i].source + " failed:\n" +
                         tail(work.path / ("compile-" + std::to_string(i) + ".log"));
        }
        if (running.empty() && !failed.empty()) throw std::runtime_error(failed);
    };
    for (size_t i = 0; i < units.size() && failed.empty(); ++i) {
        reap(jobs - 1);
        const std::string obj = (work.path / ("unit" + std::to_string(i) + ".o")).string();
        std::vector<std::string> argv = cxx;
        argv.insert(argv.end(), flags.begin(), flags.end());
        for (const auto& a :
             {units[i].opt, std::string("-c"), units[i].source, std::string("-o"), obj})
            argv.push_back(a);
        if (o.verbose) std::cout << "  " << command_text(argv) << "\n" << std::flush;
        running.emplace_back(start(argv, work.path / ("compile-" + std::to_string(i) + ".log")), i);
        objects.push_back(obj);
    }
    reap(0);
    const fs::path partial = out.string() + ".partial";
    std::vector<std::string> link = cxx;
    for (const auto& a : {"-shared", "-o"}) link.push_back(a);
    link.push_back(partial.string());
    link.insert(link.end(), objects.begin(), objects.end());
    link.push_back(kit.runtime.string());
    for (const auto& a : {"-Wl,--exclude-libs,ALL", "-Wl,-Bsymbolic", "-Wl,--no-undefined",
                          "-pthread", "-latomic", "-lz"})
        link.push_back(a);
    if (run(link, "link.log") != 0) {
        std::error_code ec;
        fs::remove(partial, ec);
        throw std::runtime_error("rtl-build: linking " + out.string() + " failed:\n" +
                                 tail(work.path / "link.log"));
    }
    fs::rename(partial, out);

    // ---- 4. Load it as a run would ----
    try {
        load_rtl_library(out.string(), contract->key, "rtl-build --out");
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(std::string("rtl-build: the library does not load: ") + e.what());
    }
    std::cout << "wrote " << out.string() << " (" << fs::file_size(out) << " bytes): Rtl."
              << contract->key << "Library: " << out.string() << "\n";
    return 0;
}

}  // namespace uetsim
