// Transparent huge pages for the heap. On a large fabric every wake-up touches state that is
// not in cache (its module, packet, queue and buffer counters), and with 4 KB pages each of
// those misses is a TLB miss too; 2 MB pages take most of them away (T2, T3 6-13% less CPU:
// docs/performance.md, "Huge pages"). glibc backs its heap with them under the tunable
// glibc.malloc.hugetlb=1, which it reads only when a process starts, so uetsim starts itself
// again once with it set. Where and how the process is placed in memory changes no record.
#pragma once

#include <string>

namespace uetsim {

struct huge_page_plan
{
    bool restart = false;  // exec the program again with GLIBC_TUNABLES = tunables
    std::string tunables;
};

// What the process should do, from its environment (nullptr: the variable is unset) and the
// kernel's THP mode (the text of /sys/kernel/mm/transparent_hugepage/enabled, "" if unreadable):
// nothing when UETSIM_HUGEPAGES is 0, when GLIBC_TUNABLES names the tunable already (a user's
// own setting, or the restarted process), under valgrind (LD_PRELOAD names its preload: the
// restarted process would run outside it), under an MPI launcher, or when the kernel gives a
// process no huge pages on request (mode never).
huge_page_plan plan_huge_pages(const char* uetsim_hugepages, const char* glibc_tunables,
                               const char* ld_preload, bool launched_by_mpi,
                               const std::string& thp_enabled);

// Applies the plan for this process: returns only if it does not restart (or exec fails).
void use_huge_pages(char* argv[]);

}  // namespace uetsim
