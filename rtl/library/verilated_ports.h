// The ports of a Verilated model as its generated header declares them (C++ mode):
//   VL_IN8(&req_op,1,0);  VL_OUT64(&req_now_ps,63,0);  VL_INW(&wide,99,0,4);
// `uetsim rtl-build` reads them from the user's V<prefix>.h to check them against the block's
// pin contract before compiling anything, and records them in the library (rtl_library.h).
#pragma once

#include <string>
#include <vector>

#include "rtl/library/rtl_contract.h"

namespace uetsim {

std::vector<rtl_port> verilated_ports(const std::string& header_text);

}  // namespace uetsim
