#!/usr/bin/env python3
"""bench/llr_speed.sh (#31's LLR speed budget) against a stand-in uetsim.

The stand-in writes a manifest whose wall time it takes from a list, one per run in the order
the script runs them, and logs the arguments of each run. The test checks that the script runs
bench 04 with LLR off and on, interleaved, and that its best, median and cost figures are those
of the wall times given; and that bad arguments exit 2 naming them.

  llr_speed_test.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.abspath(os.path.join(HERE, "..", "..", "bench", "llr_speed.sh"))

# The stand-in: `uetsim run SCENARIO [--set K=V] --quiet --out DIR`.
FAKE_UETSIM = r"""#!/usr/bin/env python3
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
args = sys.argv[1:]
out = args[args.index("--out") + 1]
with open(os.path.join(here, "walls.json")) as f:
    walls = json.load(f)
log = os.path.join(here, "runs.log")
n = sum(1 for _ in open(log)) if os.path.exists(log) else 0
with open(log, "a") as f:
    f.write(json.dumps(args) + "\n")
os.makedirs(out, exist_ok=True)
llr = "Link.Llr=true" in args
with open(os.path.join(out, "x-manifest.json"), "w") as f:
    json.dump({"wall_time_s": walls[n], "events_executed": 200 if llr else 100}, f)
"""


class LlrSpeed(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="uetsim-llr-speed-")
        self.build = self.tmp.name
        os.makedirs(os.path.join(self.build, "bin"))
        self.fake = os.path.join(self.build, "bin", "uetsim")
        with open(self.fake, "w") as f:
            f.write(FAKE_UETSIM)
        os.chmod(self.fake, 0o755)

    def tearDown(self):
        self.tmp.cleanup()

    def run_script(self, *args):
        env = dict(os.environ, LLR_SPEED_OUT=os.path.join(self.build, "out"))
        return subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, env=env)

    def test_best_median_and_cost_of_interleaved_rounds(self):
        # off, on, off, on, off, on: best 1.0 against 1.25 (+25 %), medians 1.1 and 1.5 (+36.4 %).
        with open(os.path.join(self.build, "bin", "walls.json"), "w") as f:
            json.dump([1.1, 1.5, 1.0, 1.25, 1.2, 1.6], f)
        r = self.run_script(self.build, "3")
        self.assertEqual(r.returncode, 0, r.stderr)
        runs = [json.loads(l) for l in open(os.path.join(self.build, "bin", "runs.log"))]
        self.assertEqual(len(runs), 6)
        for i, a in enumerate(runs):
            self.assertEqual(a[0], "run")
            self.assertTrue(a[1].endswith("bench/scenarios/04_uet_nic_8flows_spray.yaml"), a)
            self.assertEqual("Link.Llr=true" in a, i % 2 == 1, a)
        self.assertIn("3 interleaved rounds", r.stdout)
        self.assertIn("LLR off  best 1.000  median 1.100  events 100", r.stdout)
        self.assertIn("LLR on   best 1.250  median 1.500  events 200", r.stdout)
        self.assertIn("LLR on costs +25.0 % (best against best), +36.4 % (medians): within", r.stdout)

    def test_above_the_budget_is_said_so(self):
        with open(os.path.join(self.build, "bin", "walls.json"), "w") as f:
            json.dump([1.0, 1.31], f)
        r = self.run_script(self.build, "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 interleaved round (", r.stdout)
        self.assertIn("LLR on costs +31.0 %", r.stdout)
        self.assertIn("above #31's +30 % budget", r.stdout)

    def test_bad_arguments_exit_2_naming_them(self):
        r = self.run_script(self.build, "0")
        self.assertEqual(r.returncode, 2)
        self.assertIn("ROUNDS=0", r.stderr)
        missing = os.path.join(self.build, "nothing")
        r = self.run_script(missing)
        self.assertEqual(r.returncode, 2)
        self.assertIn(missing + "/bin/uetsim not found", r.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
