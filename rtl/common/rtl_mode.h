// TEMPORARY copy of RTL_DESIGN.md D3's rtl_mode (helper "rtlcommon" owns this file): replaced
// by wip-rtlcommon's when that branch is merged.
#pragma once

namespace uetsim {
enum class rtl_mode { model, rtl, both };
}
