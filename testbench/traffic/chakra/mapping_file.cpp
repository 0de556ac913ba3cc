#include "testbench/traffic/chakra/mapping_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

namespace uetsim::chakra {

namespace {

constexpr size_t k_max_field_bytes = 127;  // before the line's first comment
constexpr size_t k_max_line_bytes = 4096;
constexpr uint32_t k_refused_server = 4294967295u;
// The upper bounds keep a rate in bit/s and a latency in ps below 2^64.
constexpr double k_min_bandwidth_gbps = 1e-9;
constexpr double k_max_bandwidth_gbps = 1.8446744073709552e10;  // exclusive
constexpr double k_min_latency_ns = 1e-3;
constexpr double k_max_latency_ns = 1.8446744073709552e16;  // exclusive

class line_error
{
public:
    line_error(const std::string& file, size_t line)
        : m_prefix(file + ": line " + std::to_string(line) + ": ")
    {
    }
    [[noreturn]] void operator()(const std::string& reason) const
    {
        throw mapping_error(m_prefix + reason);
    }

private:
    std::string m_prefix;
};

// Fields are separated by any run of spaces and commas; runs at either end separate nothing.
std::vector<std::string_view> split_fields(std::string_view s)
{
    std::vector<std::string_view> fields;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == ',')) ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != ',') ++j;
        if (j > i) fields.push_back(s.substr(i, j - i));
        i = j;
    }
    return fields;
}

std::string quoted(std::string_view s)
{
    return "\"" + std::string(s) + "\"";
}

// A non-negative base-10 integer of 32 bits (leading zeros allowed: it is still base 10).
uint32_t parse_u32(std::string_view s, const char* what, const line_error& fail)
{
    if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        fail(std::string(what) + " " + quoted(s) + " is not a non-negative base-10 integer");
    uint64_t v = 0;
    for (char c : s) {
        v = v * 10 + uint64_t(c - '0');
        if (v > UINT32_MAX)
            fail(std::string(what) + " " + std::string(s) + " does not fit in 32 bits");
    }
    return uint32_t(v);
}

// Decimal notation only: [+-] digits [. digits] [e [+-] digits], or [+-] . digits [...]. This
// refuses hexadecimal, inf and nan before the conversion (which would accept them).
bool is_decimal(std::string_view s)
{
    size_t i = 0;
    auto digits = [&] {
        size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        return i - start;
    };
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t mantissa = digits();
    if (i < s.size() && s[i] == '.') {
        ++i;
        mantissa += digits();
    }
    if (mantissa == 0) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (digits() == 0) return false;
    }
    return i == s.size();
}

// The value of a decimal field; nullopt when it overflows or underflows a double.
std::optional<double> parse_decimal(std::string_view s, const char* what, const line_error& fail)
{
    if (!is_decimal(s)) {
        fail(std::string(what) + " " + quoted(s) +
             " is not a decimal number (hexadecimal and non-finite values are not accepted)");
    }
    std::string_view digits = s[0] == '+' ? s.substr(1) : s;
    double v = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || end != digits.data() + digits.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

double parse_bandwidth(std::string_view s, const line_error& fail)
{
    const char* what = "ScaleUpBandwidthGbps";
    auto v = parse_decimal(s, what, fail);
    if (!v || *v < k_min_bandwidth_gbps || *v >= k_max_bandwidth_gbps) {
        fail(std::string(what) + " " + std::string(s) +
             " must be at least 1e-9 and below 1.8446744073709552e10");
    }
    return *v;
}

double parse_latency(std::string_view s, const char* what, const line_error& fail)
{
    auto v = parse_decimal(s, what, fail);
    if (!v || !(*v == 0 || (*v >= k_min_latency_ns && *v < k_max_latency_ns))) {
        fail(std::string(what) + " " + std::string(s) +
             " must be 0, or at least 1e-3 and below 1.8446744073709552e16");
    }
    return *v;
}

struct placed
{
    mapping_entry entry;
    size_t line;
};

}  // namespace

bool mapping::has_scale_up() const
{
    return std::any_of(by_rank.begin(), by_rank.end(),
                       [](const mapping_entry& e) { return e.group.has_value(); });
}

const scale_up_group_params* mapping::group(uint32_t id) const
{
    auto it = std::lower_bound(groups.begin(), groups.end(), id,
                               [](const scale_up_group_params& g, uint32_t v) { return g.id < v; });
    return it != groups.end() && it->id == id ? &*it : nullptr;
}

mapping parse_mapping(std::string_view text, const std::string& file_name)
{
    std::vector<placed> entries;                                          // in file order
    std::map<uint32_t, size_t> rank_line;                                 // rank -> line
    std::map<uint32_t, std::pair<uint32_t, size_t>> server_use;           // server -> (rank, line)
    std::map<uint32_t, std::pair<scale_up_group_params, size_t>> groups;  // id -> (params, line)
    bool section_two = false;

    size_t line_no = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        const std::string_view line = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++line_no;
        const line_error fail(file_name, line_no);

        // A CR anywhere, comments included: a CRLF file puts one after every comment.
        if (line.find('\r') != std::string_view::npos)
            fail("a carriage return (CR): the file must use Unix (LF) line endings");
        if (line.size() > k_max_line_bytes) {
            fail(std::to_string(line.size()) + " bytes: a line may carry at most 4,096 bytes");
        }
        if (!section_two && !line.empty() && line[0] == '@') {
            if (entries.empty()) {
                fail(
                    "Section II (a line starting with '@') must follow at least one Section I "
                    "entry");
            }
            section_two = true;
            continue;  // the marker line is a comment
        }
        const std::string_view fields_part =
            line.substr(0, line.find_first_of(section_two ? "#@" : "#"));
        if (fields_part.size() > k_max_field_bytes) {
            fail(std::to_string(fields_part.size()) +
                 " bytes before the first comment: a line may carry at most 127");
        }
        if (fields_part.find('\t') != std::string_view::npos)
            fail("a tab: fields are separated by spaces or commas, not tabs");
        const auto f = split_fields(fields_part);
        if (f.empty()) continue;

        if (!section_two) {
            if (f.size() != 2 && f.size() != 4) {
                fail(std::to_string(f.size()) +
                     " fields: a Section I line has exactly 2 or 4 (ChakraLogicalId, serverId "
                     "[, ScaleUpGroupId, ScaleUpSubgroupId])");
            }
            mapping_entry e;
            e.rank = parse_u32(f[0], "ChakraLogicalId", fail);
            e.server = parse_u32(f[1], "serverId", fail);
            if (f.size() == 4) {
                e.group = parse_u32(f[2], "ScaleUpGroupId", fail);
                e.subgroup = parse_u32(f[3], "ScaleUpSubgroupId", fail);
            }
            if (e.server == k_refused_server) fail("serverId 4294967295 is not accepted");
            if (auto it = rank_line.find(e.rank); it != rank_line.end()) {
                fail("ChakraLogicalId " + std::to_string(e.rank) + " is already placed on line " +
                     std::to_string(it->second));
            }
            if (auto it = server_use.find(e.server); it != server_use.end()) {
                fail("serverId " + std::to_string(e.server) + " is already used by rank " +
                     std::to_string(it->second.first) + " on line " +
                     std::to_string(it->second.second));
            }
            rank_line[e.rank] = line_no;
            server_use[e.server] = {e.rank, line_no};
            entries.push_back({e, line_no});
        } else {
            if (f.size() != 4) {
                fail(std::to_string(f.size()) +
                     " fields: a Section II line has exactly 4 (ScaleUpGroupId, "
                     "ScaleUpBandwidthGbps, ScaleUpPerHopSwitchLatencyNs, "
                     "ScaleUpNpuCableLatencyNs)");
            }
            scale_up_group_params g;
            g.id = parse_u32(f[0], "ScaleUpGroupId", fail);
            g.bandwidth_gbps = parse_bandwidth(f[1], fail);
            g.per_hop_switch_latency_ns = parse_latency(f[2], "ScaleUpPerHopSwitchLatencyNs", fail);
            g.npu_cable_latency_ns = parse_latency(f[3], "ScaleUpNpuCableLatencyNs", fail);
            if (auto it = groups.find(g.id); it != groups.end()) {
                fail("ScaleUpGroupId " + std::to_string(g.id) + " is already declared on line " +
                     std::to_string(it->second.second));
            }
            groups[g.id] = {g, line_no};
        }
    }

    // With no duplicates, the ids cover 0 .. n - 1 exactly when none below n is missing.
    const uint32_t n = uint32_t(entries.size());
    uint32_t missing = 0;
    for (auto it = rank_line.begin(); it != rank_line.end() && it->first == missing; ++it)
        ++missing;
    if (missing < n || n == 0) {
        throw mapping_error(file_name + ": rank " + std::to_string(missing) + " is missing" +
                            (n == 0 ? std::string(" (the file has no Section I entry)")
                                    : " (" + std::to_string(n) +
                                          " Section I entries: the ids must cover 0 through " +
                                          std::to_string(n - 1) + ")"));
    }
    for (const placed& p : entries) {
        if (p.entry.group && groups.count(*p.entry.group) == 0) {
            line_error(file_name, p.line)("ScaleUpGroupId " + std::to_string(*p.entry.group) +
                                          " (rank " + std::to_string(p.entry.rank) +
                                          ") has no Section II line");
        }
    }

    mapping m;
    m.by_rank.resize(n);
    for (const placed& p : entries) m.by_rank[p.entry.rank] = p.entry;
    for (const auto& [id, g] : groups) m.groups.push_back(g.first);
    return m;
}

mapping read_mapping_file(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw mapping_error(path + ": cannot be opened");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw mapping_error(path + ": cannot be read");
    return parse_mapping(text.str(), path);
}

void check_mapping(const mapping& m, uint32_t rank_count, uint32_t host_count,
                   const std::string& file_name)
{
    if (m.by_rank.size() != rank_count) {
        throw mapping_error(file_name + ": the file places " + std::to_string(m.by_rank.size()) +
                            " ranks, but the traceset has " + std::to_string(rank_count));
    }
    for (const mapping_entry& e : m.by_rank) {
        if (e.server >= host_count) {
            throw mapping_error(
                file_name + ": serverId " + std::to_string(e.server) + " (rank " +
                std::to_string(e.rank) + ") is not a server of the topology, which has " +
                (host_count == 0 ? std::string("none")
                                 : std::to_string(host_count) + " (serverId 0 through " +
                                       std::to_string(host_count - 1) + ")"));
        }
    }
}

}  // namespace uetsim::chakra
