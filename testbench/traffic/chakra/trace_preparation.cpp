#include "testbench/traffic/chakra/trace_preparation.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

namespace uetsim::chakra {

namespace {

const char* node_type_name(node_type t)
{
    switch (t) {
        case node_type::invalid:
            return "INVALID_NODE";
        case node_type::metadata:
            return "METADATA_NODE";
        case node_type::mem_load:
            return "MEM_LOAD_NODE";
        case node_type::mem_store:
            return "MEM_STORE_NODE";
        case node_type::comp:
            return "COMP_NODE";
        case node_type::comm_send:
            return "COMM_SEND_NODE";
        case node_type::comm_recv:
            return "COMM_RECV_NODE";
        case node_type::comm_coll:
            return "COMM_COLL_NODE";
    }
    return "?";
}

// The lines one preparation step logs are capped (MaxCountWarningsLoggedPerInstance); every
// warning is counted.
class warning_log
{
public:
    warning_log(prepared_workload& w, uint32_t cap) : m_w(w), m_cap(cap) {}
    void add(int step, std::string msg)
    {
        ++m_w.warnings_total;
        if (m_logged[step]++ < m_cap) m_w.warnings.push_back(std::move(msg));
    }

private:
    prepared_workload& m_w;
    uint32_t m_cap;
    uint32_t m_logged[3] = {0, 0, 0};
};
enum step { expansion = 0, ordering = 1, matching = 2 };

std::string where(const rank_trace& t, uint64_t id)
{
    return fmt::format("{}: node {}", t.file, id);
}

// A collective node of one rank, before instances are formed.
struct rank_collective
{
    uint32_t rank, node;
    uint64_t trace_id;
    collective_type type;
    uint64_t size;
    int64_t root;  // a rank, -1 for none
    algorithm alg;
};

struct plan_key
{
    int type, alg;
    uint32_t n;
    uint64_t size;
    uint32_t root;
    bool operator<(const plan_key& o) const
    {
        return std::tie(type, alg, n, size, root) < std::tie(o.type, o.alg, o.n, o.size, o.root);
    }
};

}  // namespace

uint64_t scaled(uint64_t value, const chakra_config& cfg)
{
    if (!cfg.scaling) return value;
    return uint64_t(double(value) * cfg.scaling_factor);
}

prepared_workload prepare_traces(const traceset& ts, const chakra_config& cfg)
{
    prepared_workload w;
    warning_log warn(w, cfg.max_count_warnings_logged_per_instance);
    const uint32_t ranks = uint32_t(ts.ranks.size());
    if (ranks == 0) throw trace_error(ts.prefix + ": the traceset has no rank");

    // Process groups: the implicit one of every rank (a collective with no pg_name), then those
    // the traces declare, by name; a name declared twice must list the same members.
    std::unordered_map<std::string, uint32_t> group_of_name;
    auto add_group = [&](const std::string& name, const std::vector<uint32_t>& members,
                         const std::string& file) {
        prepared_group g;
        g.name = name;
        g.ranks = members;
        g.position.assign(ranks, -1);
        for (size_t i = 0; i < members.size(); ++i) {
            if (members[i] >= ranks)
                throw trace_error(fmt::format(
                    "{}: process group '{}' names rank {}, but the traceset has ranks 0..{}", file,
                    name, members[i], ranks - 1));
            if (g.position[members[i]] >= 0)
                throw trace_error(fmt::format("{}: process group '{}' names rank {} twice", file,
                                              name, members[i]));
            g.position[members[i]] = int32_t(i);
        }
        if (members.empty())
            throw trace_error(fmt::format("{}: process group '{}' has no rank", file, name));
        w.groups.push_back(std::move(g));
        return uint32_t(w.groups.size() - 1);
    };
    {
        std::vector<uint32_t> all(ranks);
        for (uint32_t r = 0; r < ranks; ++r) all[r] = r;
        add_group("", all, ts.prefix);
    }
    // Per rank: the groups its own trace declares (a collective may use only those).
    std::vector<std::unordered_map<std::string, uint32_t>> declared(ranks);
    for (uint32_t r = 0; r < ranks; ++r) {
        const rank_trace& t = ts.ranks[r];
        for (const process_group& pg : t.groups) {
            auto it = group_of_name.find(pg.name);
            if (it == group_of_name.end()) {
                it = group_of_name.emplace(pg.name, add_group(pg.name, pg.ranks, t.file)).first;
            } else if (w.groups[it->second].ranks != pg.ranks) {
                throw trace_error(fmt::format(
                    "{}: process group '{}' lists other ranks than another trace declares for it",
                    t.file, pg.name));
            }
            declared[r][pg.name] = it->second;  // by index, like everything else here
        }
    }

    w.ranks.resize(ranks);
    std::vector<std::vector<rank_collective>> per_group(w.groups.size());
    // Send and receive counts per (sender, receiver, tag): every receive needs a send.
    std::map<std::tuple<uint32_t, uint32_t, int64_t>, int64_t> p2p;
    // Per rank: node index by trace id, and the edges trace preparation adds.
    std::vector<std::unordered_map<uint64_t, uint32_t>> index_of(ranks);
    std::vector<std::vector<std::vector<uint32_t>>> deps(ranks);
    // Sends ordered with a group's collectives (ProcessGroupSerialization): by group, per rank.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> serialized_sends(ranks);

    for (uint32_t r = 0; r < ranks; ++r) {
        const rank_trace& t = ts.ranks[r];
        prepared_rank& pr = w.ranks[r];
        pr.file = t.file;
        pr.nodes.resize(t.nodes.size());
        pr.data_deps.resize(t.nodes.size());
        pr.ctrl_deps.resize(t.nodes.size());
        auto& idx = index_of[r];
        idx.reserve(t.nodes.size());
        for (uint32_t i = 0; i < t.nodes.size(); ++i)
            if (!idx.emplace(t.nodes[i].id, i).second)
                throw trace_error(where(t, t.nodes[i].id) + ": the node id is used twice");

        for (uint32_t i = 0; i < t.nodes.size(); ++i) {
            const node& n = t.nodes[i];
            prepared_node& p = pr.nodes[i];
            p.trace_id = n.id;
            p.type = n.type;
            p.duration_us = scaled(n.duration_micros, cfg);
            pr.data_deps[i] = n.data_deps;
            pr.ctrl_deps[i] = n.ctrl_deps;
            switch (n.type) {
                case node_type::metadata:
                    p.kind = op_kind::none;
                    break;
                case node_type::comp:
                    p.kind = n.is_cpu_op ? op_kind::timed : op_kind::npu;
                    ++w.total_computations;
                    break;
                case node_type::mem_load:
                case node_type::mem_store:
                    p.kind = op_kind::timed;
                    break;
                case node_type::comm_send:
                case node_type::comm_recv: {
                    const bool send = n.type == node_type::comm_send;
                    const auto& peer = send ? n.comm_dst : n.comm_src;
                    const char* attr = send ? "comm_dst" : "comm_src";
                    if (!peer)
                        throw trace_error(fmt::format("{}: {} has no {}", where(t, n.id),
                                                      node_type_name(n.type), attr));
                    if (*peer < 0 || uint64_t(*peer) >= ranks)
                        throw trace_error(
                            fmt::format("{}: {} {} is not a rank of the traceset (0..{})",
                                        where(t, n.id), attr, *peer, ranks - 1));
                    if (uint32_t(*peer) == r)
                        throw trace_error(fmt::format("{}: {} {} is the node's own rank",
                                                      where(t, n.id), attr, *peer));
                    if (send && !n.comm_size)
                        throw trace_error(where(t, n.id) + ": COMM_SEND_NODE has no comm_size");
                    p.kind = send ? op_kind::send : op_kind::recv;
                    p.peer = uint32_t(*peer);
                    p.tag = n.comm_tag.value_or(0);
                    p.bytes = scaled(n.comm_size.value_or(0), cfg);
                    if (send) {
                        ++p2p[{r, p.peer, p.tag}];
                        ++w.total_sends;
                        w.total_send_bytes += p.bytes;
                        if (n.pg_name)
                            if (auto g = declared[r].find(*n.pg_name); g != declared[r].end())
                                serialized_sends[r].push_back({g->second, i});
                    } else {
                        --p2p[{p.peer, r, p.tag}];
                        ++w.total_recvs;
                    }
                    break;
                }
                case node_type::comm_coll: {
                    p.kind = op_kind::none;  // until it is expanded below
                    if (!n.comm_type) {
                        warn.add(expansion, where(t, n.id) +
                                                ": COMM_COLL_NODE has no comm_type; not expanded");
                        break;
                    }
                    if (*n.comm_type < 0 || *n.comm_type >= k_collective_types)
                        throw trace_error(fmt::format("{}: comm_type {} is not a collective type",
                                                      where(t, n.id), *n.comm_type));
                    const auto type = collective_type(*n.comm_type);
                    if (!n.comm_size && type != collective_type::barrier) {
                        warn.add(expansion, fmt::format("{}: {} has no comm_size; not expanded",
                                                        where(t, n.id), collective_name(type)));
                        break;
                    }
                    uint32_t g = 0;
                    if (n.pg_name) {
                        auto it = declared[r].find(*n.pg_name);
                        if (it == declared[r].end())
                            throw trace_error(
                                fmt::format("{}: process group '{}' is not declared in the trace",
                                            where(t, n.id), *n.pg_name));
                        g = it->second;
                    }
                    if (w.groups[g].position[r] < 0) {
                        warn.add(expansion,
                                 fmt::format("{}: {} of process group '{}', which does not "
                                             "include rank {}; not expanded",
                                             where(t, n.id), collective_name(type),
                                             w.groups[g].name, r));
                        break;
                    }
                    algorithm alg = cfg.algorithm_for(type);
                    if (n.algorithm) {
                        const auto a = parse_algorithm(*n.algorithm);
                        if (!a || !allows(type, *a))
                            throw trace_error(
                                fmt::format("{}: algorithm '{}' is not an algorithm of {}",
                                            where(t, n.id), *n.algorithm, collective_name(type)));
                        alg = *a;
                    }
                    p.kind = op_kind::collective;
                    per_group[g].push_back({r, i, n.id, type, scaled(n.comm_size.value_or(0), cfg),
                                            has_root(type) ? n.root.value_or(-1) : -1, alg});
                    break;
                }
                default:
                    throw trace_error(
                        fmt::format("{}: node type {} is not one the simulation "
                                    "replays",
                                    where(t, n.id), int(n.type)));
            }
        }

        deps[r].resize(t.nodes.size());
        for (uint32_t i = 0; i < t.nodes.size(); ++i) {
            const node& n = t.nodes[i];
            auto& d = deps[r][i];
            for (const auto* list : {&n.ctrl_deps, &n.data_deps})
                for (uint64_t id : *list) {
                    auto it = idx.find(id);
                    if (it == idx.end())
                        throw trace_error(
                            fmt::format("{}: depends on node {}, which is not in the trace",
                                        where(t, n.id), id));
                    d.push_back(it->second);
                }
        }
    }

    for (const auto& [key, balance] : p2p) {
        if (balance >= 0) {
            if (balance > 0)
                warn.add(matching, fmt::format("{}: {} COMM_SEND_NODE(s) to rank {} with "
                                               "comm_tag {} match no COMM_RECV_NODE",
                                               ts.ranks[std::get<0>(key)].file, balance,
                                               std::get<1>(key), std::get<2>(key)));
            continue;
        }
        // Name the receive that stays unmatched: the last one of the key in file order.
        const auto [src, dst, tag] = key;
        const rank_trace& t = ts.ranks[dst];
        uint64_t id = 0;
        for (const node& n : t.nodes)
            if (n.type == node_type::comm_recv && n.comm_src == int64_t(src) &&
                n.comm_tag.value_or(0) == tag)
                id = n.id;
        throw trace_error(fmt::format(
            "{}: COMM_RECV_NODE from rank {} with comm_tag {} is never matched: {} has {} "
            "fewer COMM_SEND_NODE(s) to rank {} with that tag",
            where(t, id), src, tag, ts.ranks[src].file, -balance, dst));
    }

    // Instances: the k-th collective of a group on every member rank, in node id order.
    std::map<plan_key, uint32_t> plan_of;
    auto plan_for = [&](collective_type type, algorithm alg, uint32_t n, uint64_t size,
                        uint32_t root) {
        const plan_key k{int(type), int(alg), n, size, root};
        auto it = plan_of.find(k);
        if (it != plan_of.end()) return it->second;
        w.plans.push_back(std::make_unique<collective_plan>(type, alg, n, size, root));
        return plan_of[k] = uint32_t(w.plans.size() - 1);
    };
    // Per rank: its expanded collectives with their group, for serialization.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> rank_colls(ranks);
    for (uint32_t g = 0; g < w.groups.size(); ++g) {
        const prepared_group& grp = w.groups[g];
        std::vector<std::vector<const rank_collective*>> of_rank(grp.ranks.size());
        for (const rank_collective& c : per_group[g])
            of_rank[size_t(grp.position[c.rank])].push_back(&c);
        for (auto& v : of_rank)
            std::stable_sort(v.begin(), v.end(),
                             [](auto* a, auto* b) { return a->trace_id < b->trace_id; });
        size_t count = 0;
        for (auto& v : of_rank) count = std::max(count, v.size());
        for (size_t m = 0; m < of_rank.size(); ++m)
            if (of_rank[m].size() != count) {
                const size_t longest =
                    size_t(std::max_element(of_rank.begin(), of_rank.end(),
                                            [](auto& a, auto& b) { return a.size() < b.size(); }) -
                           of_rank.begin());
                throw trace_error(fmt::format(
                    "{}: {} collective(s) of process group '{}', but {} has {}: every rank of a "
                    "group must take part in each of its collectives",
                    ts.ranks[grp.ranks[m]].file, of_rank[m].size(), grp.name,
                    ts.ranks[grp.ranks[longest]].file, count));
            }
        for (size_t k = 0; k < count; ++k) {
            const rank_collective& first = *of_rank[0][k];
            for (size_t m = 1; m < of_rank.size(); ++m) {
                const rank_collective& c = *of_rank[m][k];
                if (c.type != first.type || c.size != first.size || c.root != first.root ||
                    c.alg != first.alg)
                    throw trace_error(fmt::format(
                        "{}: collective {} of process group '{}' is a {} {} of {} B (root {}), "
                        "but in {} (node {}) a {} {} of {} B (root {})",
                        where(ts.ranks[c.rank], c.trace_id), k, grp.name, collective_name(c.type),
                        algorithm_name(c.alg), c.size, c.root, ts.ranks[first.rank].file,
                        first.trace_id, collective_name(first.type), algorithm_name(first.alg),
                        first.size, first.root));
            }
            collective_instance inst;
            inst.id = uint32_t(w.collectives.size());
            inst.type = first.type;
            inst.alg = first.alg;
            inst.comm_size = first.size;
            inst.group = g;
            if (first.root >= 0) {
                if (uint64_t(first.root) >= ranks || grp.position[size_t(first.root)] < 0)
                    throw trace_error(fmt::format(
                        "{}: root {} is not a rank of process group "
                        "'{}'",
                        where(ts.ranks[first.rank], first.trace_id), first.root, grp.name));
                inst.root_position = uint32_t(grp.position[size_t(first.root)]);
            }
            const uint32_t n = uint32_t(grp.ranks.size());
            try {
                inst.plan = plan_for(inst.type, inst.alg, n, inst.comm_size, inst.root_position);
            } catch (const plan_error& e) {
                throw trace_error(
                    fmt::format("{}: {}", where(ts.ranks[first.rank], first.trace_id), e.what()));
            }
            inst.synchronized = cfg.comm_collective_synchronization && n > 1;
            if (inst.synchronized)
                inst.barrier_plan = plan_for(collective_type::barrier, algorithm::tree, n, 0, 0);
            const collective_plan& plan = *w.plans[inst.plan];
            // A Barrier of the trace counts (its zero-byte transfers); a synchronization
            // barrier does not.
            w.total_sends += plan.transfers();
            w.total_recvs += plan.transfers();
            w.total_send_bytes += plan.bytes();
            for (size_t m = 0; m < of_rank.size(); ++m) {
                const rank_collective& c = *of_rank[m][k];
                w.ranks[c.rank].nodes[c.node].collective = inst.id;
                rank_colls[c.rank].push_back({g, c.node});
            }
            w.collectives.push_back(inst);
        }
    }

    // Process group serialization: on each rank, a group's collectives (and the sends that name
    // the group) one at a time, in node id order.
    if (cfg.process_group_serialization)
        for (uint32_t r = 0; r < ranks; ++r) {
            auto items = rank_colls[r];
            items.insert(items.end(), serialized_sends[r].begin(), serialized_sends[r].end());
            const auto& nodes = w.ranks[r].nodes;
            std::stable_sort(items.begin(), items.end(), [&](const auto& a, const auto& b) {
                return std::tie(a.first, nodes[a.second].trace_id) <
                       std::tie(b.first, nodes[b.second].trace_id);
            });
            for (size_t i = 1; i < items.size(); ++i)
                if (items[i].first == items[i - 1].first) {
                    auto& d = deps[r][items[i].second];
                    if (std::find(d.begin(), d.end(), items[i - 1].second) == d.end())
                        d.push_back(items[i - 1].second);
                }
        }

    // Dependencies as counts and flattened dependents; a cycle stops the run.
    for (uint32_t r = 0; r < ranks; ++r) {
        prepared_rank& pr = w.ranks[r];
        const uint32_t n = uint32_t(pr.nodes.size());
        std::vector<uint32_t> out_degree(n, 0);
        for (uint32_t i = 0; i < n; ++i) {
            auto& d = deps[r][i];
            std::sort(d.begin(), d.end());
            d.erase(std::unique(d.begin(), d.end()), d.end());
            pr.nodes[i].deps = uint32_t(d.size());
            for (uint32_t j : d) ++out_degree[j];
        }
        uint32_t at = 0;
        for (uint32_t i = 0; i < n; ++i) {
            pr.nodes[i].dependents_begin = pr.nodes[i].dependents_end = at;
            at += out_degree[i];
        }
        pr.dependents.resize(at);
        for (uint32_t i = 0; i < n; ++i)
            for (uint32_t j : deps[r][i]) pr.dependents[pr.nodes[j].dependents_end++] = i;
        // Kahn's order: whatever is left waits on a cycle.
        std::vector<uint32_t> left(n), queue;
        for (uint32_t i = 0; i < n; ++i) {
            left[i] = pr.nodes[i].deps;
            if (!left[i]) {
                queue.push_back(i);
                pr.ready.push_back(i);
            }
        }
        for (size_t q = 0; q < queue.size(); ++q) {
            const prepared_node& p = pr.nodes[queue[q]];
            for (uint32_t k = p.dependents_begin; k < p.dependents_end; ++k)
                if (--left[pr.dependents[k]] == 0) queue.push_back(pr.dependents[k]);
        }
        if (queue.size() == n) continue;
        // Walk back along unfinished dependencies until a node repeats: that is the cycle.
        uint32_t i = 0;
        while (!left[i]) ++i;
        std::vector<int32_t> seen(n, -1);
        std::vector<uint32_t> path;
        while (seen[i] < 0) {
            seen[i] = int32_t(path.size());
            path.push_back(i);
            for (uint32_t j : deps[r][i])
                if (left[j]) {
                    i = j;
                    break;
                }
        }
        std::string cycle;
        for (size_t k = size_t(seen[i]); k < path.size(); ++k)
            cycle += fmt::format("{} -> ", pr.nodes[path[k]].trace_id);
        cycle += std::to_string(pr.nodes[i].trace_id);
        throw trace_error(
            fmt::format("{}: depends on itself through a cycle of dependencies "
                        "({}, each waiting for the next)",
                        where(ts.ranks[r], pr.nodes[i].trace_id), cycle));
    }

    // MaxCountWarningsLoggedPerInstance 0 logs no line: there is then no first one to quote.
    if (cfg.abort_on_chakra_warning && w.warnings_total)
        throw trace_error(fmt::format(
            "Chakra.AbortOnChakraWarning is true and trace preparation logged {} warning(s); {}",
            w.warnings_total,
            w.warnings.empty() ? "none is shown (Chakra.MaxCountWarningsLoggedPerInstance is 0)"
                               : "the first: " + w.warnings.front()));
    return w;
}

}  // namespace uetsim::chakra
