#include "tests/support/vcd_reader.h"

#include <map>
#include <sstream>

namespace uetsim::test {

std::vector<vcd::change> vcd::of(const std::string& name) const
{
    std::vector<change> out;
    for (const auto& c : changes)
        if (c.name == name) out.push_back(c);
    return out;
}

uint64_t vcd::at(const std::string& name, uint64_t t) const
{
    uint64_t v = 0;
    for (const auto& c : changes) {
        if (c.t > t) break;
        if (c.name == name) v = c.value;
    }
    return v;
}

vcd parse_vcd(const std::string& text)
{
    vcd v;
    std::map<std::string, std::string> by_code;
    std::vector<std::string> scope;
    std::istringstream in(text);
    std::string tok;
    uint64_t t = 0;
    bool defs = true;
    while (in >> tok) {
        if (defs) {
            if (tok == "$scope") {
                std::string kind, name;
                in >> kind >> name;
                scope.push_back(name);
            } else if (tok == "$upscope") {
                scope.pop_back();
            } else if (tok == "$var") {
                std::string type, width, code, name;
                in >> type >> width >> code >> name;
                std::string full;
                for (const auto& s : scope) full += s + ".";
                by_code[code] = full + name;
                v.names.push_back(full + name);
            } else if (tok == "$enddefinitions") {
                defs = false;
            }
            continue;
        }
        if (tok[0] == '$') continue;  // $dumpvars, $end
        if (tok[0] == '#') {
            t = std::stoull(tok.substr(1));
            v.last_time = t;
        } else if (tok[0] == 'b') {
            std::string code;
            in >> code;
            v.changes.push_back({t, by_code.at(code), std::stoull(tok.substr(1), nullptr, 2)});
        } else if (tok[0] == '0' || tok[0] == '1') {
            v.changes.push_back({t, by_code.at(tok.substr(1)), uint64_t(tok[0] - '0')});
        }
    }
    return v;
}

}  // namespace uetsim::test
