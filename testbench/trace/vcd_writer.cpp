#include "testbench/trace/vcd_writer.h"

#include <stdexcept>

namespace uetsim {

namespace {

std::vector<std::string> split_dots(const std::string& s)
{
    std::vector<std::string> out;
    size_t from = 0;
    for (;;) {
        const size_t dot = s.find('.', from);
        out.push_back(s.substr(from, dot - from));
        if (dot == std::string::npos) return out;
        from = dot + 1;
    }
}

}  // namespace

vcd_writer::vcd_writer(const std::string& path) : m_file(std::fopen(path.c_str(), "w"))
{
    if (!m_file) throw std::runtime_error("cannot write the trace file " + path);
}

vcd_writer::~vcd_writer()
{
    if (m_file) std::fclose(m_file);
}

std::string vcd_writer::code(uint32_t id)
{
    std::string c;
    do {
        c.push_back(char(33 + id % 94));
        id /= 94;
    } while (id);
    return c;
}

uint32_t vcd_writer::declare(const std::string& dotted_name, unsigned bits)
{
    std::string scope, leaf;
    split_signal_name(dotted_name, scope, leaf);
    m_vars.push_back({scope.empty() ? std::vector<std::string>{} : split_dots(scope), leaf, bits});
    return uint32_t(m_vars.size() - 1);
}

void vcd_writer::begin()
{
    std::fputs("$version uetsim $end\n$timescale 1ps $end\n", m_file);
    std::vector<std::string> open;
    for (size_t i = 0; i < m_vars.size(); ++i) {
        const var& v = m_vars[i];
        size_t common = 0;
        while (common < open.size() && common < v.scope.size() && open[common] == v.scope[common])
            ++common;
        while (open.size() > common) {
            std::fputs("$upscope $end\n", m_file);
            open.pop_back();
        }
        for (size_t s = common; s < v.scope.size(); ++s) {
            std::fprintf(m_file, "$scope module %s $end\n", v.scope[s].c_str());
            open.push_back(v.scope[s]);
        }
        std::fprintf(m_file, "$var wire %u %s %s $end\n", v.bits, code(uint32_t(i)).c_str(),
                     v.leaf.c_str());
    }
    while (!open.empty()) {
        std::fputs("$upscope $end\n", m_file);
        open.pop_back();
    }
    std::fputs("$enddefinitions $end\n", m_file);
}

void vcd_writer::change(uint64_t time_ps, uint32_t id, uint64_t value)
{
    if (!m_time_written || time_ps != m_time) {
        std::fprintf(m_file, "#%llu\n", static_cast<unsigned long long>(time_ps));
        m_time = time_ps;
        m_time_written = true;
    }
    const unsigned bits = m_vars[id].bits;
    const std::string c = code(id);
    if (bits == 1) {
        std::fprintf(m_file, "%c%s\n", value & 1 ? '1' : '0', c.c_str());
        return;
    }
    char buf[72];
    int n = 0;
    int top = 63;
    while (top > 0 && !((value >> top) & 1)) --top;  // leading zeros are implied
    for (int b = top; b >= 0; --b) buf[n++] = ((value >> b) & 1) ? '1' : '0';
    buf[n] = 0;
    std::fprintf(m_file, "b%s %s\n", buf, c.c_str());
}

void vcd_writer::close(uint64_t end_ps)
{
    if (!m_file) return;
    if (!m_time_written || end_ps > m_time)
        std::fprintf(m_file, "#%llu\n", static_cast<unsigned long long>(end_ps));
    std::fclose(m_file);
    m_file = nullptr;
}

}  // namespace uetsim
