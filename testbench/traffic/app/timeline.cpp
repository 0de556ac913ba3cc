#include "testbench/traffic/app/timeline.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "hw/common/random.h"

namespace uetsim {

double run_timeline::data_start_s(double setup_done_s) const
{
    return std::max(client_start_to_s, setup_done_s);
}

bool run_timeline::in_recording_window(double t_s) const
{
    return t_s >= recording_from_s && t_s <= recording_to_s;
}

std::optional<start_type> parse_start_type(std::string_view s)
{
    if (s == "simultaneous") return start_type::simultaneous;
    if (s == "uniform") return start_type::uniform;
    if (s == "sequential") return start_type::sequential;
    return std::nullopt;
}

const char* to_string(start_type t)
{
    switch (t) {
        case start_type::uniform:
            return "uniform";
        case start_type::sequential:
            return "sequential";
        case start_type::simultaneous:
            break;
    }
    return "simultaneous";
}

std::vector<std::string> validate_timeline(const timeline_params& p)
{
    struct field
    {
        const char* key;
        double value;
    };
    const field fields[] = {{"Simulation.StartTime", p.start_time},
                            {"Simulation.ClientStartOffset", p.client_start_offset},
                            {"Simulation.ClientStartInterval", p.client_start_interval},
                            {"Simulation.WarmUp", p.warm_up},
                            {"Simulation.RunTime", p.run_time},
                            {"Simulation.CoolDown", p.cool_down}};
    std::vector<std::string> errors;
    for (const field& f : fields) {
        // Zero is allowed (an empty window); negative or non-finite times are not.
        if (!std::isfinite(f.value) || f.value < 0) {
            std::ostringstream os;
            os.precision(15);
            os << f.key << " = " << f.value << ": must be a finite time >= 0 s";
            errors.push_back(os.str());
        }
    }
    return errors;
}

run_timeline make_timeline(const timeline_params& p)
{
    auto errors = validate_timeline(p);
    if (!errors.empty()) {
        std::string msg;
        for (const auto& e : errors) msg += (msg.empty() ? "" : "; ") + e;
        throw std::invalid_argument(msg);
    }
    run_timeline t;
    t.responders_start_s = p.start_time;
    t.client_start_from_s = p.start_time + p.client_start_offset;
    t.client_start_to_s = t.client_start_from_s + p.client_start_interval;
    t.recording_from_s = t.client_start_to_s + p.warm_up;
    t.recording_to_s = t.recording_from_s + p.run_time;
    t.stop_time_s = t.recording_to_s + p.cool_down;
    return t;
}

std::vector<double> connection_start_times(start_type type, const run_timeline& t,
                                           uint32_t connections, uint64_t seed)
{
    std::vector<double> times(connections, t.client_start_from_s);
    const double width = t.client_start_to_s - t.client_start_from_s;
    if (type == start_type::uniform) {
        random_stream rng(seed, "rdma-app.start-times");
        for (double& s : times) s = t.client_start_from_s + rng.uniform() * width;
    } else if (type == start_type::sequential) {
        // N equal slots, one connection at the start of each: the first at the window's start,
        // none at its end (the end is when WQEs start).
        for (uint32_t i = 0; i < connections; ++i) {
            times[i] = t.client_start_from_s + width * i / connections;
        }
    }
    return times;
}

}  // namespace uetsim
