// The files a fuzz target hands to a reader that takes a path: one private folder per process
// under TMPDIR (ctest points it into the build folder and clears it before a run: libFuzzer
// ends with _Exit, which skips the removal at exit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace uetsim::fuzz {

inline const std::filesystem::path& fuzz_folder()
{
    static const std::filesystem::path dir = [] {
        std::filesystem::path d =
            std::filesystem::temp_directory_path() / ("uetsim-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(fuzz_folder(), ec);
        });
        return d;
    }();
    return dir;
}

// Writes `size` bytes at `relative` inside the folder and returns the file's path.
inline std::string write_input(const std::string& relative, const uint8_t* data, size_t size)
{
    const std::filesystem::path p = fuzz_folder() / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), std::streamsize(size));
    return p.string();
}

}  // namespace uetsim::fuzz
