#include "hw/pcie/pcie_config.h"

namespace uetsim {

std::optional<std::string> pcie_config::error() const
{
    const uint32_t need = pcie_data_credits(max_payload);
    const struct
    {
        const char* side;
        const pcie_side_credits& c;
    } sides[] = {{"NicSide", nic_side_credits}, {"HostSide", host_side_credits}};
    for (const auto& s : sides)
        for (pcie_tlp_type t : {pcie_tlp_type::posted, pcie_tlp_type::completion}) {
            const uint32_t d = s.c[t].data;
            if (d != 0 && d < need)
                return std::string("Pcie.") + s.side +
                       (t == pcie_tlp_type::posted ? "PostedDataCredits"
                                                   : "CompletionDataCredits") +
                       " is " + std::to_string(d) + " but one transfer of Pcie.MaxPayloadSize (" +
                       std::to_string(max_payload) + " B) takes " + std::to_string(need) +
                       " data credits of 16 B; allowed: infinite, or " + std::to_string(need) +
                       " to 32752";
        }
    return std::nullopt;
}

}  // namespace uetsim
