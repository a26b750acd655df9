#!/usr/bin/env bash
# Whole-pipeline benchmark: how long cs349-opt takes to optimize, fuse and
# plan a whole model, against plain parse-and-print of the same IR.
#
#   bench/pipeline/run.sh
#
# The IR is generated once (cs349-gen layer --preset PRESET --seq SEQ
# --layers LAYERS) into a temporary file. Every case runs a pipeline and the
# parse-and-print baseline on the same input, both writing the module to a
# file (same output mode), REPS times each, interleaved so that load from
# other users of the machine hits both alike, every run pinned to one core
# (the lowest this process may use; MLIR then sizes its thread pool to it).
# Reported, as pipeline / parse-and-print ratios:
#   wall      the whole process, as a user sees it (includes loading the
#             MLIR shared libraries and registering dialects, ~0.1 s here);
#             the measure the 3x target is about. Median and minimum over REPS runs.
#   in-proc   MLIR's own -mlir-timing total (parser + passes + output):
#             start-up costs the same for both and is left out, so this is
#             the stricter comparison.
#   instr     instructions inside MlirOptMain's performActions (parse,
#             passes, print), single-threaded, counted by callgrind:
#             deterministic where times on a shared machine are not.
#
# Environment:
#   BUILD_DIR  build tree (default <repo>/build, built with scripts/build.sh)
#   PRESET     cs349-gen preset (default llama3.1-8b)
#   SEQ        sequence length (default 8192)
#   LAYERS     number of layers (default 32)
#   REPS       repetitions per command (default 7)
#   TARGET     the largest acceptable wall-time ratio (default 3)
#   FUNCTIONS  also time a module of this many one-layer functions (@layer0,
#              @layer1, ...; as front ends that export a function per layer
#              write them) against its parse-and-print (default 400; 0 skips)
#   INSTRUCTIONS=0  skip the instruction counts (valgrind; ~30 s)
#
# Needs the main build's packages and, for the instruction counts, valgrind:
# it runs `scripts/setup.sh pipeline-bench` (or `build` with INSTRUCTIONS=0)
# first, which installs what is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
preset=${PRESET:-llama3.1-8b}
seq=${SEQ:-8192}
layers=${LAYERS:-32}
reps=${REPS:-7}
target=${TARGET:-3}
instructions=${INSTRUCTIONS:-1}
if [[ $instructions == 1 ]]; then setup=pipeline-bench; else setup=build; fi
bash "$root/scripts/setup.sh" "$setup" || { echo "run.sh: error: setup failed" >&2; exit 1; }
if [[ $instructions == 1 ]] && ! command -v valgrind >/dev/null; then
  echo "run.sh: error: valgrind not found (INSTRUCTIONS=0 skips the instruction counts)" >&2
  exit 1
fi

# --- build (the shared build dir is locked by scripts/build.sh) --------------
TARGETS="cs349-opt cs349-gen" "$root/scripts/build.sh" "$build" >/dev/null
opt=$build/bin/cs349-opt
gen=$build/bin/cs349-gen
for t in "$opt" "$gen"; do
  [[ -x $t ]] || { echo "run.sh: error: $t was not built" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- inputs --------------------------------------------------------------------
"$gen" layer --preset "$preset" --seq "$seq" --layers "$layers" >"$tmp/model.mlir"
"$opt" "$tmp/model.mlir" --optimize -o "$tmp/optimized.mlir"

functions=${FUNCTIONS:-400}
if (( functions > 0 )); then
  "$gen" layer --preset "$preset" --seq "$seq" --locations=false >"$tmp/one-layer.mlir"
  python3 - "$tmp/one-layer.mlir" "$functions" >"$tmp/functions.mlir" <<'PY'
import sys
lines = open(sys.argv[1]).read().strip().splitlines(True)
assert lines[0].startswith("module {") and lines[-1] == "}", "unexpected cs349-gen output"
body = "".join(lines[1:-1])
print("module {")
for k in range(int(sys.argv[2])):
    sys.stdout.write(body.replace("func.func @layer(", f"func.func @layer{k}(", 1))
print("}")
PY
fi

# The plans the benchmark times must be right: verify them once.
"$opt" "$tmp/model.mlir" --optimize --fuse --plan-memory --verify-memory-plan \
  -o "$tmp/planned.mlir"

echo "Whole pipeline vs parse-and-print: cs349-gen layer --preset $preset --seq $seq --layers $layers"
echo "input: $(wc -c <"$tmp/model.mlir") bytes, $(grep -c '= cs349\.' "$tmp/model.mlir") cs349 ops;" \
  "planned output: $(wc -c <"$tmp/planned.mlir") bytes, $(grep -c 'cs349.kernel' "$tmp/planned.mlir") kernels"
grep '^ *func.func' "$tmp/planned.mlir" \
  | sed -n 's/^ *func.func \(@[A-Za-z0-9_]*\)(.*\(#cs349.arena<[^>]*>\).*/  \1: \2/p'
echo "median of $reps runs each, both writing the module to a file, pinned to one core of $(nproc)"
echo

python3 - "$opt" "$tmp" "$reps" "$target" "$instructions" "$functions" <<'PY'
import os, re, shutil, statistics, subprocess, sys, time

opt, tmp, reps, target = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
instructions = sys.argv[5] == "1"
functions = int(sys.argv[6])
inputs = {"model": f"{tmp}/model.mlir", "optimized": f"{tmp}/optimized.mlir"}

# (name, input, pipeline flags); the baseline is the same input, no flags.
cases = [
    ("--optimize --fuse --plan-memory", "model",
     ["--optimize", "--fuse", "--plan-memory"]),
    ("--fuse --plan-memory (input already optimized)", "optimized",
     ["--fuse", "--plan-memory"]),
    ("--optimize --fuse --plan-memory=strategy=best", "model",
     ["--optimize", "--fuse", "--plan-memory=strategy=best"]),
    ("--optimize=attention=false --fuse --plan-memory (no FlashAttention)", "model",
     ["--optimize=attention=false", "--fuse", "--plan-memory"]),
    # mlir-opt verifies the whole module after every pass by default: this
    # case shows what that costs (the baseline verifies once, after parsing).
    ("--optimize --fuse --plan-memory -verify-each=0", "model",
     ["--optimize", "--fuse", "--plan-memory", "-verify-each=0"]),
]
if functions > 0:
    inputs["functions"] = f"{tmp}/functions.mlir"
    cases.append((f"--optimize --fuse --plan-memory ({functions} one-layer functions)",
                  "functions", ["--optimize", "--fuse", "--plan-memory"]))
# Every command of one repetition runs back to back, so that a burst of load
# from other users of the machine hits a pipeline and its baseline alike.
commands = {("parse", key): [path] for key, path in inputs.items()}
for name, key, flags in cases:
    commands[("pipeline", name)] = [inputs[key], *flags]

# "  0.0126 ( 17.2%)    0.0126 ( 20.1%)    Fuse": user time (only when
# threaded), wall time, then two spaces plus two per nesting level.
timing_line = re.compile(
    r"^\s*([0-9.]+) \(\s*[0-9.]+%\)(?:\s+([0-9.]+) \(\s*[0-9.]+%\))?  ( *)(\S.*)$")

# The target is about one core: a second core would let the pipeline run
# its two functions' passes side by side, which parse-and-print cannot.
core = min(os.sched_getaffinity(0))

def run(args, extra=(), prefix=()):
    cmd = [*prefix, opt, *args, "-o", f"{tmp}/out.mlir", *extra]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       preexec_fn=lambda: os.sched_setaffinity(0, {core}))
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"run.sh: error: {' '.join(cmd)} failed:\n{p.stderr}")
    return wall, p.stderr

def timing_rows(stderr):
    # The report's last time column is wall time; names keep their nesting.
    rows = []
    for line in stderr.splitlines():
        m = timing_line.match(line)
        if m:
            rows.append((m.group(3) + m.group(4), float(m.group(2) or m.group(1))))
    return rows

wall = {c: [] for c in commands}
inproc = {c: [] for c in commands}
passes = {c: {} for c in commands}
for _ in range(reps):
    for c, args in commands.items():
        wall[c].append(run(args)[0])
        rows = timing_rows(run(args, ["-mlir-timing"])[1])
        inproc[c].append(next(t for name, t in rows if name == "Total"))
        for i, (pname, t) in enumerate(rows):
            passes[c].setdefault((i, pname), []).append(t)

# Instructions executed inside MlirOptMain's performActions (parse, passes,
# print; start-up excluded), single-threaded so that callgrind sees all of
# them: deterministic, unlike times on a shared machine.
instr = {}
if instructions:
    for c, args in commands.items():
        err = run(args, ["-mlir-disable-threading"],
                  ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                   "--toggle-collect=performActions*"])[1]
        m = re.search(r"Collected : (\d+)", err)
        instr[c] = int(m.group(1)) if m else None

med = statistics.median
summary = []
for name, key, flags in cases:
    c, b = ("pipeline", name), ("parse", key)
    print(name)
    print(f"  {'':24}{'pipeline':>12}{'parse+print':>13}{'ratio':>8}")
    rows = [("wall, median ms", med(wall[c]) * 1e3, med(wall[b]) * 1e3),
            ("wall, min ms", min(wall[c]) * 1e3, min(wall[b]) * 1e3),
            ("in-proc, median ms", med(inproc[c]) * 1e3, med(inproc[b]) * 1e3),
            ("in-proc, min ms", min(inproc[c]) * 1e3, min(inproc[b]) * 1e3)]
    if instr.get(c) and instr.get(b):
        rows.append(("in-proc, M instructions", instr[c] / 1e6, instr[b] / 1e6))
    for label, x, y in rows:
        print(f"  {label:24}{x:12.1f}{y:13.1f}{x / y:8.2f}")
    print("  pipeline breakdown (in-proc, median ms):")
    # Rows of different runs line up: the pass list does not depend on timing.
    for (i, pname), ts in sorted(passes[c].items()):
        if pname == "Total" or "(A)" in pname or len(ts) != reps:
            continue
        print(f"    {med(ts) * 1e3:8.2f}  {pname}")
    print()
    ratios = [med(wall[c]) / med(wall[b]), med(inproc[c]) / med(inproc[b])]
    ratios.append(instr[c] / instr[b] if instr.get(c) and instr.get(b) else None)
    summary.append((name, ratios))

print(f"Summary: pipeline / parse-and-print (target: at most {target:g}x, wall)")
print(f"  {'wall':>6} {'in-proc':>8} {'instr':>6}")
for name, (rw, rp, ri) in summary:
    ri_text = f"{ri:6.2f}" if ri else f"{'-':>6}"
    verdict = "ok" if rw <= target else "ABOVE"
    print(f"  {rw:6.2f} {rp:8.2f} {ri_text}  {verdict:5}  {name}")
PY
