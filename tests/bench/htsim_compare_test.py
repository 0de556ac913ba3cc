#!/usr/bin/env python3
"""bench/htsim_compare.py against a stand-in htsim_uec.

The stand-in checks what htsim would be given (the topology file, the connection matrix and the
arguments, which it writes back), holds memory and prints htsim's closing `New: ... ACKs:` line
for the packets the matrix needs. uetsim is the real build. The test reads the comparison's
compare.json and results.md and checks each figure against the runs it was made from.

  htsim_compare_test.py UETSIM_BINARY
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "bench", "htsim_compare.py")
UETSIM = None

# A leaf-spine small enough to run in a second: 3 messages, one of them starting late.
SCENARIO = """\
Simulation: {{Name: small, RandomSeed: 7, StopTime: 2ms}}
Topology: {{Kind: {kind}, {shape}, LinkRate: 100Gbps}}
Nic: {{Type: {nic}}}
UetNic: {{PacketSprayingType: {spraying}, AckRequestEveryNthPacket: 2}}
Flows:
  - {{Src: 0, Dst: 4, Bytes: 100000}}
  - {{Src: 1, Dst: 5, Bytes: 8192}}
  - {{Src: 2, Dst: 7, Bytes: 20000, Start: 3us}}
"""

# The stand-in for htsim_uec: echoes what it got and prints its packet counts.
FAKE_HTSIM = r"""#!/usr/bin/env python3
import json, math, sys, time
argv = sys.argv[1:]
opt = {argv[i]: argv[i + 1] for i in range(len(argv) - 1) if argv[i].startswith("-")}
flags = [a for a in argv if a.startswith("-")]
mss = int(opt["-mtu"]) - 64
lines = open(opt["-tm"]).read().splitlines()
packets = sum(math.ceil(int(l.split()[-1]) / mss) for l in lines[2:])
log = {"argv": argv, "flags": flags, "tm": lines, "topo": open(opt["-topo"]).read().splitlines()}
json.dump(log, open(opt["-tm"] + ".seen.json", "w"))
hold = bytearray(48 * 1024 * 1024)  # a peak RSS well above the interpreter's own
for i in range(0, len(hold), 4096):
    hold[i] = 1
time.sleep(0.3)
print("Starting simulation\nDone")
print(f"New: {packets} Rtx: 3 RTS: 0 Bounced: 0 ACKs: {packets // 2} NACKs: 0 Pulls: 0 sleek_pkts: 0")
"""


class HtsimCompare(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="uetsim-htsim-")
        self.dir = self.tmp.name
        self.fake = os.path.join(self.dir, "htsim_uec")
        with open(self.fake, "w") as f:
            f.write(FAKE_HTSIM)
        os.chmod(self.fake, 0o755)

    def tearDown(self):
        self.tmp.cleanup()

    def scenario(self, kind="leaf-spine", shape="Hosts: 8, HostsPerLeaf: 4, Spines: 2", nic="uet",
                 spraying="Recycled Entropy Packet Spraying", name="small"):
        path = os.path.join(self.dir, name + ".yaml")
        with open(path, "w") as f:
            f.write(SCENARIO.format(kind=kind, shape=shape, nic=nic, spraying=spraying))
        return path

    def compare(self, scenario, htsim=None, rounds=2):
        out = os.path.join(self.dir, "out")
        run = subprocess.run([sys.executable, SCRIPT, "--uetsim", UETSIM, "--htsim",
                              htsim or self.fake, "--rounds", str(rounds), "--out", out, scenario],
                             capture_output=True, text=True)
        return run, out

    def test_htsim_gets_the_scenarios_fabric_messages_and_ack_work(self):
        run, out = self.compare(self.scenario())
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(out, "small", "htsim.cm.seen.json")) as f:
            seen = json.load(f)
        self.assertEqual(seen["tm"], ["Nodes 8", "Connections 3",
                                      "0->4 id 1 start 0 size 100000",
                                      "1->5 id 2 start 0 size 8192",
                                      "2->7 id 3 start 3 size 20000"])
        topo = seen["topo"]
        self.assertEqual(topo[:3], ["Nodes 8", "Tiers 2", "Podsize 8"])
        tier0 = topo[topo.index("Tier 0"):topo.index("Tier 1")]
        tier1 = topo[topo.index("Tier 1"):]
        self.assertIn("Radix_Down 4", tier0)  # hosts per leaf
        self.assertIn("Radix_Up 2", tier0)  # spines
        self.assertIn("Radix_Down 2", tier1)  # leaves
        self.assertIn("Downlink_speed_Gbps 100", tier0)
        self.assertIn("Switch_Latency_ns 500", tier0)  # Link.SwitchDelay's default
        opt = dict(zip(seen["argv"], seen["argv"][1:]))
        self.assertEqual(opt["-linkspeed"], "100000")
        self.assertEqual(opt["-mtu"], str(4096 + 64))
        self.assertEqual(opt["-sack_threshold"], str(2 * 4096))  # an ACK per 2 packets
        self.assertEqual(opt["-load_balancing_algo"], "reps")
        self.assertEqual(opt["-sender_cc_algo"], "nscc")
        self.assertEqual(opt["-tiers"], "2")
        self.assertIn("-disable_trim", seen["flags"])  # the switches do not trim

    def test_the_ratios_are_of_each_tools_best_round(self):
        run, out = self.compare(self.scenario(), rounds=3)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(out, "small", "compare.json")) as f:
            r = json.load(f)
        for tool in ("uetsim", "htsim"):
            self.assertEqual(len(r["runs"][tool]), 3)
            best = r["best"][tool]
            self.assertEqual(best["wall_s"], min(x["wall_s"] for x in r["runs"][tool]))
            self.assertEqual(best["rss_bytes"], min(x["rss_bytes"] for x in r["runs"][tool]))
            self.assertAlmostEqual(best["packets_per_wall_s"],
                                   best["data_packets"] / best["wall_s"])
        # htsim's data packets are its New + Rtx: ceil(bytes / 4,096) per message, plus 3.
        self.assertEqual(r["best"]["htsim"]["data_packets"], 25 + 2 + 5 + 3)
        self.assertEqual(r["best"]["uetsim"]["data_packets"], 25 + 2 + 5)
        self.assertGreaterEqual(r["best"]["htsim"]["wall_s"], 0.3)
        self.assertGreater(r["best"]["htsim"]["rss_bytes"], 48 * 1024 * 1024)
        u, h = r["best"]["uetsim"], r["best"]["htsim"]
        self.assertAlmostEqual(r["packet_rate_ratio"],
                               u["packets_per_wall_s"] / h["packets_per_wall_s"])
        self.assertAlmostEqual(r["rss_ratio"], u["rss_bytes"] / h["rss_bytes"])
        with open(os.path.join(out, "results.md")) as f:
            row = f.read().splitlines()[2]
        self.assertIn(f"| {r['packet_rate_ratio']:.2f}x |", row)
        self.assertIn(f"| {r['rss_ratio']:.2f}x |", row)
        self.assertIn(f"{r['packet_rate_ratio']:.2f}x", run.stdout)

    def test_t1_and_t2_are_judged_by_the_issues_targets(self):
        for name, label, met in (
                ("small_t1_x", "T1: >= 1.5x", lambda rate, rss: rate >= 1.5),
                ("small_t2_x", "T2: >= 1.3x, RSS <= htsim's",
                 lambda rate, rss: rate >= 1.3 and rss <= 1.0)):
            run, out = self.compare(self.scenario(name=name), rounds=1)
            self.assertEqual(run.returncode, 0, run.stderr)
            with open(os.path.join(out, name, "compare.json")) as f:
                r = json.load(f)
            verdict = "met" if met(r["packet_rate_ratio"], r["rss_ratio"]) else "not met"
            self.assertIn(f"{label} {verdict}", run.stdout)
            with open(os.path.join(out, "results.md")) as f:
                self.assertTrue(f.read().splitlines()[2].endswith(f"| {label} | {verdict} |"))

    def test_a_fat_tree_is_three_tiers_of_half_k(self):
        run, out = self.compare(self.scenario(kind="fat-tree", shape="K: 4",
                                              spraying="Default Packet Spraying"), rounds=1)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(out, "small", "htsim.cm.seen.json")) as f:
            seen = json.load(f)
        topo = seen["topo"]
        self.assertEqual(topo[:3], ["Nodes 16", "Tiers 3", "Podsize 4"])
        self.assertEqual([l for l in topo if l.startswith("Radix")],
                         ["Radix_Down 2", "Radix_Up 2", "Radix_Down 2", "Radix_Up 2",
                          "Radix_Down 4"])
        opt = dict(zip(seen["argv"], seen["argv"][1:]))
        self.assertEqual(opt["-load_balancing_algo"], "oblivious")
        self.assertEqual(opt["-tiers"], "3")

    def test_what_htsim_cannot_compare_is_refused_naming_the_key(self):
        run, _ = self.compare(self.scenario(nic="roce"), rounds=1)
        self.assertEqual(run.returncode, 2)
        self.assertIn("Nic.Type: 'roce'", run.stderr)
        run, _ = self.compare(self.scenario(), htsim=os.path.join(self.dir, "absent"), rounds=1)
        self.assertEqual(run.returncode, 2)
        self.assertIn("is not an executable file", run.stderr)

    def test_an_htsim_that_fails_fails_the_comparison(self):
        broken = os.path.join(self.dir, "broken")
        with open(broken, "w") as f:
            f.write("#!/bin/sh\necho 'UNKNOWN CC ALGO'\nexit 1\n")
        os.chmod(broken, 0o755)
        run, _ = self.compare(self.scenario(), htsim=broken, rounds=1)
        self.assertEqual(run.returncode, 1)
        self.assertIn("htsim exited with 1", run.stderr)


if __name__ == "__main__":
    UETSIM = sys.argv.pop(1)
    unittest.main()
