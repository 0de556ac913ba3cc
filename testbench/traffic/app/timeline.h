// The RDMA application's run timeline (from the six global timing parameters) and the times at
// which each connection sends its connection request (StartType). Pure logic: no SystemC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace uetsim {

// Seconds of simulation time; defaults are the model's defaults (Simulation.*).
struct timeline_params
{
    double start_time = 0.001;
    double client_start_offset = 0.001;
    double client_start_interval = 0.001;
    double warm_up = 0.002;
    double run_time = 0.5;
    double cool_down = 0.001;
};

struct run_timeline
{
    double responders_start_s = 0;
    double client_start_from_s = 0;
    double client_start_to_s = 0;
    double recording_from_s = 0;
    double recording_to_s = 0;
    double stop_time_s = 0;

    // WQE posting starts at the end of the client start window, or at the end of the
    // connection's setup if that is later.
    double data_start_s(double setup_done_s) const;
    bool in_recording_window(double t_s) const;
};

enum class start_type { simultaneous, uniform, sequential };

std::optional<start_type> parse_start_type(std::string_view s);
const char* to_string(start_type t);

// Every problem, one message each naming the key (Simulation.<name>) and its value.
std::vector<std::string> validate_timeline(const timeline_params& p);

// Throws std::invalid_argument listing every validation error.
run_timeline make_timeline(const timeline_params& p);

// When each of `connections` connections sends its connection request, in connection order.
// uniform draws from random_stream(seed, "rdma-app.start-times").
std::vector<double> connection_start_times(start_type type, const run_timeline& t,
                                           uint32_t connections, uint64_t seed);

}  // namespace uetsim
