#include "testbench/traffic/chakra/et_writer.h"

#include "testbench/traffic/chakra/trace_error.h"

#include "et_def.pb.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>

namespace uetsim::chakra {

namespace {

namespace pb = ChakraProtoMsg;

// The default version: the Chakra schema release these field numbers are from.
constexpr const char* k_default_version = "0.0.4";

void add_int64(pb::Node& m, const char* name, int64_t v)
{
    auto* a = m.add_attr();
    a->set_name(name);
    a->set_int64_val(v);
}

// Chakra's feeder reads these as int32_val; a value outside int32 keeps its meaning as int64_val.
void add_int32_or_64(pb::Node& m, const char* name, int64_t v)
{
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
        return add_int64(m, name, v);
    auto* a = m.add_attr();
    a->set_name(name);
    a->set_int32_val(int32_t(v));
}

pb::Node message_of(const node& n)
{
    pb::Node m;
    m.set_id(n.id);
    m.set_name(n.name);
    m.set_type(pb::NodeType(int(n.type)));
    for (uint64_t d : n.ctrl_deps) m.add_ctrl_deps(d);
    for (uint64_t d : n.data_deps) m.add_data_deps(d);
    m.set_start_time_micros(n.start_time_micros);
    m.set_duration_micros(n.duration_micros);
    if (n.comm_type) add_int64(m, "comm_type", *n.comm_type);
    if (n.comm_size) {
        if (*n.comm_size <= uint64_t(std::numeric_limits<int64_t>::max())) {
            add_int64(m, "comm_size", int64_t(*n.comm_size));
        } else {
            auto* a = m.add_attr();
            a->set_name("comm_size");
            a->set_uint64_val(*n.comm_size);
        }
    }
    if (n.comm_src) add_int32_or_64(m, "comm_src", *n.comm_src);
    if (n.comm_dst) add_int32_or_64(m, "comm_dst", *n.comm_dst);
    if (n.comm_tag) add_int32_or_64(m, "comm_tag", *n.comm_tag);
    if (n.root) add_int64(m, "root", *n.root);
    if (n.pg_name) {
        auto* a = m.add_attr();
        a->set_name("pg_name");
        a->set_string_val(*n.pg_name);
    }
    if (n.algorithm) {  // uetsim's own attribute (trace_model.h)
        auto* a = m.add_attr();
        a->set_name("algorithm");
        a->set_string_val(*n.algorithm);
    }
    auto* cpu = m.add_attr();
    cpu->set_name("is_cpu_op");
    cpu->set_bool_val(n.is_cpu_op);
    return m;
}

std::string pg_config_of(const std::vector<process_group>& groups)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& g : groups) {
        nlohmann::ordered_json o;
        o["pg_name"] = g.name;
        o["ranks"] = g.ranks;
        if (!g.ranks.empty()) o["group_size"] = g.ranks.size();
        list.push_back(std::move(o));
    }
    return list.dump();
}

// Each message goes out as its length (a varint) and its bytes.
void write_delimited(std::ofstream& out, const google::protobuf::Message& m, std::string& buf)
{
    buf.clear();
    uint64_t size = m.ByteSizeLong();
    do {
        const uint8_t group = size & 0x7f;
        size >>= 7;
        buf += char(size ? group | 0x80 : group);
    } while (size);
    m.AppendToString(&buf);
    out.write(buf.data(), std::streamsize(buf.size()));
}

}  // namespace

void write_rank_trace(const std::string& path, const rank_trace& trace)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw trace_error(path, std::string("cannot write: ") + std::strerror(errno));
    std::string buf;
    pb::GlobalMetadata meta;
    meta.set_version(trace.version.empty() ? k_default_version : trace.version);
    if (!trace.groups.empty()) {
        auto* a = meta.add_attr();
        a->set_name("pg_config");
        a->set_string_val(pg_config_of(trace.groups));
    }
    write_delimited(out, meta, buf);
    for (const auto& n : trace.nodes) write_delimited(out, message_of(n), buf);
    out.close();
    if (!out) throw trace_error(path, std::string("cannot write: ") + std::strerror(errno));
}

void write_traceset(const std::string& prefix, const traceset& traces)
{
    for (size_t r = 0; r < traces.ranks.size(); ++r)
        write_rank_trace(prefix + "." + std::to_string(r) + ".et", traces.ranks[r]);
}

}  // namespace uetsim::chakra
