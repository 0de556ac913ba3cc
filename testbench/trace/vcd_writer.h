// A Value Change Dump writer (IEEE 1364 ch. 18) for trace_writer: 1 ps timescale, one $scope
// module per dotted name part, binary vectors for multi-bit scalars. Pure: no SystemC.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "testbench/trace/trace_writer.h"

namespace uetsim {

class vcd_writer : public trace_writer
{
public:
    explicit vcd_writer(const std::string& path);
    ~vcd_writer() override;
    vcd_writer(const vcd_writer&) = delete;
    vcd_writer& operator=(const vcd_writer&) = delete;

    uint32_t declare(const std::string& dotted_name, unsigned bits) override;
    void begin() override;
    void change(uint64_t time_ps, uint32_t id, uint64_t value) override;
    void close(uint64_t end_ps) override;

    // The short identifier VCD uses for signal `id` (printable ASCII 33..126, base 94).
    static std::string code(uint32_t id);

private:
    struct var
    {
        std::vector<std::string> scope;
        std::string leaf;
        unsigned bits;
    };
    std::FILE* m_file = nullptr;
    std::vector<var> m_vars;
    uint64_t m_time = 0;
    bool m_time_written = false;
};

}  // namespace uetsim
