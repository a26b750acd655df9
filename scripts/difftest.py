#!/usr/bin/env python3
"""Differential testing of the cs349 pipelines on random programs.

For every seed, `cs349-gen random` writes a program; it is run with
`cs349-run` as written (the reference), then through each pipeline below and
run again, and the outputs are compared: within a tolerance where a pipeline
changes the arithmetic, bit for bit where the docs promise that it does not
(fusion, scheduling and memory planning). A finding is a crash (a signal), a
sanitizer report, a timeout, a valid program that a tool rejects, or numbers
that differ; each is written to the output directory with its seed, its
pipeline and a minimized program.

    scripts/difftest.py --seeds 0:200                # 200 programs, 2 jobs
    scripts/difftest.py --seeds 0:5000 --jobs 2 --out difftest-out
    scripts/difftest.py --front-end tosa --seeds 0:500   # the importer

With --front-end tosa or linalg the programs come from `cs349-gen
random-import` (what front ends export) and every pipeline starts with
--import; the reference is the program as upstream lowers it.

Exit status: 0 when nothing was found, 1 on any finding, 2 on bad usage.
Python standard library only.
"""

import argparse
import concurrent.futures
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time

# (name, cs349-opt arguments, cs349-run arguments, reference, exact), read
# from `cs349-difftest --list-pipelines`, the one table of them. The
# reference is the pipeline whose output this one must reproduce ("" is the
# program as written); exact means bit for bit, otherwise within the
# tolerance. Exact comparisons are the docs' promise: fusion, scheduling and
# planning regroup and place computations but round every value where the
# unfused program does (docs/execution.md, "Tolerance, and why").
_PIPELINES = []


def pipelines():
    return _PIPELINES


def load_pipelines(tools_dir, front_end="cs349"):
    tool = os.path.join(tools_dir, "cs349-difftest")
    try:
        text = subprocess.run([tool, "--list-pipelines", "--front-end",
                               front_end], capture_output=True,
                              text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise HarnessError("cannot list the pipelines with %s: %s" % (
            tool, error))
    _PIPELINES[:] = []
    for line in text.splitlines():
        name, opt, run, reference, how = line.split("\t")
        _PIPELINES.append((name, opt, run, reference, how == "exact"))


SANITIZER_MARKS = ("ERROR: AddressSanitizer", "runtime error:",
                   "ERROR: LeakSanitizer", "UndefinedBehaviorSanitizer")


class Finding(Exception):
    def __init__(self, kind, pipeline, detail):
        super().__init__(kind)
        self.kind = kind          # crash, sanitizer, timeout, rejected, ...
        self.pipeline = pipeline
        self.detail = detail


class HarnessError(Exception):
    pass


class Tools:
    def __init__(self, args):
        self.dir = args.tools
        self.timeout = args.timeout
        self.rtol = args.rtol
        self.atol = args.atol
        self.run_args = args.run_args.split()
        self.compile_only = args.compile_only
        self.front_end = args.front_end

    def path(self, tool):
        return os.path.join(self.dir, tool)

    def call(self, argv, stdin_text, pipeline, what):
        """Runs a tool; returns stdout or raises the Finding it amounts to."""
        try:
            proc = subprocess.run(argv, input=stdin_text, capture_output=True,
                                  text=True, timeout=self.timeout)
        except OSError as error:
            # A tool that cannot be started is the harness's problem (a
            # rebuild replacing it), not the program's.
            raise HarnessError("cannot run %s: %s" % (argv[0], error))
        except subprocess.TimeoutExpired:
            raise Finding("timeout", pipeline,
                          "%s exceeded %ss: %s" % (what, self.timeout,
                                                   shlex.join(argv)))
        stderr = proc.stderr
        if any(mark in stderr for mark in SANITIZER_MARKS):
            raise Finding("sanitizer", pipeline,
                          "%s: %s\n%s" % (what, shlex.join(argv),
                                          stderr[-4000:]))
        if proc.returncode < 0 or proc.returncode >= 128:
            raise Finding("crash", pipeline,
                          "%s exited with %s: %s\n%s" % (
                              what, proc.returncode, shlex.join(argv),
                              stderr[-4000:]))
        if proc.returncode != 0:
            raise Finding("rejected", pipeline,
                          "%s exited with %s on a valid program: %s\n%s" % (
                              what, proc.returncode, shlex.join(argv),
                              stderr[-2000:]))
        return proc.stdout

    def generate(self, seed, gen_args):
        return self.call([self.path("cs349-gen")] + generator_command(
            self.front_end) + ["--seed", str(seed)] + gen_args, None,
            "generate", "cs349-gen")

    def optimize(self, program, opt_args, pipeline):
        return self.call([self.path("cs349-opt"), "-"] + opt_args.split(),
                         program, pipeline, "cs349-opt")

    def run(self, program, run_args, pipeline, runs=None):
        """The parsed output of cs349-run. `runs` memoizes by program text:
        pipelines often leave a small program as it was (cse, a plan that
        several strategies agree on), and running the same text twice proves
        nothing more."""
        key = (program, run_args)
        if runs is not None and key in runs:
            return runs[key]
        result = parse_run(self.call([self.path("cs349-run"), "-"] +
                                     self.run_args + run_args.split(),
                                     program, pipeline, "cs349-run"))
        if runs is not None:
            runs[key] = result
        return result


def parse_run(text):
    """The results of a cs349-run output: [(type, [element text, ...])]."""
    results = []
    for line in text.splitlines():
        if line.startswith("result "):
            results.append((line.split(":", 1)[1].strip(), []))
        elif line.startswith(" ") and results:
            results[-1][1].extend(line.split())
    return results


def compare(reference, actual, exact, rtol, atol):
    """None when `actual` matches `reference`, else a description."""
    if len(reference) != len(actual):
        return "%d results, expected %d" % (len(actual), len(reference))
    for index, ((ref_type, ref), (act_type, act)) in enumerate(
            zip(reference, actual)):
        if ref_type != act_type or len(ref) != len(act):
            return "result %d is %s, expected %s" % (index, act_type, ref_type)
        mismatches = []
        for position, (r, a) in enumerate(zip(ref, act)):
            if exact:
                if r != a:
                    mismatches.append((position, r, a))
                continue
            rv, av = float(r), float(a)
            if math.isnan(rv) or math.isnan(av) or math.isinf(rv) or \
                    math.isinf(av):
                if not (rv == av or (math.isnan(rv) and math.isnan(av))):
                    mismatches.append((position, r, a))
            elif abs(av - rv) > atol + rtol * abs(rv):
                mismatches.append((position, r, a))
        if mismatches:
            shown = ", ".join("[%d] %s vs %s" % m for m in mismatches[:4])
            return "result %d (%s): %d of %d elements differ%s: %s" % (
                index, ref_type, len(mismatches), len(ref),
                " (bit-exact expected)" if exact else "", shown)
    return None


def check_pipeline(tools, program, row, cache):
    """Runs one pipeline on `program`; raises a Finding on failure. `cache`
    holds the outputs of the reference pipelines already run."""
    name, opt_args, run_args, reference, exact = row
    if tools.compile_only:
        # Through the whole lowering, without the JIT: crashes, sanitizer
        # reports and rejections only, at a third of the CPU time.
        scratch = "true" if "--kernel-scratch" in run_args else "false"
        tools.optimize(program, opt_args + " --lower-to-llvm="
                       "kernel-scratch=" + scratch, name)
        return
    if reference not in cache:
        ref_row = [r for r in pipelines() if r[0] == reference][0]
        ref_program = tools.optimize(program, ref_row[1], ref_row[0])
        cache[reference] = tools.run(ref_program, ref_row[2], ref_row[0],
                                     cache["runs"])
    transformed = tools.optimize(program, opt_args, name)
    result = tools.run(transformed, run_args, name, cache["runs"])
    if name not in cache:
        cache[name] = result
    difference = compare(cache[reference], result, exact, tools.rtol,
                         tools.atol)
    if difference:
        raise Finding("bits-differ" if exact else "wrong-numbers", name,
                      difference)


def check_program(tools, program, rows, counter=None):
    """Every pipeline of `rows`; returns the findings (one per pipeline)."""
    findings = []
    try:
        runs = {}
        if tools.compile_only:
            tools.optimize(program, "--lower-to-llvm", "reference")
            cache = {}
        else:
            cache = {"": tools.run(program, "", "reference", runs),
                     "runs": runs}
    except Finding as finding:
        return [finding]
    seen = set()
    for row in rows:
        try:
            check_pipeline(tools, program, row, cache)
        except Finding as finding:
            if (finding.kind, finding.pipeline) not in seen:
                seen.add((finding.kind, finding.pipeline))
                findings.append(finding)
            # A broken reference pipeline would be reported by every row
            # that compares against it: record it once.
            if finding.pipeline in cache:
                del cache[finding.pipeline]
        if counter is not None:
            counter.add(checks=1)
    return findings


def reproduces(tools, program, finding):
    rows = [r for r in pipelines() if r[0] == finding.pipeline]
    try:
        if finding.pipeline in ("reference", "generate"):
            if tools.compile_only:
                tools.optimize(program, "--lower-to-llvm", "reference")
            else:
                tools.run(program, "", "reference")
            return False
        check_program_rows = check_program(tools, program, rows)
    except Finding as other:
        return other.kind == finding.kind
    return any(f.kind == finding.kind and f.pipeline == finding.pipeline
               for f in check_program_rows)


#===------------------------------------------------------------------------===#
# Minimization
#===------------------------------------------------------------------------===#

class GenericProgram:
    """A one-function module in MLIR's generic form: one op per line, so that
    ops can be cut out and results dropped at the text level."""

    ARG = re.compile(r"(%[\w.]+): ([^,)]+(?:<[^>]*>)?)")

    def __init__(self, text):
        lines = text.splitlines()
        self.head, self.body, self.tail = [], [], []
        self.args, self.results = [], []
        section = "head"
        for line in lines:
            stripped = line.strip()
            if section == "head" and stripped.startswith("^bb0("):
                inner = stripped[len("^bb0("):stripped.rindex(")")]
                self.args = [(m.group(1), m.group(2).strip())
                             for m in self.ARG.finditer(inner)]
                section = "body"
            elif section == "head":
                self.head.append(line)
            elif section == "body" and stripped.startswith('"func.return"'):
                operands = stripped[stripped.index("(") + 1:
                                    stripped.index(")")]
                names = [o.strip() for o in operands.split(",") if o.strip()]
                types = stripped[stripped.rindex(": (") + 3:
                                 stripped.rindex(") -> ()")]
                type_list = split_types(types)
                self.results = list(zip(names, type_list))
                section = "tail"
            elif section == "body":
                match = re.match(r"\s*(%[\w.]+) = (.*) -> (.*?)$", line)
                if not match:
                    raise ValueError("unexpected line: " + line)
                self.body.append((match.group(1), line.strip(),
                                  match.group(3).strip()))
            else:
                self.tail.append(line)
        if not self.head or not self.tail:
            raise ValueError("not a one-function generic module")

    def text(self):
        head = "\n".join(self.head)
        signature = "(%s) -> (%s)" % (", ".join(t for _, t in self.args),
                                      ", ".join(t for _, t in self.results))
        head = re.sub(r"function_type = \(.*?\) -> (\(.*?\)|[^,]+?)(?=, sym_name)",
                      "function_type = " + signature, head)
        lines = [head,
                 "^bb0(%s):" % ", ".join("%s: %s" % a for a in self.args)]
        lines += ["  " + text for _, text, _ in self.body]
        lines.append('  "func.return"(%s) : (%s) -> ()' % (
            ", ".join(n for n, _ in self.results),
            ", ".join(t for _, t in self.results)))
        lines += self.tail
        return "\n".join(lines) + "\n"

    def operands(self, index):
        """[(name, type)] of the operands of op `index`."""
        text = self.body[index][1].split(" = ", 1)[1]
        names = text[text.index("(") + 1:text.index(")")]
        names = [n.strip() for n in names.split(",") if n.strip()]
        types = split_types(text[text.rindex(": (") + 3:text.rindex(") -> ")])
        return list(zip(names, types)) if len(names) == len(types) else []

    def uses(self, name):
        pattern = re.compile(re.escape(name) + r"(?![\w.])")
        count = sum(len(pattern.findall(text.split(" = ", 1)[1]))
                    for _, text, _ in self.body)
        return count + sum(1 for n, _ in self.results if n == name)

    def drop_trailing_args(self):
        """Unused arguments at the end: the others keep their positions,
        and with them cs349-run's values for them."""
        while self.args and self.uses(self.args[-1][0]) == 0:
            self.args.pop()

    def drop_dead(self):
        changed = True
        while changed:
            changed = False
            for index in range(len(self.body) - 1, -1, -1):
                if self.uses(self.body[index][0]) == 0:
                    del self.body[index]
                    changed = True


def split_types(text):
    types, depth, current = [], 0, ""
    for char in text:
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        if char == "," and depth == 0:
            types.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        types.append(current.strip())
    return types


def minimize(tools, seed, gen_args, program, finding, budget):
    """The smallest program found within `budget` seconds that still shows
    `finding`: first the shortest prefix of the same seed's program (fewer
    --ops), then cutting ops and results out of its text."""
    deadline = time.monotonic() + budget
    steps = len(set(re.findall(r'loc\("s(\d+)\.', program)))
    best = program
    # Prefixes: the generator's programs with fewer steps are prefixes.
    low, high = 0, max(steps, 1)
    ops_at = [i for i, a in enumerate(gen_args) if a == "--ops"]
    base_args = list(gen_args)
    for i in reversed(ops_at):
        del base_args[i:i + 2]
    while low < high and time.monotonic() < deadline:
        middle = (low + high) // 2
        try:
            candidate = tools.generate(seed, base_args + ["--ops",
                                                          str(middle)])
        except Finding:
            low = middle + 1
            continue
        if reproduces(tools, candidate, finding):
            best, high = candidate, middle
        else:
            low = middle + 1
    # Text level, on the generic form.
    try:
        generic = tools.call([tools.path("cs349-opt"), "-",
                              "--mlir-print-op-generic"], best, "minimize",
                             "cs349-opt")
        current = GenericProgram(generic)
    except (Finding, ValueError):
        return best
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        candidates = []
        for index in range(len(current.results)):
            candidates.append(("drop-result", index))
        for index in range(len(current.results)):
            for operand in range(3):
                candidates.append(("return-operand", (index, operand)))
        for index in range(len(current.body) - 1, -1, -1):
            candidates.append(("cut-op", index))
        for kind, index in candidates:
            if time.monotonic() >= deadline:
                break
            trial = GenericProgram(current.text())
            if kind == "return-operand":
                result, operand = index
                if result >= len(trial.results):
                    continue
                producers = [i for i, op in enumerate(trial.body)
                             if op[0] == trial.results[result][0]]
                if not producers:
                    continue
                operands = trial.operands(producers[0])
                if operand >= len(operands):
                    continue
                trial.results[result] = operands[operand]
            elif kind == "drop-result":
                if index >= len(trial.results) or len(trial.results) == 1:
                    continue
                del trial.results[index]
            else:
                if index >= len(trial.body):
                    continue
                name, _, result_type = trial.body.pop(index)
                trial.args.append((name, result_type))
            trial.drop_dead()
            trial.drop_trailing_args()
            text = trial.text()
            if reproduces(tools, text, finding):
                current = trial
                improved = True
    try:
        return tools.optimize(current.text(), "", "minimize")
    except Finding:
        return current.text()


#===------------------------------------------------------------------------===#
# Driver
#===------------------------------------------------------------------------===#

class Counter:
    def __init__(self):
        self.lock = threading.Lock()
        self.programs = 0
        self.checks = 0

    def add(self, programs=0, checks=0):
        with self.lock:
            self.programs += programs
            self.checks += checks


def test_seed(tools, seed, gen_args, rows, counter, args):
    try:
        program = tools.generate(seed, gen_args)
    except Finding as finding:
        return [(seed, finding, "")]
    counter.add(programs=1)
    findings = check_program(tools, program, rows, counter)
    reports = []
    for finding in findings:
        minimized = program
        if args.minimize_seconds > 0:
            minimized = minimize(tools, seed, gen_args, program, finding,
                                 args.minimize_seconds)
        reports.append((seed, finding, minimized))
    return reports


def write_report(out_dir, seed, finding, program, gen_args,
                 tools_front_end="cs349"):
    os.makedirs(out_dir, exist_ok=True)
    stem = "seed%d-%s-%s" % (seed, re.sub(r"[^\w.+=-]", "_",
                                          finding.pipeline), finding.kind)
    path = os.path.join(out_dir, stem + ".mlir")
    with open(path, "w") as f:
        f.write("// seed %d, pipeline %s: %s\n" % (seed, finding.pipeline,
                                                   finding.kind))
        f.write("// cs349-gen %s --seed %d %s\n" % (
            shlex.join(generator_command(tools_front_end)), seed,
            shlex.join(gen_args)))
        for line in finding.detail.splitlines()[:40]:
            f.write("// " + line + "\n")
        f.write(program)
    return path


def generator_command(front_end):
    """cs349-gen's subcommand (and form) for programs of `front_end`."""
    if front_end == "cs349":
        return ["random"]
    return ["random-import", "--form", front_end]


def parse_seeds(text):
    if ":" in text:
        first, last = text.split(":", 1)
        return range(int(first), int(last))
    return range(int(text), int(text) + 1)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--seeds", default="0:50",
                        help="FIRST:END (END excluded) or one seed "
                             "(default 0:50)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="programs checked in parallel (default 2)")
    parser.add_argument("--tools", default=os.path.join(here, "..", "build",
                                                        "bin"),
                        help="directory of cs349-gen, cs349-opt, cs349-run "
                             "(default build/bin)")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds per tool invocation (default 120)")
    parser.add_argument("--out", default="difftest-findings",
                        help="directory for the findings' programs "
                             "(default difftest-findings)")
    parser.add_argument("--ops", default="3:40",
                        help="cs349-gen random --ops (default 3:40)")
    parser.add_argument("--front-end", default="cs349",
                        choices=["cs349", "tosa", "linalg"],
                        help="what the programs are written in: cs349 "
                             "(cs349-gen random, the default), or TOSA or "
                             "linalg on tensors (cs349-gen random-import), "
                             "which every pipeline imports first")
    parser.add_argument("--dtype", default="f32", choices=["f32"],
                        help="element type (the tolerances are f32's)")
    parser.add_argument("--without", default="",
                        help="cs349-gen random --without: steps or features "
                             "to leave out")
    parser.add_argument("--pipelines", default="",
                        help="comma-separated pipeline names to run "
                             "(default all; --list-pipelines shows them)")
    parser.add_argument("--list-pipelines", action="store_true")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="print a progress line to stderr every N "
                             "programs (default: never)")
    parser.add_argument("--run-args", default="",
                        help="extra cs349-run arguments for every run, e.g. "
                             "'-O 0' (JIT compiles twice as fast)")
    parser.add_argument("--compile-only", action="store_true",
                        help="run each pipeline and the lowering to LLVM "
                             "but not the program: finds crashes, sanitizer "
                             "reports and rejections, not wrong numbers")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--minimize-seconds", type=float, default=120,
                        help="time to shrink each finding (0: keep the "
                             "program as generated; default 120)")
    parser.add_argument("--fast", action="store_true",
                        help="check with cs349-difftest (the same pipelines "
                             "and comparisons, in-process: a few times "
                             "faster), then check and minimize each seed it "
                             "reports with the tools themselves")
    args = parser.parse_args()

    try:
        load_pipelines(args.tools, args.front_end)
    except HarnessError as error:
        print("difftest: error: %s" % error, file=sys.stderr)
        return 2
    rows = pipelines()
    if args.list_pipelines:
        for name, opt, run, reference, exact in rows:
            print("%-28s cs349-opt %s%s   %s %s" % (
                name, opt, (" | cs349-run " + run) if run else "",
                "bit-exact vs" if exact else "tolerance vs",
                reference or "the program as written"))
        return 0
    if args.pipelines:
        wanted = args.pipelines.split(",")
        unknown = [w for w in wanted if w not in [r[0] for r in rows]]
        if unknown:
            parser.error("unknown pipeline(s): " + ", ".join(unknown))
        rows = [r for r in rows if r[0] in wanted]

    gen_args = ["--ops", args.ops]
    if args.front_end == "cs349":
        gen_args += ["--dtype", args.dtype]
    if args.without:
        gen_args += ["--without", args.without]
    tools = Tools(args)
    for tool in ("cs349-gen", "cs349-opt", "cs349-run", "cs349-difftest"):
        if not os.access(tools.path(tool), os.X_OK):
            parser.error("no executable %s in %s" % (tool, tools.dir))

    counter = Counter()
    seeds = parse_seeds(args.seeds)
    started = time.monotonic()
    try:
        if args.fast:
            reports = run_fast(args, tools, seeds, gen_args, rows, counter)
        else:
            reports = run_seeds(args, tools, seeds, gen_args, rows, counter,
                                started)
    except HarnessError as error:
        print("difftest: error: %s" % error, file=sys.stderr)
        return 2
    report_summary(counter, rows, reports, started)
    return 1 if reports else 0


def run_seeds(args, tools, seeds, gen_args, rows, counter, started):
    reports = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(test_seed, tools, seed, gen_args, rows,
                               counter, args): seed for seed in seeds}
        for done, future in enumerate(
                concurrent.futures.as_completed(futures), 1):
            if args.progress and done % args.progress == 0:
                print("difftest: %d/%d programs, %d checks, %d findings, "
                      "%.0f s" % (done, len(futures), counter.checks,
                                  len(reports), time.monotonic() - started),
                      file=sys.stderr, flush=True)
            for seed, finding, program in future.result():
                path = write_report(args.out, seed, finding, program,
                                    gen_args, args.front_end)
                first = finding.detail.splitlines()[0] if finding.detail \
                    else ""
                print("FINDING seed %d pipeline %s: %s: %s\n  program: %s" % (
                    seed, finding.pipeline, finding.kind, first, path),
                    flush=True)
                reports.append((seed, finding))
    return reports


FAST_FINDING = re.compile(r"^FINDING seed (\d+) pipeline (\S+): ([\w-]+): (.*)$")


def run_fast(args, tools, seeds, gen_args, rows, counter):
    """cs349-difftest over the seeds; each seed it reports is checked again
    with the tools and minimized, as without --fast. A finding the tools do
    not reproduce is still reported (with the program as generated): the
    in-process check runs the same passes and lowering, so a difference
    between the two is a finding too."""
    optimization = "2"
    run_args = args.run_args.split()
    for index, word in enumerate(run_args):
        if word == "-O" and index + 1 < len(run_args):
            optimization = run_args[index + 1]
        elif word.startswith("-O") and len(word) > 2:
            optimization = word[2:].lstrip("=")
    argv = [tools.path("cs349-difftest"), "--seeds",
            "%d:%d" % (seeds.start, seeds.stop), "--jobs", str(args.jobs),
            "--ops", args.ops, "--front-end", args.front_end,
            "--pipelines", ",".join(r[0] for r in rows),
            "--rtol", repr(args.rtol), "--atol", repr(args.atol),
            "-O", optimization, "--timeout", str(int(max(args.timeout, 1) *
                                                      len(rows)))]
    if args.without:
        argv += ["--without", args.without]
    if args.progress:
        argv += ["--progress", str(args.progress)]
    flagged = {}
    summary = None
    with subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) as fast:
        for line in fast.stdout:
            match = FAST_FINDING.match(line.rstrip("\n"))
            if match:
                seed = int(match.group(1))
                flagged.setdefault(seed, []).append(Finding(
                    match.group(3), match.group(2), match.group(4)))
            elif line.startswith("cs349-difftest: "):
                summary = line.strip()
    if fast.returncode not in (0, 1) or summary is None:
        raise HarnessError("cs349-difftest exited with %s" % fast.returncode)
    numbers = re.match(r"cs349-difftest: (\d+) programs, (\d+) pipeline",
                       summary)
    counter.add(programs=int(numbers.group(1)), checks=int(numbers.group(2)))
    reports = []
    for seed in sorted(flagged):
        confirmed = test_seed(tools, seed, gen_args, rows, Counter(), args)
        found = {(f.kind, f.pipeline) for _, f, _ in confirmed}
        for finding in flagged[seed]:
            if (finding.kind, finding.pipeline) not in found:
                finding.detail = ("in-process only (the tools did not "
                                  "reproduce it): " + finding.detail)
                program = tools.generate(seed, gen_args)
                confirmed.append((seed, finding, program))
        for seed_, finding, program in confirmed:
            path = write_report(args.out, seed_, finding, program, gen_args,
                                args.front_end)
            first = finding.detail.splitlines()[0] if finding.detail else ""
            print("FINDING seed %d pipeline %s: %s: %s\n  program: %s" % (
                seed_, finding.pipeline, finding.kind, first, path),
                flush=True)
            reports.append((seed_, finding))
    return reports


def report_summary(counter, rows, reports, started):
    elapsed = time.monotonic() - started
    kinds = {}
    for _, finding in reports:
        kinds[finding.kind] = kinds.get(finding.kind, 0) + 1
    print("difftest: %d programs, %d pipeline checks (%d pipelines), "
          "%d findings%s in %.0f s" % (
              counter.programs, counter.checks, len(rows), len(reports),
              (" (" + ", ".join("%s %d" % kv for kv in sorted(kinds.items()))
               + ")") if kinds else "", elapsed))


if __name__ == "__main__":
    sys.exit(main())
