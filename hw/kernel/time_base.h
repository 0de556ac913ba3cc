// How the model's clock relates to the SystemC kernel's (docs/time-base.md): `decoupled`, the
// model runs ahead of the kernel within a TLM-2.0 global quantum; `kernel`, every due time of
// the model is a kernel event and the model never runs ahead. Plain: scenarios hold it.
#pragma once

namespace uetsim {

enum class time_base { decoupled, kernel };

}  // namespace uetsim
