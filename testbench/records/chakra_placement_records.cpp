// The Chakra placement records (chakra-capable-hosts, chakra-mapping, chakra-apps): written
// whole when they are opened, at the start.
#include "testbench/records/chakra_records.h"

#include <fmt/format.h>

#include "testbench/elab/fabric.h"
#include "testbench/elab/topology.h"
#include "testbench/records/chakra_record_base.h"
#include "testbench/traffic/chakra/chakra_replay.h"
#include "testbench/traffic/chakra/chakra_workload.h"

namespace uetsim {

namespace {

using namespace chakra;
using namespace chakra_records;

std::string dotted(uint32_t ip)
{
    return fmt::format("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255);
}

// A record whose rows are all written when it is opened (the placement records).
class written_at_open : public open_record
{
public:
    void finish() override {}
};

template <typename Row>
std::unique_ptr<open_record> write_all(const std::string& path, const column_table<Row>& columns,
                                       const std::vector<Row>& rows)
{
    record_csv<Row> csv(path, columns);
    for (const Row& r : rows) csv.write(r);
    csv.close();
    return std::make_unique<written_at_open>();
}

struct capable_row
{
    uint32_t host;
    bool capable;
};

const column_table<capable_row>& capable_columns()
{
    using row = capable_row;
    static const column_table<row> c = {
        {"Host", "the host number (the server id of a mapping file)", UETSIM_CELL(row, r.host)},
        {"ChakraCapable", "`true`: the host has a NIC (UET or RoCE), so a rank can run on it",
         UETSIM_CELL(row, yes(r.capable))},
    };
    return c;
}

struct mapping_row
{
    uint32_t rank;
    std::string hostname;
    uint32_t nic_node, server_node, server;
    uint32_t ip;
    int64_t group, subgroup;
};

const column_table<mapping_row>& mapping_columns(bool scale_up)
{
    using row = mapping_row;
    static const column_table<row> base = {
        {"ChakraId", "the rank", UETSIM_CELL(row, r.rank)},
        {"Hostname", "the host it runs on (`host3`)", UETSIM_CELL(row, r.hostname)},
        {"NicNodeID", "node id of the host's NIC (the NIC records' `node_id`)",
         UETSIM_CELL(row, r.nic_node)},
        {"ServerNodeID", "node id of the host (its topology device)",
         UETSIM_CELL(row, r.server_node)},
        {"ServerID", "the host number", UETSIM_CELL(row, r.server)},
        {"Core", "the simulator process that runs it: 0", UETSIM_CELL(row, 0)},
        {"IPAddress", "the host's IPv4 address", UETSIM_CELL(row, dotted(r.ip))},
    };
    static const column_table<row> with_groups = [] {
        column_table<row> c = base;
        c.push_back({"ScaleUpGroupId",
                     "the rank's scale-up group, -1 for none (only with "
                     "scale-up groups in the mapping file)",
                     UETSIM_CELL(row, r.group)});
        c.push_back(
            {"ScaleUpSubgroupId", "its subgroup, -1 for none", UETSIM_CELL(row, r.subgroup)});
        return c;
    }();
    return scale_up ? with_groups : base;
}

struct app_row
{
    uint32_t rank;
};

const column_table<app_row>& app_columns()
{
    using row = app_row;
    static const column_table<row> c = {
        {"AppName", "`ChakraApp-<rank>`", UETSIM_CELL(row, app_name(r.rank))},
        {"Core", "the simulator process that runs it: 0", UETSIM_CELL(row, 0)},
    };
    return c;
}

const char* const at_start = "with the Chakra workload, at the start";

std::unique_ptr<open_record> open_capable_hosts(record_context& ctx, const std::string& path)
{
    std::vector<capable_row> rows;
    for (uint32_t h = 0; h < ctx.fab.host_count(); ++h) rows.push_back({h, true});
    return write_all(path, capable_columns(), rows);
}

std::unique_ptr<open_record> open_mapping(record_context& ctx, const std::string& path)
{
    const auto& pl = ctx.workload->placement;
    const bool groups = ctx.workload->map && ctx.workload->map->has_scale_up();
    std::vector<mapping_row> rows;
    for (uint32_t k = 0; k < pl.host.size(); ++k) {
        const uint32_t h = pl.host[k];
        rows.push_back({k, ctx.fab.topo().devices[h].name, ctx.fab.nic_at(h).node_id(),
                        ctx.fab.topo().devices[h].node_id, h, host_ip(h), pl.group[k],
                        pl.subgroup[k]});
    }
    return write_all(path, mapping_columns(groups), rows);
}

std::unique_ptr<open_record> open_apps(record_context& ctx, const std::string& path)
{
    std::vector<app_row> rows;
    for (uint32_t k = 0; k < ctx.chakra->ranks(); ++k) rows.push_back({k});
    return write_all(path, app_columns(), rows);
}

}  // namespace

const record_def& chakra_capable_hosts_record()
{
    static const record_def d =
        chakra_record("chakra-capable-hosts", 16, at_start, "One row per host with a NIC.",
                      column_docs(capable_columns()), open_capable_hosts);
    return d;
}

const record_def& chakra_mapping_record()
{
    static const record_def d = chakra_record(
        "chakra-mapping", 17, at_start,
        "One row per rank: where it runs. With scale-up groups in the mapping file, two more "
        "columns follow (`ScaleUpGroupId`, `ScaleUpSubgroupId`).",
        column_docs(mapping_columns(true)), open_mapping);
    return d;
}

const record_def& chakra_apps_record()
{
    static const record_def d =
        chakra_record("chakra-apps", 18, at_start, "One row per rank's application.",
                      column_docs(app_columns()), open_apps);
    return d;
}

}  // namespace uetsim
