"""The build guards the layering: compiles probe files with the exact commands CMake uses for a
few of the project's own sources (from compile_commands.json) and checks that an include of a
layer above, or of SystemC from a kernel-free library, is refused, while an allowed include
compiles. Run by ctest as layering/includes; exits 1 with the failed expectations listed."""
import json
import os
import re
import subprocess
import sys
import tempfile

build_dir = sys.argv[1]
commands = json.load(open(os.path.join(build_dir, "compile_commands.json")))

# (a source of the target, the include added, whether it must compile)
cases = [
    ("hw/switch/fabric_switch.cpp", '#include "testbench/scenario.h"', False),  # hw -> testbench
    ("hw/nic/uet/uet_nic.cpp", '#include "rtl/verilated_includes.h"', False),  # hw -> rtl
    ("hw/nic/uet/uet_nic.cpp", '#include "tlm/packet.h"', True),  # hw -> tlm
    ("hw/switch/routing_table.cpp", "#include <systemc>", False),  # kernel-free hw
    ("hw/switch/routing_table.cpp", '#include "hw/link/link.h"', False),  # a module, through it
    ("testbench/elab/topology.cpp", '#include "hw/switch/routing_table.h"', True),
    ("testbench/elab/topology.cpp", '#include "hw/link/link.h"', False),  # kernel-free testbench
    ("testbench/elab/fabric.cpp", '#include "sim/units.h"', False),  # testbench -> sim
    ("testbench/elab/fabric.cpp", '#include "rtl/verilated_includes.h"', True),  # testbench -> rtl
    ("tlm/packet.cpp", '#include "hw/common/ring.h"', False),  # tlm -> hw
    ("tests/unit/nscc_test.cpp", '#include "hw/link/link.h"', False),  # unit tests: no kernel
]



def find_entry(source):
    """The compile command of `source` and its path: its own, or, in a unity build
    (UETSIM_UNITY), that of the batch that includes it, whose flags are the library's."""
    for e in commands:
        if e["file"].endswith("/" + source):
            return e, e["file"]
    for e in commands:
        if "/Unity/unity_" not in e["file"] or not os.path.exists(e["file"]):
            continue
        for line in open(e["file"]):
            m = re.match(r'#include "(.*/' + re.escape(source) + ')"', line.strip())
            if m:
                return e, m.group(1)
    return None, None


failures = []
for source, include, allowed in cases:
    entry, path = find_entry(source)
    if entry is None:
        failures.append(f"{source}: not in compile_commands.json")
        continue
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", dir=os.path.dirname(path),
                                     delete=False) as probe:
        probe.write(include + "\n" + open(path).read())
    try:
        cmd = entry["command"].replace(entry["file"], probe.name)
        cmd = re.sub(r" -o \S+", " -o /dev/null", cmd) + " -fsyntax-only"
        ok = subprocess.run(cmd, shell=True, cwd=entry["directory"], capture_output=True).returncode == 0
    finally:
        os.remove(probe.name)
    if ok != allowed:
        failures.append(f"{source} with {include}: {'compiles' if ok else 'is refused'}, "
                        f"expected it to {'compile' if allowed else 'be refused'}")

for f in failures:
    print("layering: " + f)
print(f"{len(cases) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
