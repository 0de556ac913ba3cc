#include "sim/huge_pages.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "sim/sweep/mpi_sweep.h"

namespace uetsim {

namespace {

constexpr const char* k_tunable = "glibc.malloc.hugetlb";

}  // namespace

huge_page_plan plan_huge_pages(const char* uetsim_hugepages, const char* glibc_tunables,
                               const char* ld_preload, bool launched_by_mpi,
                               const std::string& thp_enabled)
{
    huge_page_plan plan;
    if (uetsim_hugepages && std::strcmp(uetsim_hugepages, "0") == 0) return plan;
    if (glibc_tunables && std::strstr(glibc_tunables, k_tunable)) return plan;
    if (ld_preload && std::strstr(ld_preload, "vgpreload")) return plan;
    if (launched_by_mpi) return plan;
    // The mode in force is the bracketed one; "madvise" is what the tunable asks for.
    if (thp_enabled.find("[always]") == std::string::npos &&
        thp_enabled.find("[madvise]") == std::string::npos)
        return plan;
    plan.restart = true;
    plan.tunables = std::string(k_tunable) + "=1";
    if (glibc_tunables && *glibc_tunables)
        plan.tunables = std::string(glibc_tunables) + ":" + plan.tunables;
    return plan;
}

void use_huge_pages(char* argv[])
{
    // Once only, even where glibc would drop the tunable from the environment (a set-user-ID
    // start): the restarted process finds this mark.
    constexpr const char* k_restarted = "UETSIM_HUGEPAGES_RESTARTED";
    if (std::getenv(k_restarted)) return;
    std::string thp;
    {
        std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");  // closed before exec
        thp.assign(std::istreambuf_iterator<char>(mode), std::istreambuf_iterator<char>());
    }
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    const std::string before = tunables ? tunables : "";  // getenv's pointer dies with setenv
    const huge_page_plan plan =
        plan_huge_pages(std::getenv("UETSIM_HUGEPAGES"), tunables, std::getenv("LD_PRELOAD"),
                        sweep::launched_by_mpi(), thp);
    if (!plan.restart) return;
    setenv("GLIBC_TUNABLES", plan.tunables.c_str(), 1);
    setenv(k_restarted, "1", 1);
    execv("/proc/self/exe", argv);
    // exec failed (no /proc): run on as we are, with the environment as it was.
    unsetenv(k_restarted);
    if (tunables)
        setenv("GLIBC_TUNABLES", before.c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
}

}  // namespace uetsim
