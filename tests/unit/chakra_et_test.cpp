// Chakra execution-trace files: writing and reading back, the forms other producers write, and
// what the reader refuses (each refusal names the file, the node and the reason).
#include <gtest/gtest.h>

#include "testbench/traffic/chakra/et_reader.h"
#include "testbench/traffic/chakra/et_writer.h"
#include "testbench/traffic/chakra/trace_error.h"
#include "tests/support/run_uetsim.h"

#include "et_def.pb.h"

#include <google/protobuf/io/coded_stream.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>

namespace uetsim::chakra {

bool operator==(const node& a, const node& b)
{
    return a.id == b.id && a.name == b.name && a.type == b.type && a.ctrl_deps == b.ctrl_deps &&
           a.data_deps == b.data_deps && a.start_time_micros == b.start_time_micros &&
           a.duration_micros == b.duration_micros && a.comm_type == b.comm_type &&
           a.comm_size == b.comm_size && a.comm_src == b.comm_src && a.comm_dst == b.comm_dst &&
           a.comm_tag == b.comm_tag && a.root == b.root && a.pg_name == b.pg_name &&
           a.is_cpu_op == b.is_cpu_op;
}

bool operator==(const process_group& a, const process_group& b)
{
    return a.name == b.name && a.ranks == b.ranks;
}

namespace {

namespace pb = ChakraProtoMsg;

// ---- files as other producers write them

std::string varint(uint64_t v)
{
    std::string s;
    do {
        const uint8_t group = v & 0x7f;
        v >>= 7;
        s += char(v ? group | 0x80 : group);
    } while (v);
    return s;
}

std::string framed(const google::protobuf::Message& m)
{
    const std::string bytes = m.SerializeAsString();
    return varint(bytes.size()) + bytes;
}

void write_bytes(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string read_bytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// A file of the given GlobalMetadata and nodes.
void write_messages(const std::string& path, const pb::GlobalMetadata& meta,
                    const std::vector<pb::Node>& nodes)
{
    std::string s = framed(meta);
    for (const auto& n : nodes) s += framed(n);
    write_bytes(path, s);
}

pb::GlobalMetadata metadata(const std::string& version = "0.0.4")
{
    pb::GlobalMetadata m;
    m.set_version(version);
    return m;
}

pb::Node pb_node(uint64_t id, pb::NodeType type, const std::string& name = "n")
{
    pb::Node n;
    n.set_id(id);
    n.set_name(name);
    n.set_type(type);
    return n;
}

pb::AttributeProto* attr(pb::Node& n, const std::string& name)
{
    auto* a = n.add_attr();
    a->set_name(name);
    return a;
}

void add_int64(pb::Node& n, const std::string& name, int64_t v)
{
    attr(n, name)->set_int64_val(v);
}

// The message of the trace_error `read` throws ("no error" if it throws none).
std::string error_of(const std::function<void()>& read)
{
    try {
        read();
    } catch (const trace_error& e) {
        return e.what();
    }
    return "no error";
}

std::string rank_error(const std::string& path)
{
    return error_of([&] { read_rank_trace(path, 0); });
}

// The error of a one-rank file holding `nodes`, after node 1 (a COMP_NODE) that reads fine.
std::string node_error(const std::string& path, std::vector<pb::Node> nodes)
{
    nodes.insert(nodes.begin(), pb_node(1, pb::COMP_NODE));
    write_messages(path, metadata(), nodes);
    return rank_error(path);
}

class chakra_et : public ::testing::Test
{
protected:
    std::string dir = test::scratch_dir("chakra-et");
    std::string file(const std::string& name) const { return dir + "/" + name; }
};

// ---- round trip

node full_node(uint64_t id, node_type type)
{
    node n;
    n.id = id;
    n.name = "node " + std::to_string(id);
    n.type = type;
    n.start_time_micros = 1000 * id;
    n.duration_micros = 7 + id;
    if (id > 1) n.data_deps = {id - 1, id / 2};
    if (id > 2) n.ctrl_deps = {1};
    return n;
}

rank_trace sample_rank(uint32_t rank)
{
    rank_trace t;
    t.rank = rank;
    t.version = "1.0.3-chakra.0.0.4";
    t.groups = {{"0", {0, 1, 2}}, {"tp", {2, 0}}, {"solo", {1}}};
    uint64_t id = 10;
    for (int type = 0; type <= int(node_type::comm_coll); ++type)
        t.nodes.push_back(full_node(id++, node_type(type)));
    // Every attribute, at the edges of what each member holds.
    node send = full_node(id++, node_type::comm_send);
    send.comm_size = std::numeric_limits<uint64_t>::max();  // beyond int64: written as uint64
    send.comm_src = rank;
    send.comm_dst = int64_t(1) << 40;  // beyond int32: written as int64
    send.comm_tag = -3;
    send.pg_name = "tp";
    t.nodes.push_back(send);
    node recv = full_node(id++, node_type::comm_recv);
    recv.comm_size = 0;
    recv.comm_src = std::numeric_limits<int64_t>::min();
    recv.comm_dst = std::numeric_limits<int64_t>::max();
    recv.comm_tag = 0;
    recv.is_cpu_op = true;
    t.nodes.push_back(recv);
    for (int c = 0; c < k_collective_types; ++c) {
        node coll = full_node(id++, node_type::comm_coll);
        coll.comm_type = c;
        coll.comm_size = 4096 * uint64_t(c + 1);
        coll.root = c % 3;
        coll.pg_name = c % 2 ? "0" : "solo";
        coll.is_cpu_op = c == 4;
        t.nodes.push_back(coll);
    }
    node comp = full_node(id++, node_type::comp);
    comp.is_cpu_op = true;
    comp.pg_name = "";  // set but empty
    t.nodes.push_back(comp);
    return t;
}

void expect_same(const rank_trace& got, const rank_trace& want)
{
    EXPECT_EQ(got.rank, want.rank);
    EXPECT_EQ(got.file, want.file);
    EXPECT_EQ(got.version, want.version);
    EXPECT_EQ(got.groups, want.groups);
    ASSERT_EQ(got.nodes.size(), want.nodes.size());
    for (size_t i = 0; i < want.nodes.size(); ++i)
        EXPECT_TRUE(got.nodes[i] == want.nodes[i]) << "node " << want.nodes[i].id;
}

TEST_F(chakra_et, traceset_round_trip_is_exact)
{
    traceset ts;
    ts.prefix = file("model");
    for (uint32_t r = 0; r < 3; ++r) {
        ts.ranks.push_back(sample_rank(r));
        ts.ranks.back().file = ts.prefix + "." + std::to_string(r) + ".et";
    }
    ts.ranks[2].groups.clear();  // a rank without groups writes no pg_config
    ts.ranks[2].nodes.clear();   // nor nodes
    write_traceset(ts.prefix, ts);
    write_bytes(file("model.x.et"), "not a rank file");  // ignored: not <prefix>.<rank>.et
    write_bytes(file("modelling.0.et"), "");             // ignored: another prefix

    traceset got = read_traceset(ts.prefix);
    EXPECT_EQ(got.prefix, ts.prefix);
    ASSERT_EQ(got.ranks.size(), 3u);
    for (uint32_t r = 0; r < 3; ++r) expect_same(got.ranks[r], ts.ranks[r]);

    // The same file, written again from what was read, is the same bytes.
    write_rank_trace(file("again.et"), got.ranks[0]);
    EXPECT_EQ(read_bytes(file("again.et")), read_bytes(ts.ranks[0].file));
}

TEST_F(chakra_et, writer_uses_the_members_chakra_reads)
{
    rank_trace t = sample_rank(1);
    t.version.clear();  // the default version
    write_rank_trace(file("w.et"), t);
    const std::string bytes = read_bytes(file("w.et"));
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                              int(bytes.size()));
    auto next = [&](google::protobuf::Message& m) {
        uint64_t size = 0;
        ASSERT_TRUE(in.ReadVarint64(&size));
        std::string b;
        ASSERT_TRUE(in.ReadString(&b, int(size)));
        ASSERT_TRUE(m.ParseFromString(b));
    };
    pb::GlobalMetadata meta;
    next(meta);
    EXPECT_EQ(meta.version(), "0.0.4");
    ASSERT_EQ(meta.attr_size(), 1);
    EXPECT_EQ(meta.attr(0).name(), "pg_config");
    EXPECT_EQ(meta.attr(0).string_val(), R"([{"pg_name":"0","ranks":[0,1,2],"group_size":3},)"
                                         R"({"pg_name":"tp","ranks":[2,0],"group_size":2},)"
                                         R"({"pg_name":"solo","ranks":[1],"group_size":1}])");
    // The member of each attribute (of the COMM_SEND_NODE, sample_rank's ninth node, apart).
    std::map<std::string, pb::AttributeProto::ValueCase> kinds;
    for (size_t i = 0; i < t.nodes.size(); ++i) {
        pb::Node n;
        next(n);
        for (const auto& a : n.attr()) kinds[a.name() + (i == 8 ? "@send" : "")] = a.value_case();
    }
    EXPECT_TRUE(in.ExpectAtEnd());
    using A = pb::AttributeProto;
    EXPECT_EQ(kinds["comm_type"], A::kInt64Val);
    EXPECT_EQ(kinds["comm_size"], A::kInt64Val);
    EXPECT_EQ(kinds["comm_size@send"], A::kUint64Val);  // above 2^63-1
    EXPECT_EQ(kinds["comm_src"], A::kInt64Val);         // int64's minimum
    EXPECT_EQ(kinds["comm_src@send"], A::kInt32Val);
    EXPECT_EQ(kinds["comm_dst@send"], A::kInt64Val);  // 2^40
    EXPECT_EQ(kinds["comm_tag@send"], A::kInt32Val);
    EXPECT_EQ(kinds["root"], A::kInt64Val);
    EXPECT_EQ(kinds["pg_name"], A::kStringVal);
    EXPECT_EQ(kinds["is_cpu_op"], A::kBoolVal);
}

TEST_F(chakra_et, a_group_of_all_ranks_is_filled_in_by_the_traceset)
{
    traceset ts;
    for (uint32_t r = 0; r < 4; ++r) {
        rank_trace t;
        t.rank = r;
        t.groups = {{"world", {}}, {"pair", {r ^ 1u, r}}};
        ts.ranks.push_back(t);
    }
    write_traceset(file("all"), ts);
    const rank_trace one = read_rank_trace(file("all.2.et"), 2);
    EXPECT_EQ(one.groups[0], (process_group{"world", {}}));
    EXPECT_EQ(one.groups[1], (process_group{"pair", {3, 2}}));
    const traceset got = read_traceset(file("all"));
    for (const auto& t : got.ranks) {
        EXPECT_EQ(t.groups[0], (process_group{"world", {0, 1, 2, 3}}));
        EXPECT_EQ(t.groups[1], (process_group{"pair", {t.rank ^ 1u, t.rank}}));
    }
}

// ---- attributes in any integer member

TEST_F(chakra_et, integer_attributes_are_read_from_every_integer_member)
{
    using A = pb::AttributeProto;
    struct member
    {
        const char* name;
        bool is_signed;
        std::function<void(A*, int64_t)> set;
    };
    const std::vector<member> members = {
        {"int32", true, [](A* a, int64_t v) { a->set_int32_val(int32_t(v)); }},
        {"int64", true, [](A* a, int64_t v) { a->set_int64_val(v); }},
        {"uint32", false, [](A* a, int64_t v) { a->set_uint32_val(uint32_t(v)); }},
        {"uint64", false, [](A* a, int64_t v) { a->set_uint64_val(uint64_t(v)); }},
        {"sint32", true, [](A* a, int64_t v) { a->set_sint32_val(int32_t(v)); }},
        {"sint64", true, [](A* a, int64_t v) { a->set_sint64_val(v); }},
        {"fixed32", false, [](A* a, int64_t v) { a->set_fixed32_val(uint32_t(v)); }},
        {"fixed64", false, [](A* a, int64_t v) { a->set_fixed64_val(uint64_t(v)); }},
        {"sfixed32", true, [](A* a, int64_t v) { a->set_sfixed32_val(int32_t(v)); }},
        {"sfixed64", true, [](A* a, int64_t v) { a->set_sfixed64_val(v); }},
    };
    for (const auto& m : members) {
        SCOPED_TRACE(m.name);
        pb::Node n = pb_node(3, pb::COMM_COLL_NODE);
        m.set(attr(n, "comm_type"), 6);
        m.set(attr(n, "comm_size"), 1 << 20);
        m.set(attr(n, "comm_src"), 5);
        m.set(attr(n, "comm_dst"), 6);
        m.set(attr(n, "comm_tag"), m.is_signed ? -7 : 7);
        m.set(attr(n, "root"), 2);
        m.set(attr(n, "is_cpu_op"), 1);
        m.set(attr(n, "pg_name"), 12);  // an integer pg_name is its decimal text
        const std::string path = file(std::string(m.name) + ".et");
        write_messages(path, metadata(), {n});
        const node got = read_rank_trace(path, 0).nodes.at(0);
        EXPECT_EQ(got.comm_type, 6);
        EXPECT_EQ(got.comm_size, uint64_t(1) << 20);
        EXPECT_EQ(got.comm_src, 5);
        EXPECT_EQ(got.comm_dst, 6);
        EXPECT_EQ(got.comm_tag, m.is_signed ? -7 : 7);
        EXPECT_EQ(got.root, 2);
        EXPECT_TRUE(got.is_cpu_op);
        EXPECT_EQ(got.pg_name, "12");
    }
}

TEST_F(chakra_et, bools_absent_attributes_and_other_attributes)
{
    pb::Node a = pb_node(1, pb::COMP_NODE);
    attr(a, "is_cpu_op")->set_bool_val(true);
    attr(a, "rf_id")->set_string_val("not read");  // attributes uetsim does not use are ignored
    a.mutable_inputs()->set_values("[1, 2]");
    pb::Node b = pb_node(2, pb::COMM_COLL_NODE);
    attr(b, "is_cpu_op")->set_int32_val(0);
    attr(b, "comm_size")->set_int64_val(64);  // no comm_type: trace preparation's to judge
    write_messages(file("b.et"), metadata(), {a, b});
    const rank_trace t = read_rank_trace(file("b.et"), 7);
    EXPECT_EQ(t.rank, 7u);
    EXPECT_EQ(t.file, file("b.et"));
    EXPECT_TRUE(t.nodes[0].is_cpu_op);
    EXPECT_FALSE(t.nodes[0].comm_size.has_value());
    EXPECT_FALSE(t.nodes[1].is_cpu_op);
    EXPECT_FALSE(t.nodes[1].comm_type.has_value());
    EXPECT_EQ(t.nodes[1].comm_size, 64u);
    EXPECT_FALSE(t.nodes[1].root.has_value());
    EXPECT_FALSE(t.nodes[1].pg_name.has_value());
}

// ---- what the reader refuses

void expect_contains(const std::string& message, const std::vector<std::string>& parts)
{
    for (const auto& p : parts) EXPECT_NE(message.find(p), std::string::npos) << message;
}

TEST_F(chakra_et, node_errors_name_the_file_the_node_and_the_reason)
{
    const std::string f = file("bad.et");
    pb::Node n = pb_node(42, pb::NodeType(42));
    expect_contains(node_error(f, {n}), {f + ": node 42: ", "unknown node type 42"});
    n = pb_node(8, pb::NodeType(8));
    expect_contains(node_error(f, {n}), {"node 8: ", "unknown node type 8 (STORAGE_NODE"});

    pb::Node twice = pb_node(1, pb::COMM_SEND_NODE);
    expect_contains(node_error(f, {twice}), {f + ": node 1: ", "node id used twice"});

    n = pb_node(4, pb::COMM_COLL_NODE);
    add_int64(n, "comm_type", 12);
    expect_contains(node_error(f, {n}), {f + ": node 4: ", "unknown collective comm_type 12"});
    n = pb_node(4, pb::COMM_COLL_NODE);
    add_int64(n, "comm_type", -1);
    expect_contains(node_error(f, {n}), {"node 4: ", "unknown collective comm_type -1"});

    n = pb_node(5, pb::COMM_COLL_NODE);
    add_int64(n, "comm_size", -5);
    expect_contains(node_error(f, {n}), {f + ": node 5: ", "negative comm_size -5"});
    n = pb_node(5, pb::COMM_SEND_NODE);
    attr(n, "comm_size")->set_sint32_val(-1);
    expect_contains(node_error(f, {n}), {"node 5: ", "negative comm_size -1"});

    n = pb_node(6, pb::COMM_SEND_NODE);
    attr(n, "comm_size")->set_string_val("64");
    expect_contains(node_error(f, {n}),
                    {"node 6: ", "attribute comm_size has a string_val, expected an integer"});
    n = pb_node(6, pb::COMM_SEND_NODE);
    attr(n, "comm_src");  // no value at all
    expect_contains(node_error(f, {n}), {"node 6: ", "comm_src has no value"});
    n = pb_node(6, pb::COMM_SEND_NODE);
    attr(n, "comm_dst")->set_uint64_val(uint64_t(1) << 63);
    expect_contains(node_error(f, {n}),
                    {"node 6: ", "comm_dst 9223372036854775808 is out of range"});
    n = pb_node(6, pb::COMM_SEND_NODE);
    attr(n, "pg_name")->set_double_val(1.5);
    expect_contains(node_error(f, {n}),
                    {"node 6: ", "pg_name has a double_val, expected a string"});
    n = pb_node(6, pb::COMP_NODE);
    attr(n, "is_cpu_op")->set_string_val("yes");
    expect_contains(node_error(f, {n}),
                    {"node 6: ", "is_cpu_op has a string_val, expected a bool"});
    n = pb_node(9, pb::COMM_SEND_NODE);
    add_int64(n, "comm_tag", 1);
    add_int64(n, "comm_tag", 2);
    expect_contains(node_error(f, {n}), {f + ": node 9: ", "attribute comm_tag is given twice"});
}

TEST_F(chakra_et, truncated_files_name_where_they_end)
{
    traceset ts;
    ts.ranks.push_back(sample_rank(0));
    write_traceset(file("t"), ts);
    const std::string whole = read_bytes(file("t.0.et"));
    const auto& nodes = ts.ranks[0].nodes;
    const std::string f = file("cut.et");

    // The last node's bytes cut in the middle.
    write_rank_trace(file("short.et"), [&] {
        rank_trace t = ts.ranks[0];
        t.nodes.pop_back();
        return t;
    }());
    const size_t before_last = read_bytes(file("short.et")).size();
    write_bytes(f, whole.substr(0, before_last + (whole.size() - before_last) / 2));
    expect_contains(rank_error(f),
                    {f + ": ", "truncated",
                     "the node after node " + std::to_string(nodes[nodes.size() - 2].id)});

    // The next length prefix cut short (a varint whose last byte says "more follows").
    write_bytes(f, whole + "\x80");
    expect_contains(rank_error(f),
                    {f + ": ", "truncated: the length prefix of the node after node " +
                                   std::to_string(nodes.back().id)});

    // Cut inside the GlobalMetadata, and nothing at all.
    write_bytes(f, whole.substr(0, 5));
    expect_contains(rank_error(f), {f + ": ", "truncated", "the GlobalMetadata"});
    write_bytes(f, "");
    expect_contains(rank_error(f), {f + ": ", "empty file"});
    expect_contains(rank_error(file("absent.et")), {file("absent.et") + ": ", "cannot open"});
}

TEST_F(chakra_et, garbage_is_malformed_or_truncated)
{
    const std::string f = file("garbage.et");
    // A sound length prefix over bytes that are not a message (0xff starts an invalid tag).
    std::string s = framed(metadata());
    s += framed(pb_node(3, pb::COMP_NODE));
    s += varint(6) + std::string(6, '\xff');
    write_bytes(f, s);
    expect_contains(rank_error(f),
                    {f + ": ", "malformed protobuf: the node after node 3", "does not parse"});

    // A known field with the wrong wire type: node id (field 1) as a length-delimited field.
    s = framed(metadata()) + framed(pb_node(3, pb::COMP_NODE));
    s += varint(4) + std::string("\x0a\x02hi", 4);
    write_bytes(f, s);
    expect_contains(rank_error(f),
                    {f + ": ", "the node after node 3", "field 1 with the wrong wire type"});

    // A string field that is not UTF-8 (proto3 refuses it): node 4's name is the byte 0xff.
    s = framed(metadata()) + framed(pb_node(3, pb::COMP_NODE));
    s += varint(5) + std::string("\x08\x04\x12\x01\xff", 5);
    write_bytes(f, s);
    expect_contains(rank_error(f), {f + ": ", "the node after node 3", "does not parse"});
#if GOOGLE_PROTOBUF_VERSION < 4022000
    expect_contains(rank_error(f), {"invalid UTF-8"});  // protobuf's reason, from its log
#endif

    // A text file, and random bytes: refused, whatever they happen to look like.
    write_bytes(f, "this is not a Chakra trace\n");
    expect_contains(rank_error(f), {f + ": ", "truncated (or not a Chakra trace)"});
    uint32_t x = 2463534242u;
    for (int round = 0; round < 20; ++round) {
        std::string r;
        for (int i = 0; i < 200; ++i) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            r += char(x & 0xff);
        }
        write_bytes(f, r);
        expect_contains(rank_error(f), {f + ": "});
    }
}

TEST_F(chakra_et, traceset_errors_name_the_missing_file_or_the_prefix)
{
    traceset ts;
    for (uint32_t r = 0; r < 4; ++r) ts.ranks.push_back(sample_rank(r));
    write_traceset(file("m"), ts);
    std::filesystem::remove(file("m.2.et"));
    expect_contains(error_of([&] { read_traceset(file("m")); }),
                    {file("m.2.et") + ": ", "missing rank file", "rank 2"});

    std::filesystem::remove(file("m.0.et"));
    expect_contains(error_of([&] { read_traceset(file("m")); }), {file("m.0.et") + ": "});

    expect_contains(error_of([&] { read_traceset(file("none")); }),
                    {file("none") + ": ", "no trace files " + file("none") + ".<rank>.et"});
    expect_contains(error_of([&] { read_traceset(file("nofolder/x")); }),
                    {file("nofolder/x") + ": ", "no trace files"});

    write_bytes(file("z.0.et"), "");
    write_bytes(file("z.01.et"), "");
    expect_contains(error_of([&] { read_traceset(file("z")); }),
                    {file("z.01.et") + ": ", "leading zero"});

    // An error inside one rank's file names that file.
    write_traceset(file("e"), ts);
    write_bytes(file("e.3.et"), "");
    expect_contains(error_of([&] { read_traceset(file("e")); }), {file("e.3.et") + ": empty file"});
}

// ---- process groups as producers declare them

// The "## process_group:init ##" node of Chakra's PyTorch converter: inputs.values is Python's
// str() of the record_function's argument list, whose one argument is
// json.dumps(pg_config_info) (this text is what Python prints for it).
const char* k_pytorch_pg_inputs =
    R"(['[{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", )"
    R"("ranks": [], "group_size": 4, "group_count": 3}, {"pg_name": "1", )"
    R"("pg_desc": "tp\'s group", "backend_config": "cuda:nccl", "ranks": [3, 1], )"
    R"("group_size": 2, "group_count": 3}]'])";

pb::Node pytorch_pg_node(uint64_t id, pb::NodeType type, const std::string& values)
{
    pb::Node n = pb_node(id, type, "## process_group:init ##");
    n.add_ctrl_deps(1);
    n.mutable_inputs()->set_values(values);
    n.mutable_inputs()->set_shapes("[[]]");
    n.mutable_inputs()->set_types("['String']");
    n.mutable_outputs()->set_values("[]");
    // The attributes the converter puts on every node.
    add_int64(n, "rf_id", 0);
    add_int64(n, "fw_parent", 0);
    add_int64(n, "seq_id", -1);
    add_int64(n, "scope", 7);
    add_int64(n, "tid", 1);
    add_int64(n, "fw_tid", 0);
    attr(n, "op_schema")->set_string_val("");
    attr(n, "is_cpu_op")->set_bool_val(true);
    return n;
}

TEST_F(chakra_et, pg_config_as_the_pytorch_converter_writes_it)
{
    // GlobalMetadata as the converter writes it: no version, these attributes.
    pb::GlobalMetadata meta;
    for (const char* name : {"schema", "time"}) {
        auto* a = meta.add_attr();
        a->set_name(name);
        a->set_string_val("1.1.0-chakra.0.0.4");
    }
    for (const char* name : {"pid", "start_ts", "finish_ts"}) {
        auto* a = meta.add_attr();
        a->set_name(name);
        a->set_uint64_val(12345);
    }
    pb::Node root = pb_node(1, pb::COMP_NODE, "[pytorch|profiler|execution_trace|thread]");
    pb::Node coll = pb_node(3, pb::COMM_COLL_NODE, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    add_int64(coll, "comm_type", 0);
    add_int64(coll, "comm_size", 4096);
    attr(coll, "pg_name")->set_string_val("1");
    // One converter version makes the node a METADATA_NODE, another a COMP_NODE.
    for (pb::NodeType type : {pb::METADATA_NODE, pb::COMP_NODE}) {
        SCOPED_TRACE(type);
        for (int r = 0; r < 4; ++r)
            write_messages(file("pt." + std::to_string(r) + ".et"), meta,
                           {root, pytorch_pg_node(2, type, k_pytorch_pg_inputs), coll});
        const traceset ts = read_traceset(file("pt"));
        ASSERT_EQ(ts.ranks.size(), 4u);
        for (const auto& t : ts.ranks) {
            EXPECT_EQ(t.version, "");
            // "ranks": [] with "group_size": 4 is ranks 0..3.
            EXPECT_EQ(t.groups, (std::vector<process_group>{{"0", {0, 1, 2, 3}}, {"1", {3, 1}}}));
            ASSERT_EQ(t.nodes.size(), 3u);  // the declaring node stays a node of the trace
            EXPECT_EQ(t.nodes[1].type, node_type(type));
            EXPECT_TRUE(t.nodes[1].is_cpu_op);
            EXPECT_EQ(t.nodes[1].ctrl_deps, std::vector<uint64_t>{1});
            EXPECT_EQ(t.nodes[2].pg_name, "1");
        }
    }

    // Older PyTorch: no group_size, and [] for the group of all ranks.
    const std::string older =
        R"(['[{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", )"
        R"("ranks": []}, {"pg_name": "7", "pg_desc": "undefined", "backend_config": )"
        R"("cuda:nccl", "ranks": [1, 0]}]'])";
    for (int r = 0; r < 3; ++r)
        write_messages(file("old." + std::to_string(r) + ".et"), meta,
                       {pytorch_pg_node(2, pb::METADATA_NODE, older)});
    EXPECT_EQ(read_rank_trace(file("old.1.et"), 1).groups,
              (std::vector<process_group>{{"0", {}}, {"7", {1, 0}}}));
    EXPECT_EQ(read_traceset(file("old")).ranks[1].groups,
              (std::vector<process_group>{{"0", {0, 1, 2}}, {"7", {1, 0}}}));
}

TEST_F(chakra_et, the_other_process_group_declarations)
{
    // A pg_config attribute on GlobalMetadata (what the writer writes), and on a node of any
    // name: a dict of groups whose keys name the groups that have no pg_name.
    pb::GlobalMetadata meta = metadata();
    auto* a = meta.add_attr();
    a->set_name("pg_config");
    a->set_string_val(R"([{"pg_name": "g", "ranks": [2, 1, 0]}])");
    pb::Node decl = pb_node(2, pb::METADATA_NODE, "groups");
    attr(decl, "pg_config")
        ->set_bytes_val(R"({"0": {"pg_name": "0", "pg_desc": "default_pg", "ranks": [0, 1, 2, 3]},)"
                        R"( "5": {"ranks": [3, 2], "pg_size": 2}, "g": {"ranks": [2, 1, 0]}})");
    // inputs.values as JSON: a list of JSON strings, and a list of group lists.
    pb::Node json_strings = pb_node(3, pb::METADATA_NODE, "## process_group:init ##");
    json_strings.mutable_inputs()->set_values(R"(["[{\"pg_name\": 9, \"ranks\": [1]}]"])");
    pb::Node json_lists = pb_node(4, pb::COMP_NODE, "## process_group:init ##");
    json_lists.mutable_inputs()->set_values(R"([[{"pg_name": "b", "ranks": [0]}]])");
    // A single group object; and nothing declared by an empty argument list.
    pb::Node single = pb_node(5, pb::COMP_NODE, "## process_group:init with ranks: [3] ##");
    single.mutable_inputs()->set_values(R"({"pg_name": "s", "ranks": [3]})");
    pb::Node empty = pb_node(6, pb::COMP_NODE, "## process_group:init ##");
    empty.mutable_inputs()->set_values("[]");
    write_messages(file("d.et"), meta, {decl, json_strings, json_lists, single, empty});
    EXPECT_EQ(read_rank_trace(file("d.et"), 0).groups,
              (std::vector<process_group>{{"g", {2, 1, 0}},
                                          {"0", {0, 1, 2, 3}},
                                          {"5", {3, 2}},
                                          {"9", {1}},
                                          {"b", {0}},
                                          {"s", {3}}}));
}

TEST_F(chakra_et, bad_process_group_declarations_are_errors)
{
    const std::string f = file("pg.et");
    auto declared = [&](const std::string& pg_config) {
        pb::Node n = pb_node(2, pb::METADATA_NODE, "## process_group:init ##");
        attr(n, "pg_config")->set_string_val(pg_config);
        return node_error(f, {n});
    };
    expect_contains(declared("{not json"), {f + ": node 2: ", "attribute pg_config: not JSON"});
    expect_contains(declared(R"([{"pg_name": "0", "ranks": [0, -1]}])"),
                    {"node 2: ", "group '0': rank is -1, expected an integer >= 0"});
    expect_contains(declared(R"([{"pg_name": "0", "ranks": [1, 1]}])"),
                    {"node 2: ", "rank 1 is listed twice"});
    expect_contains(declared(R"([{"ranks": [1]}])"), {"node 2: ", "a group has no pg_name"});
    expect_contains(declared(R"([{"pg_name": "0", "ranks": [0, 1], "group_size": 3}])"),
                    {"node 2: ", "group_size 3 but 2 ranks"});
    expect_contains(
        declared(R"([{"pg_name": "0", "ranks": [0, 1]}, {"pg_name": "0", "ranks": [1, 0]}])"),
        {"node 2: ", "process group '0' is declared twice with different ranks"});
    expect_contains(declared("42"), {"node 2: ", "not a list or dict of groups"});

    pb::Node n = pytorch_pg_node(2, pb::METADATA_NODE, "['[{\"pg_name\": \"0\"");  // cut short
    expect_contains(node_error(f, {n}),
                    {f + ": node 2: ", "process-group declaration: inputs.values is neither JSON"});

    pb::GlobalMetadata meta = metadata();
    auto* a = meta.add_attr();
    a->set_name("pg_config");
    a->set_int64_val(3);
    write_messages(f, meta, {});
    expect_contains(
        rank_error(f),
        {f + ": GlobalMetadata attribute pg_config: has an int64_val, expected a string"});
}

}  // namespace
}  // namespace uetsim::chakra
