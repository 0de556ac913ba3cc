// Settings that many instances hold alike, kept once. Every NIC of a fabric has the same
// configuration unless a per-device section says otherwise; on 65,536 hosts a copy in each NIC,
// port, PCIe link and host interface is 117 MB (docs/performance.md, "Memory per host and per
// port"), and one shared copy also stays in cache.
//
// Equal means equal bytes, so T must be trivially copyable. Sharing is a saving, not a promise:
// two equal values whose padding bytes differ (a compiler may copy a small struct member by
// member) are kept twice, which costs memory, never a result. The UET NIC's settings are copied
// whole wherever they are copied (uet_nic_config), and
// scale.a_k24_fat_tree_of_uet_nics_elaborates_within_the_memory_estimate measures the saving
// in a build. A value lives while an instance holds it; the registry keeps weak references only.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <type_traits>
#include <unordered_map>

namespace uetsim {

template <class T>
std::shared_ptr<const T> share_settings(const T& value)
{
    static_assert(std::is_trivially_copyable_v<T>, "settings are compared by their bytes");
    static std::mutex lock;
    static std::unordered_multimap<uint64_t, std::weak_ptr<const T>> kept;

    const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
    uint64_t hash = 14695981039346656037ull;  // FNV-1a
    for (size_t i = 0; i < sizeof(T); ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;

    const std::lock_guard<std::mutex> guard(lock);
    auto [first, last] = kept.equal_range(hash);
    for (auto it = first; it != last;) {
        if (std::shared_ptr<const T> held = it->second.lock()) {
            if (std::memcmp(held.get(), &value, sizeof(T)) == 0) return held;
            ++it;
        } else {
            it = kept.erase(it);
        }
    }
    auto made = std::make_shared<const T>(value);
    kept.emplace(hash, made);
    return made;
}

}  // namespace uetsim
