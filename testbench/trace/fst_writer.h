// An FST writer for trace_writer over gtkwave's fstapi, the copy Verilator ships
// (/usr/share/verilator/include/gtkwave/fstapi.c). It is not compiled again here: the rtl
// library's verilated_fst_c.cpp already includes it, so its fstWriter* symbols are linked from
// there (one definition in the binary). Pure: no SystemC.
#pragma once

#include <string>
#include <vector>

#include "testbench/trace/trace_writer.h"

namespace uetsim {

class fst_writer : public trace_writer
{
public:
    explicit fst_writer(const std::string& path);
    ~fst_writer() override;
    fst_writer(const fst_writer&) = delete;
    fst_writer& operator=(const fst_writer&) = delete;

    uint32_t declare(const std::string& dotted_name, unsigned bits) override;
    void begin() override;
    void change(uint64_t time_ps, uint32_t id, uint64_t value) override;
    void close(uint64_t end_ps) override;

private:
    struct var
    {
        std::string scope, leaf;
        unsigned bits;
    };
    void* m_ctx = nullptr;
    std::vector<var> m_vars;
    std::vector<uint32_t> m_handles;  // fstHandle of each id
    uint64_t m_time = 0;
    bool m_time_written = false;
};

}  // namespace uetsim
