#include "testbench/trace/fst_writer.h"

#include <stdexcept>

#include "gtkwave/fstapi.h"

namespace uetsim {

fst_writer::fst_writer(const std::string& path) : m_ctx(fstWriterCreate(path.c_str(), 1))
{
    if (!m_ctx) throw std::runtime_error("cannot write the trace file " + path);
    fstWriterSetTimescale(m_ctx, -12);  // 1 ps, the kernel's resolution
    fstWriterSetVersion(m_ctx, "uetsim");
    fstWriterSetPackType(m_ctx, FST_WR_PT_LZ4);
}

fst_writer::~fst_writer()
{
    if (m_ctx) fstWriterClose(m_ctx);
}

uint32_t fst_writer::declare(const std::string& dotted_name, unsigned bits)
{
    var v;
    split_signal_name(dotted_name, v.scope, v.leaf);
    v.bits = bits;
    m_vars.push_back(std::move(v));
    return uint32_t(m_vars.size() - 1);
}

void fst_writer::begin()
{
    std::vector<std::string> open;
    for (const var& v : m_vars) {
        std::vector<std::string> parts;
        size_t from = 0;
        while (!v.scope.empty()) {
            const size_t dot = v.scope.find('.', from);
            parts.push_back(v.scope.substr(from, dot - from));
            if (dot == std::string::npos) break;
            from = dot + 1;
        }
        size_t common = 0;
        while (common < open.size() && common < parts.size() && open[common] == parts[common])
            ++common;
        while (open.size() > common) {
            fstWriterSetUpscope(m_ctx);
            open.pop_back();
        }
        for (size_t s = common; s < parts.size(); ++s) {
            fstWriterSetScope(m_ctx, FST_ST_VCD_MODULE, parts[s].c_str(), nullptr);
            open.push_back(parts[s]);
        }
        m_handles.push_back(
            fstWriterCreateVar(m_ctx, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, v.bits, v.leaf.c_str(), 0));
    }
    while (!open.empty()) {
        fstWriterSetUpscope(m_ctx);
        open.pop_back();
    }
}

void fst_writer::change(uint64_t time_ps, uint32_t id, uint64_t value)
{
    if (!m_time_written || time_ps != m_time) {
        fstWriterEmitTimeChange(m_ctx, time_ps);
        m_time = time_ps;
        m_time_written = true;
    }
    fstWriterEmitValueChange64(m_ctx, m_handles[id], m_vars[id].bits, value);
}

void fst_writer::close(uint64_t end_ps)
{
    if (!m_ctx) return;
    if (!m_time_written || end_ps > m_time) fstWriterEmitTimeChange(m_ctx, end_ps);
    fstWriterClose(m_ctx);
    m_ctx = nullptr;
}

}  // namespace uetsim
