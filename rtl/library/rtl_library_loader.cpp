#include "rtl/library/rtl_library_loader.h"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "rtl/common/rtl_kernel.h"
#include "rtl/library/rtl_contract.h"

namespace uetsim {

namespace {

uint64_t host_time_ps()
{
    return rtl_sim_time_ps();
}
void host_stop_run()
{
    rtl_stop_run();
}
void host_note(const char* text)
{
    rtl_note(text ? text : "");
}

const rtl_library_host host = {host_time_ps, host_stop_run, host_note};

const char* rebuild = "rebuild it with this uetsim's `uetsim rtl-build` (docs/rtl.md)";

// The descriptor of `path`, checked for this uetsim and the contract of its own key.
const rtl_library_descriptor& open_checked(const std::string& path, const std::string& block_key,
                                           const std::string& where)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw std::invalid_argument(where + " does not exist (or is not a file)");
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = dlerror();
        throw std::invalid_argument(where + " cannot be loaded: " + (why ? why : "dlopen failed"));
    }
    auto entry = reinterpret_cast<uetsim_rtl_library_fn>(dlsym(handle, UETSIM_RTL_LIBRARY_ENTRY));
    if (!entry)
        throw std::invalid_argument(where + " is not a uetsim block library (it has no " +
                                    UETSIM_RTL_LIBRARY_ENTRY + "); build one with `uetsim " +
                                    "rtl-build` (docs/rtl.md)");
    const rtl_library_descriptor* d = entry();
    if (!d || d->abi != rtl_library_abi)
        throw std::invalid_argument(where + " was built for block library interface " +
                                    std::to_string(d ? d->abi : 0) + ", this uetsim " +
                                    UETSIM_VERSION + " reads interface " +
                                    std::to_string(rtl_library_abi) + "; " + rebuild);
    if (std::string(d->uetsim_version) != UETSIM_VERSION)
        throw std::invalid_argument(where + " was built by uetsim " + d->uetsim_version +
                                    ", this is uetsim " + UETSIM_VERSION + "; " + rebuild);
    const rtl_block_contract* contract = find_rtl_contract(d->block_key);
    if (std::string(d->block_key) != block_key || !contract)
        throw std::invalid_argument(
            where + " is a library for " + d->block_key + " (top module " + d->top + "), not for " +
            block_key + "; build one with `uetsim rtl-build ... --as " + block_key + "`");
    std::vector<rtl_port> ports;
    for (uint32_t i = 0; i < d->port_count; ++i)
        ports.push_back({d->ports[i].name, rtl_pin_dir(d->ports[i].dir), d->ports[i].width});
    if (auto why = rtl_contract_mismatch(*contract, ports))
        throw std::invalid_argument(where + " (top module " + d->top +
                                    ") does not meet this uetsim's pin contract: " + *why + "; " +
                                    rebuild);
    const bool has_factory = (block_key == "FlowHash" && d->make_flow_hash) ||
                             (block_key == "EntropyLoadBalancer" && d->make_entropy_lb) ||
                             (block_key == "SackTracker" && d->make_sack_tracker);
    if (!has_factory || !d->attach)
        throw std::invalid_argument(where + " has no " + block_key + " factory; " + rebuild);
    d->attach(&host);
    return *d;
}

}  // namespace

const rtl_library_descriptor& load_rtl_library(const std::string& path,
                                               const std::string& block_key,
                                               const std::string& key_name)
{
    static std::mutex lock;
    static std::map<std::string, const rtl_library_descriptor*> loaded;
    const std::lock_guard<std::mutex> guard(lock);
    std::error_code ec;
    std::string canonical = std::filesystem::weakly_canonical(path, ec).string();
    if (ec) canonical = path;
    const auto it = loaded.find(canonical);
    const std::string where = key_name + ": '" + path + "'";
    if (it != loaded.end()) {
        if (block_key != it->second->block_key)
            throw std::invalid_argument(where + " is a library for " + it->second->block_key +
                                        " (top module " + it->second->top + "), not for " +
                                        block_key + "; build one with `uetsim rtl-build ... --as " +
                                        block_key + "`");
        return *it->second;
    }
    const rtl_library_descriptor& d = open_checked(canonical, block_key, where);
    loaded.emplace(canonical, &d);
    return d;
}

}  // namespace uetsim
