"""tools/reproduce.py: the seeds' tables from a fake results database (means,
class groups, n/a handling), the derived sweep spec (caps, workload subset,
left-out schemes), the seed specs themselves, and the option probe. Nothing
here runs a simulation longer than one instruction."""
import contextlib
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from helpers import TOOLS, WARPSIM

sys.path.insert(0, TOOLS)
import reproduce  # noqa: E402
from warpsim_tools import spec, store  # noqa: E402


def hm(xs):
    return len(xs) / sum(1 / x for x in xs)


def gm(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def run_id(w, c):
    return f"{spec.slug(c)}/{spec.slug(w.replace('/', '.'))}-paper"


def fake_sweep(d, workloads, configs, ok, failed=(), ignored=(), skipped=None, seed=None, order=None):
    """A sweep folder with only results.db (and reproduce.json): ok maps
    (workload, config) -> (ipc, energy_nJ, insn); failed holds (workload,
    config, status, message); ignored (workload, config) runs whose stderr
    says warpsim ignored an unknown option."""
    st = store.Store(d, create=True)
    plan = {"name": "fake", "baseline": configs[0],
            "configs": [{"name": c, "params": {}} for c in configs],
            "workloads": [{"name": w, "input": "paper", "class": c} for w, c in workloads]}
    st.set_meta("plan", plan)
    st.set_meta("warpsim_version", "warpsim test")
    idx = 0
    for (w, c), (ipc, energy, insn) in ok.items():
        rid = run_id(w, c)
        cls = dict(workloads)[w]
        st.db.execute("INSERT INTO runs(id, idx, workload, input, class, config, status) "
                      "VALUES(?,?,?,?,?,?, 'ok')", (rid, idx, w, "paper", cls, c))
        idx += 1
        st.db.executemany("INSERT INTO stats VALUES(?,?,?)",
                          [(rid, "gpu_ipc", ipc), (rid, "energy_total_nJ", energy), (rid, "gpu_sim_insn", insn)])
        if (w, c) in ignored:
            os.makedirs(os.path.join(d, "runs", rid))
            with open(os.path.join(d, "runs", rid, "stderr.txt"), "w") as f:
                f.write("warpsim: warning: config.txt:2: unknown option -l1d_bypass ignored\n")
    for w, c, status, msg in failed:
        st.db.execute("INSERT INTO runs(id, idx, workload, input, class, config, status, message) "
                      "VALUES(?,?,?,?,?,?,?,?)", (run_id(w, c), idx, w, "paper", dict(workloads)[w], c,
                                                  status, msg))
        idx += 1
    st.close()
    with open(os.path.join(d, reproduce.STATE_FILE), "w") as f:
        json.dump({"seed": seed, "input": "paper", "cap": None, "skipped": skipped or {},
                   "configs": order}, f)


def row(table, prefix):
    for r in table.rows:
        if r[0].strip().startswith(prefix):
            return r
    raise AssertionError(f"no row {prefix!r} in {table.title}: {[r[0] for r in table.rows]}")


def col(table, name):
    return table.head.index(name)


class Seed000Tables(unittest.TestCase):
    W = [("sdk/vectoradd", "streaming L1/L2"), ("rodinia/hotspot", "streaming L1"),
         ("rodinia/srad", "conflict"), ("rodinia/kmeans", "thrashing"),
         ("polybench/syrk", "thrashing+conflict"), ("polybench/gesummv", "thrashing+conflict"),
         ("sdk/mcpi", "friendly")]
    BASE = {"sdk/vectoradd": 300, "rodinia/hotspot": 400, "rodinia/srad": 200, "rodinia/kmeans": 8,
            "polybench/syrk": 2, "polybench/gesummv": 1, "sdk/mcpi": 250}
    DWTPRIC = {"sdk/vectoradd": 1.2, "rodinia/hotspot": 1.5, "rodinia/srad": 2.0, "rodinia/kmeans": 4.0,
               "polybench/syrk": 21.0, "sdk/mcpi": 1.0}  # gesummv's run timed out
    CCWS = {"rodinia/kmeans": 4.0}  # 1.0 elsewhere
    DBSA = {"sdk/vectoradd": 1.5}  # 1.0 elsewhere; hotspot's run ignored an unknown option

    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="warpsim-repro-")
        self.addCleanup(shutil.rmtree, self.d, True)
        ok = {}
        for w, _ in self.W:
            b = self.BASE[w]
            ok[(w, "baseline")] = (b, 1000.0, 1e6)
            ok[(w, "CCWS")] = (b * self.CCWS.get(w, 1.0), 1000.0, 1e6)
            ok[(w, "DBSA")] = (b * self.DBSA.get(w, 1.0), 1000.0, 1e6)
            ok[(w, "PRIC")] = (b, 1000.0, 1e6)
            if w in self.DWTPRIC:
                ok[(w, "DWT-PRIC")] = (b * self.DWTPRIC[w], 900.0, 1e6)
        fake_sweep(self.d, self.W, ["baseline", "DBSA", "PRIC", "DWT-PRIC", "CCWS"], ok,
                   failed=[("polybench/gesummv", "DWT-PRIC", "timeout", "killed after the 14400 s timeout")],
                   ignored=[("rodinia/hotspot", "DBSA")],
                   skipped={"DWT-CS": "-warpsim_throttle dwtcs: unknown policy", "MRPB": "unknown option -l1d_reorder"},
                   seed="seed000", order=["baseline", "DBSA", "DWT-CS", "PRIC", "DWT-PRIC", "CCWS", "MRPB"])
        self.res = reproduce.load_results(self.d)
        self.seed = reproduce.SEEDS["seed000"]

    def test_harmonic_means_by_group(self):
        res, s = self.res, self.seed
        m = reproduce.group_mean(res, res.names(), "DWT-PRIC", "baseline", "hmean")
        self.assertAlmostEqual(m.value, hm(list(self.DWTPRIC.values())))
        self.assertEqual((m.n, m.total), (6, 7))
        self.assertEqual(m.missing[0][0], "polybench/gesummv")
        self.assertIn("timeout", m.missing[0][1])
        st = reproduce.group_mean(res, res.names(s.streaming), "DWT-PRIC", "baseline", "hmean")
        self.assertAlmostEqual(st.value, hm([1.2, 1.5]))
        self.assertFalse(st.partial)
        ct = reproduce.group_mean(res, res.names(s.contention), "DWT-PRIC", "baseline", "hmean")
        self.assertAlmostEqual(ct.value, hm([2.0, 4.0, 21.0]))
        self.assertTrue(ct.partial)

    def test_speedup_table_cells(self):
        t = self.seed.tables(self.res)[0]
        self.assertEqual(t.head, ["group", "DBSA", "DWT-CS", "PRIC", "DWT-PRIC", "CCWS", "MRPB"])
        c = col(t, "DWT-PRIC")
        self.assertEqual(row(t, "all applications (7)")[c], f"{reproduce.fx(hm(list(self.DWTPRIC.values())))}* (1.54x)")
        self.assertEqual(row(t, "streaming (2)")[c], "1.33x (1.2x)")
        self.assertEqual(row(t, "contention (4)")[c], f"{reproduce.fx(hm([2.0, 4.0, 21.0]))}* (2.3x)")
        self.assertEqual(row(t, "SYRK")[c], "21.0x (21x)")
        self.assertEqual(row(t, "GESUMMV")[c], "n/a (16.8x)")
        self.assertEqual(row(t, "friendly (1)")[c], "1.00x (no slowdown)")
        self.assertEqual(row(t, "conflict (1)")[c], "2.00x (-)")
        # A scheme left out of the sweep, and one whose run ignored an option.
        self.assertEqual(row(t, "all applications")[col(t, "DWT-CS")], "n/a (1.1x)")
        self.assertEqual(row(t, "all applications")[col(t, "MRPB")], "n/a (-)")
        self.assertEqual(row(t, "all applications")[col(t, "PRIC")], "1.00x (1.3x)")
        self.assertEqual(row(t, "streaming L1/L2")[col(t, "DBSA")], "1.50x (-)")
        self.assertEqual(row(t, "streaming L1 (")[col(t, "DBSA")], "n/a (-)")
        notes = "\n".join(t.notes)
        self.assertIn("DWT-CS: n/a, not run: -warpsim_throttle dwtcs: unknown policy", notes)
        self.assertIn("ignored unknown option(s) -l1d_bypass", notes)
        self.assertIn("polybench/gesummv", notes)

    def test_versus_prior_work(self):
        t = self.seed.tables(self.res)[1]
        cc, mr = col(t, "vs CCWS"), col(t, "vs MRPB")
        self.assertEqual(row(t, "conflict (1)")[cc], "2.00x (2.1x)")
        self.assertEqual(row(t, "thrashing (1)")[cc], "1.00x (1.02x)")
        self.assertEqual(row(t, "thrashing+conflict (2)")[cc], "21.0x* (18x)")
        self.assertEqual(row(t, "contention (4)")[cc], f"{reproduce.fx(hm([2.0, 1.0, 21.0]))}* (1.7x)")
        self.assertEqual(row(t, "contention (4)")[mr], "n/a (1.5x)")

    def test_per_workload_and_markdown(self):
        t = self.seed.tables(self.res)[2]
        self.assertEqual(t.head[3:], ["DBSA", "DWT-CS", "PRIC", "DWT-PRIC", "CCWS", "MRPB"])
        r = row(t, "rodinia/kmeans")
        self.assertEqual(r[2], "8")
        self.assertEqual(r[t.head.index("DWT-PRIC")], "4.000")
        self.assertEqual(r[t.head.index("MRPB")], "n/a")
        md = t.markdown()
        self.assertIn("| workload | class | baseline IPC | DBSA |", md)
        self.assertIn("|---|---:|", md)

    def test_command_no_run(self):
        out = io.StringIO()
        mdfile = os.path.join(self.d, "out.md")
        with contextlib.redirect_stdout(out):
            self.assertEqual(reproduce.main(["seed000", "--no-run", "--sweep-dir", self.d,
                                             "--markdown", mdfile]), 0)
        text = out.getvalue()
        self.assertIn("Speedup over the baseline", text)
        self.assertIn("2 schemes not run", text)
        with open(mdfile) as f:
            md = f.read()
        self.assertIn("### DWT-PRIC against prior work", md)
        self.assertIn("| SYRK (polybench/syrk) |", md)

    def test_no_database(self):
        with self.assertRaises(SystemExit) as e, contextlib.redirect_stdout(io.StringIO()):
            reproduce.main(["seed000", "--no-run", "--sweep-dir", os.path.join(self.d, "nothing")])
        self.assertIn("no results database", str(e.exception.code))


class Seed003Tables(unittest.TestCase):
    W = [("rodinia/hotspot", "streaming"), ("polybench/conv2d", "conflicting"), ("rodinia/kmeans", "thrashing"),
         ("polybench/atax", "C+T"), ("sdk/montecarlo", "cache-friendly")]
    BXI = [1.0, 2.0, 1.0, 4.0, 1.0]
    BXI_E = [1.0, 0.5, 1.0, 0.25, 1.0]  # energy per instruction / CVI's
    IACM = [1.0, 3.0, 5.0, 32.0, 0.93]
    IACM_E = [1.0, 0.5, 0.4, 0.08, 1.045]
    DWTPRIC = [1.0, 3.0, 5.0, 32.0 / 4.614, 1.0]

    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="warpsim-repro-")
        self.addCleanup(shutil.rmtree, self.d, True)
        ok = {}
        for i, (w, _) in enumerate(self.W):
            ok[(w, "CVI")] = (10.0, 1000.0, 100.0)
            # atax's BXI run executes twice the instructions (a cap overshoot, say):
            # energy is compared per instruction.
            n = 200.0 if w == "polybench/atax" else 100.0
            ok[(w, "BXI")] = (10.0 * self.BXI[i], 10.0 * self.BXI_E[i] * n, n)
            ok[(w, "LL")] = (20.0, 500.0, 100.0)
            ok[(w, "IACM")] = (10.0 * self.IACM[i], 1000.0 * self.IACM_E[i], 100.0)
            ok[(w, "DWT-PRIC")] = (10.0 * self.DWTPRIC[i], 1000.0, 100.0)
        fake_sweep(self.d, self.W, ["CVI", "BXI", "LL", "IACM", "DWT-PRIC"], ok,
                   skipped={"PLI": "-l1d_index pric: unknown"}, seed="seed003",
                   order=["CVI", "BXI", "RXI", "PLI", "PRI", "ADI", "BB", "LL", "RR", "AA", "IACM", "DWT-PRIC"])
        self.res = reproduce.load_results(self.d)
        self.t = reproduce.SEEDS["seed003"].tables(self.res)

    def test_aci_geomeans(self):
        t = self.t[0]
        r = row(t, "BXI")
        self.assertEqual(r[1], f"{100 * (gm(self.BXI) - 1):+.1f}% (+40.2%)")
        self.assertEqual(r[2], f"{100 * (1 - gm(self.BXI_E)):.1f}% (10.7%)")
        self.assertEqual(r[3], "n/a (+57.1%)")  # BB is not in this sweep
        self.assertEqual(row(t, "RXI")[3], "n/a (L1D only)")
        self.assertEqual(row(t, "PLI")[1], "n/a (+47.0%)")
        self.assertEqual(row(t, "PLI")[3], "+100.0% (+69.9%)")  # LL: twice CVI's IPC
        self.assertEqual(row(t, "PLI")[4], "50.0% (32.3%)")
        self.assertIn("PLI: n/a, not run: -l1d_index pric: unknown", "\n".join(t.notes))

    def test_iacm(self):
        t = self.t[1]
        vals = {r[0]: r[1] for r in t.rows}
        self.assertEqual(vals["IACM speedup over CVI, geomean"], reproduce.fx(gm(self.IACM)))
        self.assertEqual(vals["IACM speedup over CVI, max"], "32.0x (polybench/atax)")
        self.assertEqual(vals["IACM energy reduction, geomean"], f"{100 * (1 - gm(self.IACM_E)):.1f}%")
        self.assertEqual(vals["IACM energy reduction, max"], "92.0% (polybench/atax)")
        self.assertEqual(vals["IACM energy efficiency gain (1/normalised energy - 1)"],
                         f"{100 * (1 / gm(self.IACM_E) - 1):+.1f}%")
        self.assertEqual(vals["IACM on OP (sdk/montecarlo)"], "0.93x")
        ratio = [a / b for a, b in zip(self.IACM, self.DWTPRIC)]
        self.assertEqual(vals["IACM over DWT-PRIC, geomean"], f"{100 * (gm(ratio) - 1):+.1f}%")
        self.assertEqual(vals["IACM over DWT-PRIC, max"], "+361.4% (polybench/atax)")
        paper = {r[0]: r[2] for r in t.rows}
        self.assertEqual(paper["IACM speedup over CVI, geomean"], "2.0x (+98.1%)")
        self.assertEqual(paper["IACM over DWT-PRIC, geomean"], "+7.7%")

    def test_per_class(self):
        t = self.t[2]
        self.assertEqual(t.head, ["class", "BXI", "PLI", "LL", "IACM", "DWT-PRIC"])
        self.assertEqual(row(t, "C+T (1)")[1], "4.00x")
        self.assertEqual(row(t, "all (5)")[1], reproduce.fx(gm(self.BXI)))
        self.assertEqual(row(t, "all (5)")[2], "n/a")


class DerivedSpec(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="warpsim-repro-")
        self.addCleanup(shutil.rmtree, self.d, True)
        self.seed = reproduce.SEEDS["seed000"]
        self.raw = spec.load_file(self.seed.spec)

    def load(self, d):
        p = os.path.join(self.d, "spec.json")
        with open(p, "w") as f:
            json.dump(d, f)
        sw = spec.load(p, output=self.d)
        return {(r.workload, r.config.name): r.extra_args for r in sw.runs}, sw

    def last_cap(self, args):
        caps = [int(args[i + 1]) for i, a in enumerate(args) if a == "--max-insn"]
        return caps[-1] if caps else None

    def test_paper_caps_kept_without_cap(self):
        runs, sw = self.load(reproduce.derive_spec(self.raw, TOOLS, "paper", None, {}))
        self.assertEqual(len(sw.workloads), 22)
        self.assertEqual({w[1] for w in sw.workloads}, {"paper"})
        self.assertEqual(self.last_cap(runs[("polybench/syrk", "baseline")]), 100000000)
        self.assertEqual(self.last_cap(runs[("rodinia/streamcluster", "PRIC")]), 300000000)
        self.assertIsNone(self.last_cap(runs[("sdk/vectoradd", "baseline")]))

    def test_cap_lowers_every_cap(self):
        runs, _ = self.load(reproduce.derive_spec(self.raw, TOOLS, "small", 50000000, {}))
        self.assertEqual(self.last_cap(runs[("polybench/syrk", "baseline")]), 50000000)
        self.assertEqual(self.last_cap(runs[("rodinia/streamcluster", "baseline")]), 50000000)
        self.assertEqual(self.last_cap(runs[("sdk/vectoradd", "baseline")]), 50000000)
        runs, _ = self.load(reproduce.derive_spec(self.raw, TOOLS, "small", 200000000, {}))
        self.assertEqual(self.last_cap(runs[("polybench/syrk", "baseline")]), 100000000)
        self.assertEqual(self.last_cap(runs[("rodinia/streamcluster", "baseline")]), 200000000)

    def test_only_and_left_out_configs(self):
        d = reproduce.derive_spec(self.raw, TOOLS, "small", 200000, {"MRPB": "x", "CCWS": "y"},
                                  only=["polybench/syrk", "sdk/vectoradd"])
        runs, sw = self.load(d)
        self.assertEqual([w for w, _, _ in sw.workloads], ["sdk/vectoradd", "polybench/syrk"])
        self.assertEqual([c.name for c in sw.configs], ["baseline", "DBSA", "DWT-CS", "PRIC", "DWT-PRIC"])
        self.assertEqual(self.last_cap(runs[("polybench/syrk", "PRIC")]), 200000)

    def test_set_cap(self):
        self.assertEqual(reproduce.set_cap([], 5), ["--max-insn", "5"])
        self.assertEqual(reproduce.set_cap(["-q", "--max-insn", "9"], 5), ["-q", "--max-insn", "5"])


class Seed001Tables(unittest.TestCase):
    """Best-SWL and statPCAL derived per benchmark; ours (paper) cells."""
    W = [("polybench/atax", "LWS"), ("polybench/syrk", "SWS"), ("rodinia/nn", "CI")]

    def setUp(self):
        self.d = tempfile.mkdtemp(prefix="warpsim-repro-")
        self.addCleanup(shutil.rmtree, self.d, True)
        ipc = {  # per workload: GTO, SWL-2, SWL-4, SWL-6, SWL-12, statPCAL-2, -4, -6, CIAO-C, CCWS
            "polybench/atax": [1, 3, 2, 1.5, 1.2, 4, 3, 2, 5, 2],
            "polybench/syrk": [2, 1, 3, 2.5, 2, 1, 2, 3.2, 4, 2],
            "rodinia/nn": [4, 1, 1, 1, 2, 1, 1, 1, 4, 2],
        }
        cfgs = ["GTO", "SWL-2", "SWL-4", "SWL-6", "SWL-12", "statPCAL-2", "statPCAL-4", "statPCAL-6",
                "CIAO-C", "CCWS"]
        ok = {(w, c): (v[i], 1.0, 100.0) for w, v in ipc.items() for i, c in enumerate(cfgs)}
        fake_sweep(self.d, self.W, cfgs, ok, seed="seed001", order=cfgs)
        self.t = reproduce.SEEDS["seed001"].tables(reproduce.load_results(self.d))

    def test_derived_schemes(self):
        t = self.t[0]
        i = t.head.index("Best-SWL")
        # Best-SWL: atax 3/1, syrk 3/2, nn 4/4 (GTO itself is a candidate)
        self.assertEqual(row(t, "all (3)")[i], f"{reproduce.fx(gm([3, 1.5, 1]))} (1.16x)")
        j = t.head.index("statPCAL")
        # statPCAL by Table II's N_warp: atax 2 -> statPCAL-2, syrk 6 -> statPCAL-6, nn 48 -> GTO
        self.assertEqual(row(t, "all (3)")[j], f"{reproduce.fx(gm([4, 1.6, 1]))} (1.24x)")
        self.assertEqual(row(t, "LWS (1)")[t.head.index("CIAO-C")], "5.00x (-)")

    def test_ratios_and_per_workload(self):
        r = row(self.t[1], "CIAO-C / CCWS, all")
        self.assertEqual(r[1:], [reproduce.fx(gm([2.5, 2, 2])), "1.54x"])
        self.assertEqual(row(self.t[1], "CIAO-T / CCWS")[1], "n/a")
        pw = self.t[3]
        self.assertIn("Best-SWL", pw.head)
        self.assertEqual(row(pw, "polybench/syrk")[pw.head.index("SWL(paper N)")], "1.250")


class SeedSpecs(unittest.TestCase):
    """The example specs hold what reproduce.py's tables expect."""

    def test_specs_match_the_tables(self):
        expect = {"seed000": (22, ["baseline", "DBSA", "DWT-CS", "PRIC", "DWT-PRIC", "CCWS", "MRPB"]),
                  "seed003": (20, ["CVI", "BXI", "RXI", "PLI", "PRI", "ADI", "BB", "LL", "RR", "AA", "IACM",
                                   "DWT-PRIC"]),
                  "seed001": (21, ["GTO", "CCWS", "SWL-2", "SWL-4", "SWL-6", "SWL-12", "statPCAL-2",
                                   "statPCAL-4", "statPCAL-6", "CIAO-T", "CIAO-P", "CIAO-C", "CIAO-C-e1K",
                                   "CIAO-C-e10K", "CIAO-C-e50K", "CIAO-C-h0.5", "CIAO-C-h2", "GTO-cap",
                                   "GTO-8way", "statPCAL-2X", "CIAO-C-2X", "GTO-L1D-4MB"])}
        listed = None
        if os.access(WARPSIM, os.X_OK):
            out = subprocess.run([WARPSIM, "list"], capture_output=True, text=True, timeout=60).stdout
            listed = {f"{p[1]}/{p[0]}" for p in (line.split() for line in out.splitlines()[1:]) if len(p) >= 2}
        for name, (n, configs) in expect.items():
            seed = reproduce.SEEDS[name]
            sw = spec.load(seed.spec)
            self.assertEqual(len(sw.workloads), n, name)
            self.assertEqual([c.name for c in sw.configs], configs, name)
            self.assertEqual(sw.baseline, seed.baseline)
            self.assertEqual(sw.classes(), seed.classes, name)
            if listed is not None:
                self.assertEqual([w for w, _, _ in sw.workloads if w not in listed], [], name)
        s0 = reproduce.SEEDS["seed000"]
        sw = spec.load(s0.spec)
        self.assertEqual(len([w for w, _, c in sw.workloads if c in s0.streaming]), 7)
        self.assertEqual(len([w for w, _, c in sw.workloads if c in s0.contention]), 11)

    def test_workload_args_in_specs(self):
        d = tempfile.mkdtemp(prefix="warpsim-repro-")
        self.addCleanup(shutil.rmtree, d, True)
        p = os.path.join(d, "s.toml")
        with open(p, "w") as f:
            f.write('args = ["-q"]\n[classes]\nx = [{ name = "micro/vectoradd", args = ["--max-insn", "7"] },'
                    ' "micro/matmul"]\n')
        sw = spec.load(p, output=d)
        by = {r.workload: r.extra_args for r in sw.runs}
        self.assertEqual(by["micro/vectoradd"], ["-q", "--max-insn", "7"])
        self.assertEqual(by["micro/matmul"], ["-q"])
        with open(p, "w") as f:
            f.write('workloads = [{ name = "micro/vectoradd", arg = ["-q"] }]\n')
        with self.assertRaises(spec.SpecError):
            spec.load(p, output=d)


@unittest.skipUnless(os.access(WARPSIM, os.X_OK), "no warpsim binary")
class Probe(unittest.TestCase):
    def test_probe_reasons(self):
        tmp = tempfile.mkdtemp(prefix="warpsim-repro-")
        self.addCleanup(shutil.rmtree, tmp, True)
        ok = spec.Config("ok", options={"-warpsim_throttle": "swl:2"})
        self.assertIsNone(reproduce.probe(WARPSIM, ok, tmp))
        self.assertIsNone(reproduce.probe(WARPSIM, spec.Config("base"), tmp))
        why = reproduce.probe(WARPSIM, spec.Config("x", options={"-no_such_option_zz": "1"}), tmp)
        self.assertIn("unknown option -no_such_option_zz", why)
        self.assertNotIn(tmp, why)
        why = reproduce.probe(WARPSIM, spec.Config("y", options={"-warpsim_throttle": "no_such_policy"}), tmp)
        self.assertIn("no_such_policy", why)


if __name__ == "__main__":
    unittest.main()
