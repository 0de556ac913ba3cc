#include "testbench/traffic/chakra/et_reader.h"

#include "testbench/traffic/chakra/process_group_declarations.h"
#include "testbench/traffic/chakra/trace_error.h"

#include "et_def.pb.h"

#include <google/protobuf/stubs/common.h>
#include <google/protobuf/unknown_field_set.h>
// Protobuf before 22 says why a message does not parse (a string that is not UTF-8) in its log.
#if defined(GOOGLE_PROTOBUF_VERSION) && GOOGLE_PROTOBUF_VERSION < 4022000
#include <google/protobuf/stubs/logging.h>
#define UETSIM_PROTOBUF_LOG_HANDLER 1
#endif

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace uetsim::chakra {

namespace {

namespace pb = ChakraProtoMsg;
namespace fs = std::filesystem;

// The length-prefixed messages of one file, read one at a time (traces can be large).
class message_stream
{
public:
    explicit message_stream(const std::string& path) : m_path(path)
    {
        std::error_code ec;
        m_size = fs::file_size(path, ec);
        if (ec) throw trace_error(path, "cannot open: " + ec.message());
        m_in.open(path, std::ios::binary);
        if (!m_in) throw trace_error(path, std::string("cannot open: ") + std::strerror(errno));
    }

    bool at_end() const { return m_offset == m_size; }

    // The next message's bytes; `what` names it in messages ("the node after node 7").
    void next(std::string& bytes, const std::string& what)
    {
        const uint64_t start = m_offset;
        uint64_t length = 0;
        for (int i = 0;; ++i) {
            const int c = m_in.get();
            if (c == std::char_traits<char>::eof())
                throw trace_error(m_path, "truncated: the length prefix of " + what + " (byte " +
                                              std::to_string(start) + ") ends with the file");
            ++m_offset;
            // A varint holds 64 bits in at most 10 groups, the last one a single bit.
            if (i == 9 && (c & 0xfe))
                throw trace_error(m_path, "malformed: the length prefix of " + what + " (byte " +
                                              std::to_string(start) + ") is over 64 bits");
            length |= uint64_t(c & 0x7f) << (7 * i);
            if (!(c & 0x80)) break;
        }
        const uint64_t left = m_size - m_offset;
        if (length > left)
            throw trace_error(m_path, "truncated (or not a Chakra trace): " + what + " (byte " +
                                          std::to_string(start) + ") is " + std::to_string(length) +
                                          " bytes long, " + std::to_string(left) +
                                          " are left in the file");
        if (length > uint64_t(std::numeric_limits<int>::max()))
            throw trace_error(m_path, "malformed: " + what + " (byte " + std::to_string(start) +
                                          ") is over protobuf's 2 GiB message limit");
        bytes.resize(size_t(length));
        m_in.read(bytes.data(), std::streamsize(length));
        if (uint64_t(m_in.gcount()) != length)
            throw trace_error(m_path, "truncated: " + what + " (byte " + std::to_string(start) +
                                          ") could not be read whole");
        m_offset += length;
        m_last_start = start;
    }

    uint64_t last_start() const { return m_last_start; }

private:
    std::string m_path;
    std::ifstream m_in;
    uint64_t m_size = 0;
    uint64_t m_offset = 0;
    uint64_t m_last_start = 0;
};

// While it lives, protobuf's first log message goes to `reason` instead of to stderr: the error
// then says why a message did not parse.
class captured_log
{
public:
#ifdef UETSIM_PROTOBUF_LOG_HANDLER
    explicit captured_log(std::string& reason) : m_old(google::protobuf::SetLogHandler(&capture))
    {
        s_reason = &reason;
    }
    ~captured_log()
    {
        google::protobuf::SetLogHandler(m_old);
        s_reason = nullptr;
    }

private:
    static void capture(google::protobuf::LogLevel, const char*, int, const std::string& message)
    {
        if (s_reason && s_reason->empty()) *s_reason = message.substr(0, message.find(". "));
    }
    static inline std::string* s_reason = nullptr;
    google::protobuf::LogHandler* m_old;
#else
    explicit captured_log(std::string&) {}
#endif
};

// Parses `bytes` as `m`. Protobuf keeps a known field sent with the wrong wire type as an unknown
// field; garbage often looks like that, so it is refused (unknown numbers stay accepted: newer
// schemas add fields).
void parse(google::protobuf::Message& m, const std::string& bytes, int last_known_field,
           const std::string& path, const std::string& what, uint64_t start)
{
    const std::string where =
        what + " (byte " + std::to_string(start) + ", " + std::to_string(bytes.size()) + " bytes)";
    std::string reason;
    bool parsed;
    {
        captured_log log(reason);
        parsed = m.ParseFromString(bytes);
    }
    if (!parsed)
        throw trace_error(path, "malformed protobuf: " + where + " does not parse" +
                                    (reason.empty() ? "" : " (" + reason + ")"));
    const auto& unknown = m.GetReflection()->GetUnknownFields(m);
    for (int i = 0; i < unknown.field_count(); ++i)
        if (unknown.field(i).number() <= last_known_field)
            throw trace_error(path, "malformed protobuf: " + where + " has field " +
                                        std::to_string(unknown.field(i).number()) +
                                        " with the wrong wire type");
}

// ---- attributes

std::string kind_of(const pb::AttributeProto& a)
{
    if (a.value_case() == pb::AttributeProto::VALUE_NOT_SET) return "no value";
    const std::string& member = a.GetDescriptor()->FindFieldByNumber(a.value_case())->name();
    return (member[0] == 'i' ? "an " : "a ") + member;
}

// An integer attribute's value, whichever member holds it.
struct integer
{
    bool negative = false;
    uint64_t magnitude = 0;
};

integer from_signed(int64_t v)
{
    return v < 0 ? integer{true, uint64_t(0) - uint64_t(v)} : integer{false, uint64_t(v)};
}

std::optional<integer> integer_of(const pb::AttributeProto& a)
{
    using A = pb::AttributeProto;
    switch (a.value_case()) {
        case A::kInt32Val:
            return from_signed(a.int32_val());
        case A::kInt64Val:
            return from_signed(a.int64_val());
        case A::kUint32Val:
            return integer{false, a.uint32_val()};
        case A::kUint64Val:
            return integer{false, a.uint64_val()};
        case A::kSint32Val:
            return from_signed(a.sint32_val());
        case A::kSint64Val:
            return from_signed(a.sint64_val());
        case A::kFixed32Val:
            return integer{false, a.fixed32_val()};
        case A::kFixed64Val:
            return integer{false, a.fixed64_val()};
        case A::kSfixed32Val:
            return from_signed(a.sfixed32_val());
        case A::kSfixed64Val:
            return from_signed(a.sfixed64_val());
        default:
            return std::nullopt;
    }
}

std::string to_string(const integer& v)
{
    return (v.negative ? "-" : "") + std::to_string(v.magnitude);
}

// Reads the attributes uetsim uses off one node, naming the node in what it refuses.
class attribute_reader
{
public:
    attribute_reader(const std::string& path, uint64_t id) : m_path(path), m_id(id) {}

    [[noreturn]] void fail(const std::string& what) const { throw trace_error(m_path, m_id, what); }

    // Each attribute read here may be given once.
    void once(const std::string& name)
    {
        if (!m_seen.insert(name).second) fail("attribute " + name + " is given twice");
    }

    integer any_integer(const pb::AttributeProto& a) const
    {
        auto v = integer_of(a);
        if (!v) fail("attribute " + a.name() + " has " + kind_of(a) + ", expected an integer");
        return *v;
    }

    int64_t signed_value(const pb::AttributeProto& a) const
    {
        const integer v = any_integer(a);
        const uint64_t max = uint64_t(std::numeric_limits<int64_t>::max());
        if (v.magnitude > max + (v.negative ? 1 : 0))
            fail("attribute " + a.name() + " " + to_string(v) + " is out of range");
        return v.negative ? int64_t(~v.magnitude + 1) : int64_t(v.magnitude);
    }

    uint64_t size_value(const pb::AttributeProto& a) const
    {
        const integer v = any_integer(a);
        if (v.negative)
            fail("negative " + a.name() + " " + to_string(v) + " (a size is at least 0)");
        return v.magnitude;
    }

    bool flag_value(const pb::AttributeProto& a) const
    {
        if (a.value_case() == pb::AttributeProto::kBoolVal) return a.bool_val();
        auto v = integer_of(a);
        if (!v) fail("attribute " + a.name() + " has " + kind_of(a) + ", expected a bool");
        return v->magnitude != 0;
    }

    std::string text_value(const pb::AttributeProto& a) const
    {
        if (a.value_case() == pb::AttributeProto::kStringVal) return a.string_val();
        if (auto v = integer_of(a)) return to_string(*v);
        fail("attribute " + a.name() + " has " + kind_of(a) + ", expected a string");
    }

private:
    const std::string& m_path;
    uint64_t m_id;
    std::set<std::string> m_seen;
};

// The JSON of a pg_config attribute (string or bytes); nullopt when `a` is something else.
std::optional<std::string> json_text_of(const pb::AttributeProto& a)
{
    if (a.value_case() == pb::AttributeProto::kStringVal) return a.string_val();
    if (a.value_case() == pb::AttributeProto::kBytesVal) return a.bytes_val();
    return std::nullopt;
}

// ---- nodes

std::string upstream_type_name(int t)
{
    // Types of later upstream schemas that uetsim does not model.
    switch (t) {
        case 8:
            return " (STORAGE_NODE, not supported)";
        case 9:
            return " (BATCH_NODE, not supported)";
        case 10:
            return " (CHECKPOINT_NODE, not supported)";
        default:
            return "";
    }
}

node node_of(const pb::Node& m, const std::string& path, group_table& groups)
{
    node n;
    n.id = m.id();
    n.name = m.name();
    attribute_reader r(path, n.id);
    const int type = int(m.type());
    if (type < int(node_type::invalid) || type > int(node_type::comm_coll))
        r.fail("unknown node type " + std::to_string(type) + upstream_type_name(type));
    n.type = node_type(type);
    n.ctrl_deps.assign(m.ctrl_deps().begin(), m.ctrl_deps().end());
    n.data_deps.assign(m.data_deps().begin(), m.data_deps().end());
    n.start_time_micros = m.start_time_micros();
    n.duration_micros = m.duration_micros();

    bool has_pg_config = false;
    for (const auto& a : m.attr()) {
        const std::string& name = a.name();
        if (name == "comm_type") {
            r.once(name);
            const int64_t v = r.signed_value(a);
            if (v < 0 || v >= k_collective_types)
                r.fail("unknown collective comm_type " + std::to_string(v));
            n.comm_type = v;
        } else if (name == "comm_size") {
            r.once(name);
            n.comm_size = r.size_value(a);
        } else if (name == "comm_src") {
            r.once(name);
            n.comm_src = r.signed_value(a);
        } else if (name == "comm_dst") {
            r.once(name);
            n.comm_dst = r.signed_value(a);
        } else if (name == "comm_tag") {
            r.once(name);
            n.comm_tag = r.signed_value(a);
        } else if (name == "root") {
            r.once(name);
            n.root = r.signed_value(a);
        } else if (name == "pg_name") {
            r.once(name);
            n.pg_name = r.text_value(a);
        } else if (name == "algorithm") {
            r.once(name);
            n.algorithm = r.text_value(a);
        } else if (name == "is_cpu_op") {
            r.once(name);
            n.is_cpu_op = r.flag_value(a);
        } else if (name == "pg_config") {
            r.once(name);
            has_pg_config = true;
            auto text = json_text_of(a);
            if (!text) r.fail("attribute pg_config has " + kind_of(a) + ", expected a string");
            std::vector<declared_group> found;
            try {
                collect_groups(*text, found);
            } catch (const bad_declaration& e) {
                r.fail(std::string("attribute pg_config: ") + e.what());
            }
            groups.add(std::move(found), path, n.id);
        }
    }
    if (!has_pg_config && n.name.find("process_group:init") != std::string::npos) {
        std::vector<declared_group> found;
        try {
            collect_groups_from_inputs(m.inputs().values(), found);
        } catch (const bad_declaration& e) {
            r.fail(std::string("process-group declaration: ") + e.what());
        }
        groups.add(std::move(found), path, n.id);
    }
    return n;
}

rank_trace read_one(const std::string& path, uint32_t rank, std::vector<size_t>* world)
{
    rank_trace t;
    t.rank = rank;
    t.file = path;
    message_stream in(path);
    if (in.at_end()) throw trace_error(path, "empty file (no GlobalMetadata)");

    std::string bytes;
    group_table groups;
    in.next(bytes, "the GlobalMetadata");
    pb::GlobalMetadata meta;
    parse(meta, bytes, pb::GlobalMetadata::kAttrFieldNumber, path, "the GlobalMetadata", 0);
    t.version = meta.version();
    for (const auto& a : meta.attr()) {
        if (a.name() != "pg_config") continue;
        const std::string where = "GlobalMetadata attribute pg_config: ";
        auto text = json_text_of(a);
        if (!text) throw trace_error(path, where + "has " + kind_of(a) + ", expected a string");
        std::vector<declared_group> found;
        try {
            collect_groups(*text, found);
        } catch (const bad_declaration& e) {
            throw trace_error(path, where + e.what());
        }
        groups.add(std::move(found), path, std::nullopt);
    }

    std::unordered_set<uint64_t> ids;
    pb::Node m;
    while (!in.at_end()) {
        const std::string what = t.nodes.empty()
                                     ? std::string("the first node")
                                     : "the node after node " + std::to_string(t.nodes.back().id);
        in.next(bytes, what);
        m.Clear();
        parse(m, bytes, pb::Node::kAttrFieldNumber, path, what, in.last_start());
        node n = node_of(m, path, groups);
        if (!ids.insert(n.id).second) throw trace_error(path, n.id, "node id used twice");
        t.nodes.push_back(std::move(n));
    }
    groups.move_to(t, world);
    return t;
}

}  // namespace

rank_trace read_rank_trace(const std::string& path, uint32_t rank)
{
    return read_one(path, rank, nullptr);
}

traceset read_traceset(const std::string& prefix)
{
    const fs::path p(prefix);
    const std::string base = p.filename().string();
    const fs::path folder = p.has_parent_path() ? p.parent_path() : fs::path(".");
    const std::string pattern = "no trace files " + prefix + ".<rank>.et";
    if (base.empty()) throw trace_error(prefix, pattern + " (the prefix names a folder)");

    std::set<uint32_t> ranks;
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    if (ec) throw trace_error(prefix, pattern + " (" + folder.string() + ": " + ec.message() + ")");
    for (const auto& entry : it) {
        const std::string name = entry.path().filename().string();
        const size_t tail = 3;  // ".et"
        if (name.size() <= base.size() + 1 + tail || name.compare(0, base.size(), base) != 0 ||
            name[base.size()] != '.' || name.compare(name.size() - tail, tail, ".et") != 0)
            continue;
        const std::string digits =
            name.substr(base.size() + 1, name.size() - base.size() - 1 - tail);
        if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        if (digits.size() > 1 && digits[0] == '0')
            throw trace_error(prefix + name.substr(base.size()),
                              "a rank file name with a leading zero (rank files are named " +
                                  prefix + ".<rank>.et, rank in plain decimal)");
        if (digits.size() > 10 || std::stoull(digits) > std::numeric_limits<uint32_t>::max())
            throw trace_error(prefix + name.substr(base.size()),
                              "the rank in the file name is too large");
        ranks.insert(uint32_t(std::stoull(digits)));
    }
    if (ranks.empty()) throw trace_error(prefix, pattern);

    traceset ts;
    ts.prefix = prefix;
    const uint64_t count = uint64_t(*ranks.rbegin()) + 1;
    for (uint32_t r = 0; r < count; ++r) {
        const std::string file = prefix + "." + std::to_string(r) + ".et";
        if (!ranks.count(r))
            throw trace_error(file, "missing rank file: " + std::to_string(ranks.size()) +
                                        " of ranks 0.." + std::to_string(count - 1) +
                                        " are present, rank " + std::to_string(r) + " is not");
        std::vector<size_t> world;
        ts.ranks.push_back(read_one(file, r, &world));
        for (size_t g : world) {
            auto& members = ts.ranks.back().groups[g].ranks;
            for (uint64_t m = 0; m < count; ++m) members.push_back(uint32_t(m));
        }
    }
    return ts;
}

}  // namespace uetsim::chakra
