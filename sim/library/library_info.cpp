// The library's version (include/uetsim/uetsim.h): the project's, as `uetsim --version` prints.
#include <uetsim/uetsim.h>

namespace uetsim {

const char* version()
{
    return UETSIM_VERSION;
}

}  // namespace uetsim
