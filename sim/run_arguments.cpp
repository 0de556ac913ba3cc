#include "sim/run_arguments.h"

#include <CLI/CLI.hpp>

namespace uetsim {

void add_scenario_options(CLI::App* cmd, std::string& file, std::vector<std::string>& sets,
                          bool file_required)
{
    auto* f = cmd->add_option("scenario", file,
                              file_required ? "Scenario file (YAML)"
                                            : "Scenario file (YAML); without it, the embedded "
                                              "default scenario");
    f->type_name("SCENARIO.yaml");
    if (file_required) f->required();
    // One K=V per --set so that a following positional file is not taken as a value.
    cmd->add_option("--set", sets, "Override one key after the file (repeatable)")
        ->type_name("Section.Key=VALUE")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void add_run_options(CLI::App* cmd, detail::run_arguments& a)
{
    add_scenario_options(cmd, a.file, a.sets, false);
    cmd->add_option("--out", a.out_dir, "Output folder for the records")
        ->capture_default_str()
        ->type_name("DIR");
    cmd->add_flag("--quiet,-q", a.quiet, "No progress line on stderr");
    cmd->add_flag("--progress", a.progress,
                  "The progress line on stderr even when it is not a terminal (batch logs)");
}

}  // namespace uetsim
