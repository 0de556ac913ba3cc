// `uetsim campaign FILE --out DIR` (docs/campaign.md): draws the campaign's random cases, runs
// each as a child `uetsim run` with Simulation.StallTimeout on and a wall-time limit, and judges
// it from its exit code and manifest: pass (exit 0, complete, scoreboard clean), refused (exit 2:
// the draw was bad input), or a failure: scoreboard (a message lost, duplicated or unfinished),
// stalled, hang (the wall-time limit), crash (a signal or an exit code other than 0, 1 with a
// stall, or 2). DIR gets campaign.csv (one row per case) and, for each failure, the case's
// standalone scenario file and logs under failures/. Returns 0 when no case failed, 1 otherwise.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace uetsim::campaign {

struct campaign_options
{
    std::string out_dir = "campaign-out";
    std::optional<uint32_t> cases;  // overrides the file's Cases
    std::optional<uint64_t> seed;   // overrides the file's Seed
    std::optional<uint32_t> only;   // run only this case
    unsigned jobs = 0;              // cases at a time; 0: the machine's cores
    bool keep_passing = false;      // keep the folders of passing cases too
};

int run_campaign(const std::string& file, const campaign_options& opts);

}  // namespace uetsim::campaign
