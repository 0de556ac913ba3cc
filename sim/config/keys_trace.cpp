// Trace.* keys: waveforms of NIC, switch and link state (testbench/trace/waveforms.h), windowed
// by Start/Stop or triggered like a logic analyser.
#include "sim/config/keys_common.h"

namespace uetsim::config {

namespace {

const text_rule glob_text{"a name glob such as leaf*",
                          [](const std::string& v) -> std::optional<std::string> {
                              if (v.empty()) return "must not be empty";
                              return std::nullopt;
                          }};

bool ends_with(const std::string& s, const std::string& tail)
{
    return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

const text_rule trace_file{"a file name ending in .fst or .vcd",
                           [](const std::string& v) -> std::optional<std::string> {
                               if (v.empty()) return std::nullopt;  // {Name}.fst
                               if (v.find('/') != std::string::npos)
                                   return "is a file name in the output folder, without '/'";
                               if (ends_with(v, ".fst") || ends_with(v, ".vcd"))
                                   return std::nullopt;
                               return "must end in .fst or .vcd (the extension chooses the format)";
                           }};

key_table<trace_trigger_config> trigger_keys()
{
    key_table<trace_trigger_config> t;
    t.choice("On", UETSIM_FIELD(on),
             {{"rto", trace_trigger_kind::rto},
              {"nack", trace_trigger_kind::nack},
              {"trim", trace_trigger_kind::trim},
              {"drop", trace_trigger_kind::drop},
              {"freeze", trace_trigger_kind::freeze},
              {"pause", trace_trigger_kind::pause},
              {"queue", trace_trigger_kind::queue},
              {"monitor", trace_trigger_kind::monitor}},
             "The event that fires the trigger: a retransmission timeout, a NACK received, a "
             "trimmed or dropped packet at a switch port, REPS freezing starting, a PFC pause "
             "(a port's traffic class paused by its peer: a tc<N>_paused signal rising), a queue "
             "reaching Threshold bytes, or the uet-monitor's "
             "RTT or receiver-penalty trigger selecting a connection at a NIC "
             "(Records.TriggerLoggingOn*).")
        .required();
    t.text("Component", UETSIM_FIELD(component), glob_text,
           "Only this device fires it (a glob: host3, leaf*).");
    t.bytes("Threshold", UETSIM_FIELD(threshold_bytes), {0, u64_max},
            "On: queue: the queue bytes at which it fires.");
    return t;
}

}  // namespace

void add_trace_keys(scenario_schema& s)
{
    auto& k = s.keys;
    k.boolean("Trace.Enabled", UETSIM_FIELD(trace.enabled),
              "Write a waveform of the chosen components' state (FST or VCD) and a gtkwave "
              "layout {Name}.gtkw beside it.");
    k.text("Trace.File", UETSIM_FIELD(trace.file), trace_file,
           "The trace file in the output folder; its extension chooses the format (.fst or "
           ".vcd).")
        .default_shown("{Name}.fst");
    k.name_list("Trace.Components", UETSIM_FIELD(trace.components), glob_text,
                "Devices and links traced, by name glob (host3, leaf*, leaf0-spine*).");
    k.name_list("Trace.Signals", UETSIM_FIELD(trace.signals), glob_text,
                "Signals traced, by glob over their names without the component (cwnd_bytes, "
                "g0.*, queue_bytes*).");
    k.time("Trace.Start", UETSIM_FIELD(trace.start_s), {0, 100},
           "Start of the window written (without a trigger).");
    k.time("Trace.Stop", UETSIM_FIELD(trace.stop_s), {0, 100},
           "End of the window written (without a trigger).")
        .default_shown("the end of the run");
    k.integer("Trace.GroupSlots", UETSIM_FIELD(trace.group_slots), {0, 64},
              "PDC group slots traced per UET NIC (the first ones).");
    k.map("Trace.Trigger", UETSIM_FIELD(trace.trigger), trigger_keys(), "{On: trim}",
          "Writes PreTrigger of changes before the first matching event and PostTrigger after "
          "it, instead of Start..Stop.")
        .default_shown("none (the window is Start..Stop)");
    k.time("Trace.PreTrigger", UETSIM_FIELD(trace.pre_trigger_s), {0, 100},
           "Changes kept (in a ring buffer) and written from before the trigger.");
    k.time("Trace.PostTrigger", UETSIM_FIELD(trace.post_trigger_s), {0, 100},
           "Changes written after the trigger.");
}

}  // namespace uetsim::config
