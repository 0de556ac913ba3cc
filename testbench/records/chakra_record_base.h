// What the Chakra records share (chakra_*_records.cpp): their registry declaration and the
// names their rows use.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "testbench/records/column_table.h"
#include "testbench/records/record_registry.h"

namespace uetsim::chakra_records {

inline std::string app_name(uint32_t rank)
{
    return "ChakraApp-" + std::to_string(rank);
}

inline const char* yes(bool b)
{
    return b ? "true" : "false";
}

using opener = std::unique_ptr<open_record> (*)(record_context&, const std::string&);

template <class Open>
std::unique_ptr<open_record> open_as(record_context& ctx, const std::string& path)
{
    return std::make_unique<Open>(ctx, path);
}

// A Chakra record: listed in Records.Enabled, written only with the Chakra workload, opened
// once the replay exists.
inline record_def chakra_record(const char* name, int position, const char* when, const char* intro,
                                std::vector<column_doc> columns, opener open,
                                const char* notes = "")
{
    record_def r;
    r.name = name;
    r.enabled_position = position;
    r.when = when;
    r.intro = intro;
    r.columns = std::move(columns);
    r.notes = notes;
    r.applies = [](const record_context& ctx) { return ctx.chakra != nullptr; };
    r.reads_application = true;
    r.open = open;
    return r;
}

}  // namespace uetsim::chakra_records
