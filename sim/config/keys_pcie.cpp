// Pcie.* keys: each host's PCIe link between host and NIC.
#include "sim/config/keys_common.h"

namespace uetsim::config {

namespace {

std::vector<std::pair<std::string, double>> generations()
{
    std::vector<std::pair<std::string, double>> g;
    for (const pcie_generation& e : k_pcie_generations) g.emplace_back(e.name, e.lane_bps);
    return g;
}

// The six credit keys of one end: `side` is NicSide or HostSide, `pick` its credits.
template <class Pick>
void add_credit_keys(key_table<scenario>& k, const std::string& side, Pick pick,
                     const std::string& receives)
{
    struct type_text
    {
        pcie_tlp_type type;
        const char* name;
        const char* tlps;
        const char* defaults;  // header, data
    };
    const type_text types[] = {
        {pcie_tlp_type::posted, "Posted", "posted TLPs (memory writes)", "784 and 1456"},
        {pcie_tlp_type::non_posted, "NonPosted", "non-posted TLPs (memory read requests)",
         "784 and 392"},
        {pcie_tlp_type::completion, "Completion", "completions (the data of read requests)",
         "infinite, as the specification requires of endpoints and root complexes"},
    };
    for (const type_text& t : types) {
        const size_t i = size_t(t.type);
        k.integer_or_infinite(
            "Pcie." + side + t.name + "HeaderCredits",
            [ pick, i ](auto& o) -> auto& { return pick(o).limits[i].header; },
            ints(pcie_config::header_credits_range),
            std::string("Header credits the ") + receives + " advertises for " + t.tlps +
                ": one per TLP. A TLP starts on the link only when the receiving end has a "
                "credit free; it returns Pcie.CreditReturnLatency after the TLP has arrived. "
                "Defaults (header, data): " +
                t.defaults + " (an Intel R-tile PCIe 5.0 x16 endpoint's).");
        k.integer_or_infinite(
            "Pcie." + side + t.name + "DataCredits",
            [ pick, i ](auto& o) -> auto& { return pick(o).limits[i].data; },
            ints(pcie_config::data_credits_range),
            std::string("Data credits the ") + receives + " advertises for " + t.tlps +
                ", in the specification's 16-byte units: a TLP of n payload bytes takes "
                "ceil(n / 16), at least 1" +
                (t.type == pcie_tlp_type::non_posted ? " (read requests carry none)" : "") +
                ". A finite value holds at least one transfer of Pcie.MaxPayloadSize.");
    }
}

}  // namespace

void add_pcie_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.rate_or_words("Pcie.NicSideLaneBps", UETSIM_FIELD(pcie.nic_side_lane_bps), {1e9, 1e12},
                    generations(),
                    "Rate of one PCIe lane in the NIC-to-host direction (31.52 Gbps: the PCIe 5.0 "
                    "lane rate). A generation's name sets its lane rate after line coding: Gen1 "
                    "2 Gbps, Gen2 4, Gen3 7.88, Gen4 15.76, Gen5 31.52.");
    k.integer("Pcie.NicSideLaneCount", UETSIM_FIELD(pcie.nic_side_lanes),
              ints(pcie_config::lanes_range),
              "PCIe lanes in the NIC-to-host direction (the link width), which runs at "
              "NicSideLaneCount x NicSideLaneBps.");
    k.rate_or_words("Pcie.HostSideLaneBps", UETSIM_FIELD(pcie.host_side_lane_bps), {1e9, 1e12},
                    generations(),
                    "Rate of one PCIe lane in the host-to-NIC direction, or a generation's name "
                    "as for NicSideLaneBps.");
    k.integer("Pcie.HostSideLaneCount", UETSIM_FIELD(pcie.host_side_lanes),
              ints(pcie_config::lanes_range),
              "PCIe lanes in the host-to-NIC direction, which runs at HostSideLaneCount x "
              "HostSideLaneBps.");
    k.bytes("Pcie.MaxPayloadSize", UETSIM_FIELD(pcie.max_payload), {64, 4096},
            "Most data bytes one PCIe transfer (TLP) carries, writes and read completions "
            "alike; larger transfers are split.");
    k.bytes("Pcie.MaxReadRequestSize", UETSIM_FIELD(pcie.max_read_request), {64, 4096},
            "Most bytes one DMA read request asks for: a payload fetch of n bytes sends "
            "ceil(n / MaxReadRequestSize) read requests, each answered by its own completions "
            "(4096, the PCIe maximum: one request per packet of up to 4 KB).");
    k.bytes("Pcie.TlpOverhead", UETSIM_FIELD(pcie.tlp_overhead), {0, 256},
            "Protocol overhead bytes (TLP header, framing, sequence number, LCRC) added to every "
            "PCIe transfer.");
    k.bytes("Pcie.ReadRequestSize", UETSIM_FIELD(pcie.read_request), {0, 4096},
            "Bytes of a DMA read request the NIC sends to fetch a payload, before its overhead.");
    k.bytes("Pcie.CompletionSize", UETSIM_FIELD(pcie.completion_bytes), {16, 4096},
            "Bytes of the completion queue entry the NIC writes to the host for each completed WQE "
            "(and, when an application asks for them, for each message it has received).");
    k.time("Pcie.Latency", UETSIM_FIELD(pcie.latency_s), {0, 1e-3},
           "One-way latency added to each PCIe transfer (the reference model has none).");
    k.time("Pcie.CreditReturnLatency", UETSIM_FIELD(pcie.credit_return_latency_s), {0, 1e-3},
           "Time from a TLP's arrival at the receiving end to its credits' return to the "
           "sender (the receiver's processing and its UpdateFC). A credit's round trip is the "
           "TLP's time on the lanes + Pcie.Latency + CreditReturnLatency. 0, as the reference "
           "model's host accepts every transfer at once: with Pcie.Latency also 0, credits "
           "never hold a TLP back.");
    add_credit_keys(
        k, "NicSide", [](auto& o) -> auto& { return o.pcie.nic_side_credits; }, "NIC");
    add_credit_keys(
        k, "HostSide", [](auto& o) -> auto& { return o.pcie.host_side_credits; }, "host");

    s.rules.push_back(
        {"Finite posted and completion data credits hold one transfer of Pcie.MaxPayloadSize.",
         {"Pcie.MaxPayloadSize", "Pcie.NicSidePostedDataCredits",
          "Pcie.NicSideCompletionDataCredits", "Pcie.HostSidePostedDataCredits",
          "Pcie.HostSideCompletionDataCredits"},
         [](scenario& sc, const given_keys&) {
             if (auto e = sc.pcie.error()) fail_rule(*e);
         }});
}

}  // namespace uetsim::config
