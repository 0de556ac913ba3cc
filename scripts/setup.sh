#!/usr/bin/env bash
# Installs the Debian packages uetsim needs (only those missing) and configures the build.
# Usage: scripts/setup.sh [build-dir] [cmake-args...]
# UETSIM_SETUP=run installs only what building and running uetsim needs (make run); otherwise
# also what the tests, the figures, the waveform screenshots and the fuzzers use.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true

# To configure and build uetsim (the configure step also finds GoogleTest, a few headers).
packages=(build-essential cmake pkg-config libsystemc-dev verilator libgtest-dev libgmock-dev
          libyaml-cpp-dev libcli11-dev libfmt-dev nlohmann-json3-dev libprotobuf-dev protobuf-compiler
          libopenmpi-dev openmpi-bin)
# The tests and tools: captures (tshark), figures (matplotlib, pandas), waveform screenshots
# (gtkwave under Xvfb), make fuzz (clang, libclang-rt-dev for libFuzzer), and the benchmark's
# process wall time and peak RSS (time).
if [ "${UETSIM_SETUP:-}" != run ]; then
  packages+=(tshark python3 python3-matplotlib python3-pandas gtkwave xvfb xdotool clang
             libclang-rt-dev time)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$build/CMakeCache.txt" ] || [ $# -gt 0 ]; then
  cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "$@" >/dev/null
fi
