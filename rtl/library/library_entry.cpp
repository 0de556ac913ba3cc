// The entry point of one block library, compiled by `uetsim rtl-build` with the user's Verilated
// model (always prefix Vuetsim_block) and the library's description, uetsim_library_info.h, which
// rtl-build writes: the block (UETSIM_LIBRARY_FLOW_HASH, _ENTROPY_LB or _SACK_TRACKER), the key,
// the top module, the sources, the versions and the ports it read from Vuetsim_block.h. It
// instantiates the project's wrapper for the block on the model and exports the descriptor
// (rtl_library.h); everything else in the library is hidden.
#include "Vuetsim_block.h"

#include "uetsim_library_info.h"

#if defined(UETSIM_LIBRARY_FLOW_HASH)
#include "rtl/flow_hash/flow_hash_block.h"
#elif defined(UETSIM_LIBRARY_ENTROPY_LB)
#include "rtl/entropy_lb/entropy_lb_block.h"
#elif defined(UETSIM_LIBRARY_SACK_TRACKER)
#include "rtl/sack_tracker/sack_tracker_block.h"
#else
#error "uetsim_library_info.h names no block"
#endif
#include "rtl/library/rtl_library.h"

namespace {

using namespace uetsim;

#if defined(UETSIM_LIBRARY_FLOW_HASH)
rtl_flow_hash_core* make_flow_hash(const char* name)
{
    return new flow_hash_block<Vuetsim_block>(name);
}
#else
constexpr rtl_flow_hash_core* (*make_flow_hash)(const char*) = nullptr;
#endif

#if defined(UETSIM_LIBRARY_ENTROPY_LB)
entropy_lb_port* make_entropy_lb(const char* name)
{
    return new entropy_lb_block<Vuetsim_block>(name);
}
#else
constexpr entropy_lb_port* (*make_entropy_lb)(const char*) = nullptr;
#endif

#if defined(UETSIM_LIBRARY_SACK_TRACKER)
rtl_sack_tracker_core* make_sack_tracker(const char* name)
{
    return new sack_tracker_block<Vuetsim_block>(name);
}
#else
constexpr rtl_sack_tracker_core* (*make_sack_tracker)(const char*) = nullptr;
#endif

}  // namespace

extern "C" __attribute__((visibility("default"))) const rtl_library_descriptor* uetsim_rtl_library()
{
    static const rtl_library_descriptor d = {
        rtl_library_abi,
        UETSIM_LIBRARY_UETSIM_VERSION,
        UETSIM_LIBRARY_VERILATOR_VERSION,
        UETSIM_LIBRARY_KEY,
        UETSIM_LIBRARY_TOP,
        UETSIM_LIBRARY_SOURCES,
        uetsim_library_ports,
        uint32_t(sizeof uetsim_library_ports / sizeof uetsim_library_ports[0]),
        rtl_library_attach,
        make_flow_hash,
        make_entropy_lb,
        make_sack_tracker,
    };
    return &d;
}
