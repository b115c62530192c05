"""The command line as a researcher expects it: `--help` on every command,
`--opt=value` beside `--opt value`, usage when a run names nothing to run,
`--max-cycle`, `--dump-ptx` with the names errors use for a program's
embedded PTX, and `make install` into a prefix that then works on its own."""
import json
import os
import re
import shutil
import subprocess

from helpers import BUILT, REPO, WARPSIM, ToolTest

NVCC13 = os.path.join(REPO, "tests", "data", "driver", "nvcc13")
VECADD = os.path.join(NVCC13, "vectoradd_nc")  # PTX not compressed: patchable below
# Stats that differ between two identical runs.
HOST = ("wall_time", "sim_rate")


def kernels(stats_dir):
    with open(os.path.join(stats_dir, "stats.json")) as f:
        ks = json.load(f)
    return [{k: v for k, v in kern.items() if not any(h in k for h in HOST)} for kern in ks]


class HelpTest(ToolTest):
    COMMANDS = ("run", "list", "ptx-check", "options", "stats", "version", "sweep", "query",
                "report", "timeseries")

    def test_every_command_has_help_on_stdout(self):
        for cmd in self.COMMANDS:
            for flag in ("--help", "-h"):
                p = self.warpsim(cmd, flag, check=False)
                self.assertEqual(p.returncode, 0, f"warpsim {cmd} {flag}: {p.stderr}")
                self.assertIn(f"warpsim {cmd}", p.stdout, f"warpsim {cmd} {flag} names no command")
                self.assertIn("usage", p.stdout.lower())
        self.assertEqual(self.warpsim("help", "run").stdout, self.warpsim("run", "--help").stdout)

    def test_main_usage_lists_every_command(self):
        out = self.warpsim("--help").stdout
        for cmd in self.COMMANDS:
            self.assertRegex(out, rf"\n  warpsim {re.escape(cmd)}\b", f"--help does not list {cmd}")
        for opt in ("--max-insn", "--max-cycle", "--dump-ptx", "--output"):
            self.assertIn(opt, out)

    def test_run_without_a_workload_prints_usage_and_exits_2(self):
        for args in ((), ("-q", "--functional")):
            p = self.warpsim("run", *args, check=False)
            self.assertEqual(p.returncode, 2)
            self.assertIn("no workload given", p.stderr)
            self.assertIn("warpsim run [options] WORKLOAD", p.stderr)

    def test_bad_arguments_exit_2(self):
        for args in (("run", "--preset"), ("run", "--bogus", "micro/vectoradd"),
                     ("run", "--max-cycle=lots", "micro/vectoradd"), ("list", "extra")):
            p = self.warpsim(*args, check=False)
            self.assertEqual(p.returncode, 2, args)
            self.assertTrue(p.stderr.strip(), args)


class OptionFormsTest(ToolTest):
    def test_equals_form_reaches_the_configuration(self):
        spaced = self.warpsim("run", "--preset", "gtx480-v4", "--check-config")
        joined = self.warpsim("run", "--preset=gtx480-v4", "--check-config")
        self.assertEqual(spaced.stdout, joined.stdout)
        # the value is used, not dropped: a bad one is refused either way
        for args in (("--preset", "nope"), ("--preset=nope",), ("--set=-gpgpu_scheduler nope",)):
            p = self.warpsim("run", *args, "--check-config", check=False)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn("nope", p.stderr)

    def test_equals_form_gives_the_same_run(self):
        a, b = os.path.join(self.tmp, "a"), os.path.join(self.tmp, "b")
        self.warpsim("run", "-q", "--preset", "gtx480-v4", "--set", "-gpgpu_scheduler lrr",
                     "--max-insn", "20000", "--input", "small", "-o", a, "micro/vectoradd")
        self.warpsim("run", "-q", "--preset=gtx480-v4", "--set=-gpgpu_scheduler lrr",
                     "--max-insn=20000", "--input=small", f"--output={b}", "micro/vectoradd")
        ka, kb = kernels(a), kernels(b)
        self.assertEqual(ka, kb)
        self.assertEqual(ka[0]["warpsim_capped"], 1)  # --max-insn=20000 was applied


class CapTest(ToolTest):
    def test_max_cycle_caps_a_workload(self):
        out = os.path.join(self.tmp, "out")
        p = self.warpsim("run", "-q", "--max-cycle=3000", "-o", out, "micro/vectoradd")
        self.assertIn("cycle cap (3000 cycles) stopped kernel", p.stderr)
        self.assertIn("CAPPED (cycle cap reached", p.stdout)
        k = kernels(out)[-1]
        self.assertEqual(k["warpsim_capped"], 1)
        self.assertGreaterEqual(k["gpu_tot_sim_cycle"], 3000)
        self.assertLess(k["gpu_tot_sim_cycle"], 3100)

    def test_max_cycle_caps_a_program_under_the_shim(self):
        out = os.path.join(self.tmp, "out")
        p = self.warpsim("run", "-q", "--max-cycle", "2500", "-o", out, "--", VECADD, check=False)
        self.assertIn("cycle cap (2500 cycles)", p.stderr)
        k = kernels(out)[-1]
        self.assertEqual(k["warpsim_capped"], 1)
        self.assertLess(k["gpu_tot_sim_cycle"], 2600)


class DumpPtxTest(ToolTest):
    def test_dump_ptx_writes_the_programs_modules(self):
        d = os.path.join(self.tmp, "ptx")
        p = self.warpsim("run", "-q", "--functional", "--dump-ptx", d, "--", VECADD)
        self.assertIn("PASS", p.stdout)
        name = "vectoradd_nc.module1.compute_75.ptx"
        self.assertEqual(os.listdir(d), [name])
        with open(os.path.join(d, name)) as f:
            self.assertIn(".entry _Z6vecAddPKfS0_Pfi", f.read())
        self.warpsim("ptx-check", os.path.join(d, name))

    def test_a_ptx_error_names_the_module_and_its_line_in_the_dump(self):
        # one opcode spoilt in the program's embedded (uncompressed) PTX
        with open(VECADD, "rb") as f:
            data = f.read()
        self.assertEqual(data.count(b"mad.lo.s32"), 1)
        prog = self.write("badptx", "", 0o755)
        with open(prog, "wb") as f:
            f.write(data.replace(b"mad.lo.s32", b"mxd.lo.s32"))
        d = os.path.join(self.tmp, "ptx")
        p = self.warpsim("run", "-q", "--functional", f"--dump-ptx={d}", "--", prog, check=False)
        self.assertNotEqual(p.returncode, 0)
        m = re.search(r"badptx\.module1\.compute_75\.ptx:(\d+):\d+: .*mxd", p.stderr)
        self.assertTrue(m, p.stderr)
        self.assertNotIn("WS_ERR_", p.stderr)
        with open(os.path.join(d, "badptx.module1.compute_75.ptx")) as f:
            self.assertIn("mxd.lo.s32", f.read().splitlines()[int(m.group(1)) - 1])


class MemcheckTest(ToolTest):
    def oob_program(self):
        """vectoradd whose kernel also reads 1 MiB past B: past every allocation, inside the
        2 MiB region they share (the parameter names are shortened to keep the PTX's length)."""
        with open(VECADD, "rb") as f:
            data = f.read()
        start, end = data.index(b".version"), data.index(b"$L__BB0_2:\nret;\n\n}\n") + 18
        ptx = data[start:end].replace(b"_Z6vecAddPKfS0_Pfi_param_", b"p")
        load = b"ld.global.f32 %f1, [%rd8];\n"
        self.assertEqual(ptx.count(load), 1)
        ptx = ptx.replace(load, load + b"ld.global.f32 %f3, [%rd8+1048576];\n")
        ptx += b"\n" * (end - start - len(ptx))
        prog = self.write("oob", "", 0o755)
        with open(prog, "wb") as f:
            f.write(data[:start] + ptx + data[end:])
        return prog

    def test_a_read_past_every_allocation_passes_and_memcheck_reports_it(self):
        prog = self.oob_program()
        kern = "kernel _Z6vecAddPKfS0_Pfi"
        p = self.warpsim("run", "-q", "--functional", "--", prog)  # as on a GPU: no fault
        self.assertIn("PASS", p.stdout)
        self.assertNotIn("memcheck", p.stderr)
        p = self.warpsim("run", "-q", "--functional", "--memcheck", "--", prog)
        self.assertIn("PASS", p.stdout)
        self.assertEqual(p.stderr.count(f"memcheck: {kern}: invalid global load of 4 bytes"), 1, p.stderr)
        self.assertRegex(p.stderr, r"bytes after the end of the allocation at 0x[0-9a-f]+ of 262144 bytes\) "
                         r"at CTA \(0,0,0\) thread \(0,0,0\) pc 16 in _Z6vecAddPKfS0_Pfi \(oob\.module1")
        self.assertIn(f"memcheck: 65536 bad accesses in {kern} (1 site)", p.stderr)
        p = self.warpsim("run", "-q", "--functional", "--memcheck=stop", "--", prog, check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn("-warpsim_memcheck 2 stops at the first", p.stderr)
        self.assertIn(f"memcheck: 1 bad access in {kern}", p.stderr)
        p = self.warpsim("run", "-q", "--functional", "--set", "-warpsim_map_granularity 1", "--", prog,
                         check=False)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"{kern}: illegal address 0x", p.stderr)


class ErrorMessageTest(ToolTest):
    def test_config_errors_are_said_once_without_status_names(self):
        p = self.warpsim("run", "--set", "-gpgpu_scheduler bogus", "micro/vectoradd", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown policy", p.stderr)
        self.assertNotIn("WS_ERR_", p.stderr)
        p = self.warpsim("run", "--config", os.path.join(self.tmp, "missing.config"), "--check-config",
                         check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("missing.config", p.stderr)
        self.assertNotIn("WS_ERR_", p.stderr)


class InstallTest(ToolTest):
    def test_make_install_gives_a_working_warpsim(self):
        build = os.path.dirname(os.path.abspath(BUILT))
        if os.path.dirname(build) != REPO:
            self.skipTest(f"{BUILT} is not a build folder of {REPO}")
        prefix = os.path.join(self.tmp, "prefix")
        mk = ["make", "-s", "-C", REPO, f"BUILD={os.path.basename(build)}", f"PREFIX={prefix}"]
        p = subprocess.run(mk + ["install"], capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        exe = os.path.join(prefix, "bin", "warpsim")
        # run from elsewhere, with the build tree out of reach of its lookups
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        env.pop("WARPSIM_BIN", None)

        def run(*args):
            r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300, cwd=self.tmp,
                               env=env, stdin=subprocess.DEVNULL)
            self.assertEqual(r.returncode, 0, f"{args}: {r.stdout}\n{r.stderr}")
            return r

        self.assertIn("PASS", run("run", "micro/vectoradd").stdout)
        self.assertIn("gpgpu_max_cycle", run("options").stdout)
        self.assertIn("PASS", run("run", "-q", "--functional", "--", VECADD).stdout)
        self.assertIn("warpsim query", run("query", "--help").stdout)
        p = run("sweep", os.path.join(prefix, "share", "warpsim", "examples", "quick.toml"),
                "--dry-run", "-o", os.path.join(self.tmp, "sw"))
        self.assertIn("to run", p.stdout + p.stderr)
        p = subprocess.run(mk + ["uninstall"], capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertFalse(os.path.exists(exe))
        self.assertFalse(os.path.exists(os.path.join(prefix, "lib", "warpsim")))
        shutil.rmtree(prefix, True)


if __name__ == "__main__":
    import unittest
    unittest.main()
