"""Sweep descriptions: load a TOML (or JSON) file and expand it into runs.

See docs/sweeps.md for the format. A sweep is workloads x configs; a config is
the base (a preset or a config file) plus options, built from an explicit
list (`[[configs]]`) and/or the cartesian product of `[vary]`.
"""
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile

try:
    import tomllib
except ImportError:  # Python < 3.11: JSON specs still work
    tomllib = None


class SpecError(Exception):
    pass


# The defaults are preset gtx480 (src/config/options.def), so options on top
# of it need no preset flag: a config file holding just the options is exact.
DEFAULT_PRESET = "gtx480"

# Seconds a run may take unless the spec's `timeout` (0: no limit) or
# `warpsim sweep --timeout` says otherwise: a hung run must not hold a sweep forever.
DEFAULT_TIMEOUT = 4 * 3600

# The input column of a run of the user's own program (it has no small/paper input).
COMMAND_INPUT = "cmd"

_SAFE = re.compile(r"[^A-Za-z0-9._=+,-]+")


def slug(s):
    s = _SAFE.sub("_", str(s)).strip("_")
    return s or "x"


def _opt_name(k):
    k = str(k).strip()
    return k if k.startswith("-") else "-" + k


def _opt_value(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


# Spec and config files bigger than this are refused (like warpsim's own cap on
# config files): reading stops there, so /dev/zero or a FIFO cannot fill memory.
MAX_FILE_BYTES = 16 << 20


def read_capped(path, what):
    """The bytes of `path`, or SpecError naming it and the limit when it holds more."""
    with open(path, "rb") as f:
        data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise SpecError(f"{path}: {what} is larger than the limit of {MAX_FILE_BYTES >> 20} MiB")
    return data


def load_file(path):
    data = read_capped(path, "sweep spec")
    if path.endswith(".json"):
        try:
            return json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise SpecError(f"{path}: {e}")
        except RecursionError:
            raise SpecError(f"{path}: arrays or objects nested too deeply")
    if tomllib is None:
        raise SpecError(f"{path}: TOML needs Python 3.11 (tomllib); use a .json spec")
    try:
        return tomllib.loads(data.decode())
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: {e}")
    except UnicodeDecodeError as e:
        raise SpecError(f"{path}: not UTF-8 text: {e}")
    except RecursionError:
        raise SpecError(f"{path}: arrays or tables nested too deeply")


def _want(v, types, where, what):
    """v, or SpecError when it is not of one of types (a bool is no number)."""
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
        raise SpecError(f"{where}: {what}, got {v!r}")
    return v


class Config:
    """One configuration: base + options, with a name for tables and folders."""

    def __init__(self, name, preset=None, config_file=None, options=None, params=None, origins=None):
        self.name = name
        self.preset = preset
        self.config_file = config_file
        self.options = options or {}  # "-name" -> "value", in order
        self.params = params or {}  # what distinguishes it (for tables and the DB)
        self.origins = origins or {}  # "-name" -> where the spec sets it, for messages

    def config_lines(self):
        """config_text() as (line, where it comes from) pairs, or None."""
        lines = []
        if self.config_file:
            lines.append((f"# base: {self.config_file}", None))
            base_dir = os.path.dirname(self.config_file)
            text = read_capped(self.config_file, "config file").decode(errors="replace")
            for i, line in enumerate(text.splitlines(), 1):
                # Keep a relative .icnt path valid from the run folder.
                m = re.match(r"\s*-inter_config_file\s+(\S+)(.*)$", line)
                if m and not os.path.isabs(m.group(1)):
                    line = f"-inter_config_file {os.path.join(base_dir, m.group(1))}{m.group(2)}"
                lines.append((line, f"{self.config_file}:{i}"))
        elif not self.options:
            return None
        else:
            lines.append((f"# base: preset {self.preset or DEFAULT_PRESET}", None))
        if self.options:
            lines.append((f"# sweep config '{self.name}'", None))
            for k, v in self.options.items():
                lines.append((f"{k} {v}", self.origins.get(k)))
        return lines

    def config_text(self):
        """The exact configuration file given to `warpsim run --config`, or None
        when the run is the base preset alone."""
        lines = self.config_lines()
        return None if lines is None else "\n".join(t for t, _ in lines) + "\n"

    def run_args(self, config_path):
        """Arguments for `warpsim run` given where config_text() was written."""
        if self.config_text() is None:
            return ["--preset", self.preset] if self.preset else []
        return ["--config", config_path]


class Command:
    """A workload that is the user's own program: `warpsim run ... -- PROGRAM ARGS`
    in folder cwd (absolute) with env added to the environment."""

    def __init__(self, argv, cwd, env):
        self.argv = argv
        self.cwd = cwd
        self.env = env

    def problem(self):
        """Why the program cannot be started, or None."""
        if not os.path.isdir(self.cwd):
            return f"cwd '{self.cwd}' is not a folder"
        prog = self.argv[0]
        if "/" in prog:
            path = os.path.normpath(os.path.join(self.cwd, prog))
        else:
            path = shutil.which(prog, path=self.env.get("PATH", os.environ.get("PATH", os.defpath)))
            if not path:
                return f"program '{prog}' is not on the PATH"
        if not os.path.exists(path):
            return f"program '{prog}' not found ({path} does not exist)"
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            return f"program '{prog}' is not an executable file ({path})"
        return None


class Run:
    def __init__(self, workload, input, wclass, config, functional, extra_args, timeout, command=None):
        self.workload = workload
        self.input = input
        self.wclass = wclass
        self.config = config
        self.functional = functional
        self.extra_args = list(extra_args)
        self.timeout = timeout
        self.command = command
        self.id = f"{slug(config.name)}/{slug(workload.replace('/', '.'))}-{slug(input)}"

    def args(self, config_path):
        a = ["run", "-o", "."]  # stdout.txt keeps the GPGPU-Sim style report
        if self.functional:
            a.append("--functional")
        a += self.config.run_args(config_path)
        a += self.extra_args
        if self.command:
            return a + ["--"] + self.command.argv
        return a + [self.workload, "--input", self.input]


class Sweep:
    def __init__(self, name, path, raw, workloads, configs, baseline, runs, output, slurm, jobs,
                 commands=None):
        self.commands = commands or {}  # workload name -> Command
        self.name = name
        self.path = path
        self.raw = raw
        self.workloads = workloads  # list of (name, input, class)
        self.configs = configs
        self.baseline = baseline
        self.runs = runs
        self.output = output
        self.slurm = slurm
        self.jobs = jobs

    def classes(self):
        out = []
        for _, _, c in self.workloads:
            if c not in out:
                out.append(c)
        return out

    def plan(self):
        """What the report and query need, stored beside the database."""
        return {
            "name": self.name,
            "spec": os.path.abspath(self.path),
            "baseline": self.baseline,
            "configs": [{"name": c.name, "params": c.params} for c in self.configs],
            "workloads": [dict({"name": w, "input": i, "class": c},
                               **({"command": self.commands[w].argv} if w in self.commands else {}))
                          for w, i, c in self.workloads],
        }


def _options_table(v, where):
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise SpecError(f"{where}: 'options' must be a table of option = value")
    return {_opt_name(k): _opt_value(x) for k, x in v.items()}


def _known_keys(tbl, known, where):
    """A misspelled key (or an option put beside 'options' instead of in it)
    would otherwise be ignored without a word."""
    unknown = sorted(set(tbl) - set(known))
    if unknown:
        raise SpecError(f"{where}: unknown keys {', '.join(unknown)} (known: {', '.join(known)}; "
                        f"simulator options go in 'options = {{ name = value }}')")


def _base(tbl, where, spec_dir):
    preset = _want(tbl.get("preset"), (str, type(None)), where, "'preset' must be a preset name")
    cfile = _want(tbl.get("config"), (str, type(None)), where, "'config' must be a config file")
    if preset and cfile:
        raise SpecError(f"{where}: give 'preset' or 'config', not both")
    if cfile:
        cfile = os.path.normpath(os.path.join(spec_dir, cfile))
        if not os.path.isfile(cfile):
            raise SpecError(f"{where}: config file '{cfile}' not found")
    return preset, cfile


def _timeout(v, where):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
        raise SpecError(f"{where}: 'timeout' must be seconds per run (0: no limit), got {v!r}")
    return v or None


def _command(entry, where, spec_dir):
    """The Command of a workload table with 'command'."""
    argv = entry["command"]
    if isinstance(argv, str):
        argv = [argv]
    if not isinstance(argv, list) or not argv or not all(isinstance(a, (str, int, float)) for a in argv):
        raise SpecError(f"{where}: 'command' must be a list: the program and its arguments")
    env = entry.get("env", {})
    if not isinstance(env, dict):
        raise SpecError(f"{where}: 'env' must be a table of NAME = \"value\"")
    cwd = entry.get("cwd", ".")
    if not isinstance(cwd, str):
        raise SpecError(f"{where}: 'cwd' must be a folder (relative to the spec's folder)")
    return Command([str(a) for a in argv], os.path.normpath(os.path.join(spec_dir, cwd)),
                   {str(k): str(v) for k, v in env.items()})


def load(path, output=None, timeout=None):
    raw = load_file(path)
    if not isinstance(raw, dict):
        raise SpecError(f"{path}: the top level must be a table")
    spec_dir = os.path.dirname(os.path.abspath(path))
    known = {"name", "input", "functional", "timeout", "args", "baseline", "output", "jobs",
             "base", "workloads", "classes", "configs", "vary", "slurm"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise SpecError(f"{path}: unknown keys {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    name = _want(raw.get("name"), (str, type(None)), path, "'name' must be a string") \
        or os.path.splitext(os.path.basename(path))[0]
    default_input = _want(raw.get("input", "small"), str, path, "'input' must be 'small' or 'paper'")
    _want(raw.get("output"), (str, type(None)), path, "'output' must be a folder")
    _want(raw.get("jobs"), (int, type(None)), path, "'jobs' must be a number of parallel runs")
    functional = bool(raw.get("functional", False))
    # --timeout (the caller) wins over the spec's, which wins over the default.
    timeout = _timeout(timeout if timeout is not None else raw.get("timeout", DEFAULT_TIMEOUT),
                       "--timeout" if timeout is not None else path)
    extra = raw.get("args", [])
    if not isinstance(extra, list):
        raise SpecError(f"{path}: 'args' must be a list of extra `warpsim run` arguments")

    # Workloads: strings or tables {name, input, class}; [classes] maps class -> names.
    workloads = []
    wargs = {}  # (workload, input) -> its own extra `warpsim run` arguments
    commands = {}  # workload name -> Command (the user's own program)
    seen = set()

    def add(entry, cls=None):
        own = []
        if isinstance(entry, dict):
            _want(entry.get("name"), str, f"{path}: workload", "'name' must be a string")
            _want(entry.get("class", ""), str, f"{path}: workload {entry['name']}",
                  "'class' must be a string")
        if isinstance(entry, str):
            w, inputs, c = entry, [default_input], cls
        elif isinstance(entry, dict) and "name" in entry and "command" in entry:
            w, c, inputs = entry["name"], entry.get("class", cls), [COMMAND_INPUT]
            unknown_w = sorted(set(entry) - {"name", "command", "cwd", "env", "class", "args"})
            if unknown_w:
                raise SpecError(f"{path}: workload {w}: unknown keys {', '.join(unknown_w)} (known for "
                                f"a program of your own: name, command, cwd, env, class, args)")
            if w in commands:
                raise SpecError(f"{path}: workload {w} is listed twice")
            commands[w] = _command(entry, f"{path}: workload {w}", spec_dir)
        elif isinstance(entry, dict) and "name" in entry:
            w, c = entry["name"], entry.get("class", cls)
            inp = entry.get("input", entry.get("inputs", default_input))
            inputs = inp if isinstance(inp, list) else [inp]
            unknown_w = sorted(set(entry) - {"name", "input", "inputs", "class", "args"})
            if unknown_w:
                raise SpecError(f"{path}: workload {w}: unknown keys {', '.join(unknown_w)} "
                                f"(known: name, input, class, args; a program of your own: "
                                f"name, command, cwd, env, class, args)")
        else:
            raise SpecError(f"{path}: a workload is a name or a table with 'name' (got {entry!r})")
        if isinstance(entry, dict):
            own = entry.get("args", [])
            if not isinstance(own, list):
                raise SpecError(f"{path}: workload {w}: 'args' must be a list of `warpsim run` arguments")
            own = [str(a) for a in own]
        for i in inputs:
            if i not in ("small", "paper") and w not in commands:
                raise SpecError(f"{path}: workload {w}: input must be 'small' or 'paper', got {i!r}")
            key = (w, i)
            if key in seen:
                raise SpecError(f"{path}: workload {w} ({i}) is listed twice")
            seen.add(key)
            workloads.append((w, i, c or "all"))
            if own:
                wargs[key] = own

    for e in _want(raw.get("workloads", []), list, path, "'workloads' must be a list"):
        add(e)
    classes = raw.get("classes", {})
    if not isinstance(classes, dict):
        raise SpecError(f"{path}: 'classes' must be a table of class = [workloads]")
    for cls, names in classes.items():
        for e in _want(names, list, f"{path}: [classes] {cls}", "must be a list of workloads"):
            add(e, cls)
    if not workloads:
        raise SpecError(f"{path}: no workloads (give 'workloads = [...]' or a [classes] table)")

    base = raw.get("base", {})
    if not isinstance(base, dict):
        raise SpecError(f"{path}: [base] must be a table")
    _known_keys(base, ("preset", "config", "options"), f"{path}: [base]")
    bpreset, bfile = _base(base, f"{path}: [base]", spec_dir)
    bopts = _options_table(base.get("options"), f"{path}: [base]")
    origins = {k: f"{path}: [base] options {k.lstrip('-')}" for k in bopts}

    # Explicit configs (default: one, the base), then x the cartesian product of [vary].
    explicit = []
    for i, c in enumerate(_want(raw.get("configs", []), list, path, "'configs' must be a list of tables")):
        where = f"{path}: configs[{i}]"
        if not isinstance(c, dict) or "name" not in c:
            raise SpecError(f"{where}: each [[configs]] needs a 'name'")
        _want(c["name"], str, where, "'name' must be a string")
        _known_keys(c, ("name", "preset", "config", "options"), where)
        p, f = _base(c, where, spec_dir)
        if not p and not f:
            p, f = bpreset, bfile
        opts = dict(bopts)
        own = _options_table(c.get("options"), where)
        opts.update(own)
        params = {"config": c["name"]}
        params.update(own)
        orig = dict(origins)
        orig.update({k: f"{where} ({c['name']}) options {k.lstrip('-')}" for k in own})
        explicit.append((c["name"], p, f, opts, params, orig))
    if not explicit:
        explicit.append((None, bpreset, bfile, dict(bopts), {}, origins))

    vary = raw.get("vary", {})
    if not isinstance(vary, dict):
        raise SpecError(f"{path}: [vary] must be a table of option = [values]")
    axes = []
    for k, vals in vary.items():
        vals = vals if isinstance(vals, list) else [vals]
        if not vals:
            raise SpecError(f"{path}: [vary] {k} has no values")
        axes.append((_opt_name(k), [_opt_value(v) for v in vals]))

    configs = []
    for cname, p, f, opts, params, orig in explicit:
        for combo in itertools.product(*[vals for _, vals in axes]) if axes else [()]:
            o = dict(opts)
            prm = dict(params)
            org = dict(orig)
            org.update({k: f"{path}: [vary] {k.lstrip('-')}" for k, _ in axes})
            parts = [cname] if cname else []
            for (k, _), v in zip(axes, combo):
                o[k] = v
                prm[k] = v
                # One varied option: its value names the config; more: option=value.
                parts.append(v if len(axes) == 1 else f"{k.lstrip('-')}={v}")
            cfg_name = ",".join(parts) if parts else "base"
            if p and p != DEFAULT_PRESET and o:
                raise SpecError(
                    f"{path}: config '{cfg_name}': preset '{p}' with options needs `warpsim run` to take "
                    f"--preset and --config together, which it does not yet; use a config file as the "
                    f"base ([base] config = FILE) or preset '{DEFAULT_PRESET}'")
            configs.append(Config(cfg_name, p, f, o, prm, org))
    names = [c.name for c in configs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise SpecError(f"{path}: config names repeat: {', '.join(dup)}")
    slugs = [slug(n) for n in names]
    if len(set(slugs)) != len(slugs):
        raise SpecError(f"{path}: config names collide as folder names: {', '.join(names)}")

    baseline = _want(raw.get("baseline", configs[0].name), str, path, "'baseline' must be a config name")
    if baseline not in names:
        raise SpecError(f"{path}: baseline '{baseline}' is not a config (configs: {', '.join(names)})")

    # A workload's own args come after the sweep's (e.g. its own --max-insn cap wins).
    runs = [Run(w, i, c, cfg, functional, list(extra) + wargs.get((w, i), []), timeout, commands.get(w))
            for cfg in configs for (w, i, c) in workloads]
    out = output or raw.get("output")
    if out and not output:
        out = os.path.join(spec_dir, out)
    if not out:
        out = os.path.join("sweeps", slug(name))
    slurm = raw.get("slurm", {})
    if not isinstance(slurm, dict):
        raise SpecError(f"{path}: [slurm] must be a table")
    return Sweep(name, path, raw, workloads, configs, baseline, runs, os.path.abspath(out), slurm,
                 raw.get("jobs"), commands)


# ---- checking every config with the warpsim binary, before anything runs ----
def check_config(binary, cfg, extra_args, tmp):
    """Why `warpsim run --check-config` refuses this config (with these extra
    `warpsim run` arguments), or None. The timing model is built, so option
    names and values are both checked; a file:line of the config the sweep
    writes is replaced by where the spec (or its base config file) sets it."""
    lines = cfg.config_lines()
    args = [binary, "run", "--check-config"]
    path = None
    if lines is not None:
        path = os.path.join(tmp, f"check-{slug(cfg.name)}.config")
        with open(path, "w") as f:
            f.write("\n".join(t for t, _ in lines) + "\n")
        args += ["--config", path]
    elif cfg.preset:
        args += ["--preset", cfg.preset]
    skip = {"--functional", "-q", "--quiet"}
    i = 0
    while i < len(extra_args):  # keep what shapes the config; -o DIR would create folders
        a = extra_args[i]
        if a == "-o":
            i += 2
            continue
        if a not in skip:
            args.append(a)
        i += 1
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=300, cwd=tmp,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as e:
        return f"cannot run {binary}: {e}"
    if p.returncode == 0:
        return None

    def place(line):
        line = re.sub(r"^warpsim:\s*", "", line.strip())
        if path:
            def where(m):
                n = int(m.group(1))
                org = lines[n - 1][1] if 0 < n <= len(lines) else None
                return (org or f"config line {n}") + ": "
            line = re.sub(re.escape(path) + r":(\d+):\s*", where, line)
            line = line.replace(path, "the config")
        return line
    msgs = [place(x) for x in p.stderr.splitlines() if x.strip() and "note:" not in x]
    useful = [m for m in msgs if not m.startswith(("configuration refused", "cannot create the device"))]
    return "; ".join(useful or msgs) or f"warpsim exited {p.returncode}"


def no_effect_options(binary):
    """Names `warpsim options` marks "(accepted; no effect)"; empty when it cannot say."""
    try:
        p = subprocess.run([binary, "options"], capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return set()
    if p.returncode != 0:
        return set()
    out = set()
    for line in p.stdout.splitlines():
        parts = line.split()
        if line.startswith("  ") and parts and "(accepted; no effect" in line:  # an option's row
            out.add(parts[0].lstrip("-"))
    return out


def check(sw, binary):
    """Raise SpecError naming every problem when warpsim refuses any config of
    the sweep (every config x every distinct set of extra arguments), or when
    configs differ in an option warpsim accepts but does not model (their
    columns would be the same). Runs nothing and writes nothing outside a
    temporary folder."""
    problems = [f"{sw.path}: workload {w}: {why}" for w, cmd in sw.commands.items()
                for why in [cmd.problem()] if why]
    dead = no_effect_options(binary)
    where = {}
    for c in sw.configs:
        for k in c.options:
            if k.lstrip("-") in dead:
                where.setdefault(k, c.origins.get(k) or f"{sw.path}: {k}")
    for k in where:
        vs = {c.options.get(k) for c in sw.configs}  # None: left at its default
        if len(vs) > 1:  # what tells the configs apart does nothing
            problems.append(f"{where[k]}: the option has no effect in warpsim (accepted only so that "
                            f"GPGPU-Sim configs load; see `warpsim options`): the configs that differ "
                            f"in it would give the same results")
    seen, refused = set(), {}
    with tempfile.TemporaryDirectory(prefix="warpsim-check-") as tmp:
        for run in sw.runs:
            key = (run.config.name, tuple(run.extra_args))
            if key in seen:
                continue
            seen.add(key)
            why = check_config(binary, run.config, run.extra_args, tmp)
            if why:
                refused.setdefault(why, []).append(run.config.name)
    for why, names in refused.items():
        names = list(dict.fromkeys(names))
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        problems.append(f"{why} (config{'s' if len(names) > 1 else ''} {shown})")
    if problems:
        raise SpecError(f"{sw.path}: the sweep is not valid; nothing was run:\n  " + "\n  ".join(problems))
