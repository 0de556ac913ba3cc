// Verilated headers first (rtl/verilated_includes.h says why).
#include "Vflow_hash.h"
#include "rtl/flow_hash/flow_hash_block.h"

#include "rtl/flow_hash/flow_hash_rtl.h"

#include <cstdio>
#include <utility>

namespace uetsim {

std::string describe(const flow_hash_request& r)
{
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "method=%u (%s) protocol=%u src_ip=0x%08x dst_ip=0x%08x src_port=%u dst_port=%u "
                  "salt=0x%08x",
                  unsigned(r.method), std::string(to_string(r.method)).c_str(),
                  unsigned(r.key.protocol), r.key.src_ip, r.key.dst_ip, unsigned(r.key.src_port),
                  unsigned(r.key.dst_port), r.salt);
    return buf;
}

std::string describe_hash(const uint16_t& h)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%04x", unsigned(h));
    return buf;
}

std::unique_ptr<rtl_flow_hash_core> make_rtl_flow_hash_core(const std::string& name)
{
    return std::make_unique<flow_hash_block<Vflow_hash>>(name);
}

rtl_flow_hasher::rtl_flow_hasher(const std::string& component, rtl_mode mode,
                                 std::unique_ptr<rtl_flow_hash_core> core)
    : m_mode(mode)
    , m_core(core ? std::move(core) : make_rtl_flow_hash_core(component))
    , m_checker(component, describe, describe_hash)
{
}

uint16_t rtl_flow_hasher::hash16(ecmp_hash_method m, const flow_key& k, uint32_t salt)
{
    const flow_hash_request r{m, k, salt};
    const uint16_t rtl = m_core->hash(r);
    ++m_requests;
    if (m_mode != rtl_mode::both) return rtl;
    const uint16_t model = flow_hash16(m, k, salt);
    m_checker.check(r, model, rtl);
    return model;
}

}  // namespace uetsim
