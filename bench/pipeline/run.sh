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
# other users of the machine hits both alike. Two times are reported:
#   wall      the whole process, as a user sees it (includes loading the
#             MLIR shared libraries and registering dialects, ~0.1 s here)
#   in-proc   MLIR's own -mlir-timing total (parser + passes + output), the
#             stricter comparison: start-up costs the same for both and is
#             left out
# Medians over REPS runs, and the ratio pipeline / parse-and-print.
#
# Environment:
#   BUILD_DIR  build tree (default <repo>/build, built with scripts/build.sh)
#   PRESET     cs349-gen preset (default llama3.1-8b)
#   SEQ        sequence length (default 8192)
#   LAYERS     number of layers (default 32)
#   REPS       repetitions per command (default 7)
#   TARGET     ratio the issue asks for at most (default 3)
set -euo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
build=${BUILD_DIR:-$root/build}
preset=${PRESET:-llama3.1-8b}
seq=${SEQ:-8192}
layers=${LAYERS:-32}
reps=${REPS:-7}
target=${TARGET:-3}

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

# The plans the benchmark times must be right: verify them once.
"$opt" "$tmp/model.mlir" --optimize --fuse --plan-memory --verify-memory-plan \
  -o "$tmp/planned.mlir"

echo "Whole pipeline vs parse-and-print: cs349-gen layer --preset $preset --seq $seq --layers $layers"
echo "input: $(wc -c <"$tmp/model.mlir") bytes, $(grep -c '= cs349\.' "$tmp/model.mlir") cs349 ops;" \
  "planned output: $(wc -c <"$tmp/planned.mlir") bytes, $(grep -c 'cs349.kernel' "$tmp/planned.mlir") kernels"
grep -o '@[A-Za-z0-9_]*(\|cs349.arena = #cs349.arena<[^>]*>' "$tmp/planned.mlir" \
  | paste -sd' ' | sed 's/ \(@\)/\n\1/g; s/^/  /'
echo "median of $reps runs each, both writing the module to a file; machine: $(nproc) cores"
echo

python3 - "$opt" "$tmp" "$reps" "$target" <<'PY'
import re, statistics, subprocess, sys, time

opt, tmp, reps, target = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
model, optimized = f"{tmp}/model.mlir", f"{tmp}/optimized.mlir"

# (name, input, pipeline flags); the baseline is the same input, no flags.
cases = [
    ("--optimize --fuse --plan-memory", model,
     ["--optimize", "--fuse", "--plan-memory"]),
    ("--fuse --plan-memory (input already optimized)", optimized,
     ["--fuse", "--plan-memory"]),
    ("--optimize --fuse --plan-memory=strategy=best", model,
     ["--optimize", "--fuse", "--plan-memory=strategy=best"]),
    ("--optimize=attention=false --fuse --plan-memory (no FlashAttention)", model,
     ["--optimize=attention=false", "--fuse", "--plan-memory"]),
]

# "  0.0126 ( 17.2%)    0.0126 ( 20.1%)    Fuse": user time (only when
# threaded), wall time, then two spaces plus two per nesting level.
timing_line = re.compile(
    r"^\s*([0-9.]+) \(\s*[0-9.]+%\)(?:\s+([0-9.]+) \(\s*[0-9.]+%\))?  ( *)(\S.*)$")

def run(args, timing):
    out = f"{tmp}/out.mlir"
    cmd = [opt, *args, "-o", out] + (["-mlir-timing"] if timing else [])
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"run.sh: error: {' '.join(cmd)} failed:\n{p.stderr}")
    if not timing:
        return wall, None
    # The report's last time column is wall time; names keep their nesting.
    rows = []
    for line in p.stderr.splitlines():
        m = timing_line.match(line)
        if m:
            rows.append((m.group(3) + m.group(4), float(m.group(2) or m.group(1))))
    total = next(t for name, t in rows if name == "Total")
    return total, rows

def median(xs):
    return statistics.median(xs)

summary = []
for name, inp, flags in cases:
    wall = {"pipeline": [], "parse": []}
    inproc = {"pipeline": [], "parse": []}
    passes = {}
    for _ in range(reps):
        for kind, args in (("pipeline", [inp, *flags]), ("parse", [inp])):
            wall[kind].append(run(args, False)[0])
            total, rows = run(args, True)
            inproc[kind].append(total)
            if kind == "pipeline":
                for i, (pname, t) in enumerate(rows):
                    passes.setdefault((i, pname), []).append(t)
    w = {k: median(v) for k, v in wall.items()}
    p = {k: median(v) for k, v in inproc.items()}
    print(name)
    print(f"  {'':22}{'pipeline ms':>12}{'parse+print ms':>16}{'ratio':>8}")
    for label, d in (("wall (process)", w), ("in-proc (-mlir-timing)", p)):
        print(f"  {label:22}{d['pipeline']*1e3:12.1f}{d['parse']*1e3:16.1f}"
              f"{d['pipeline']/d['parse']:8.2f}")
    print("  pipeline breakdown (in-proc, median ms):")
    # Rows of different runs line up: the pass list does not depend on timing.
    for (i, pname), ts in sorted(passes.items()):
        if pname in ("Total",) or "(A)" in pname or len(ts) != reps:
            continue
        print(f"    {median(ts)*1e3:8.2f}  {pname}")
    print()
    summary.append((name, w["pipeline"] / w["parse"], p["pipeline"] / p["parse"]))

print(f"Summary (target: pipeline <= {target:g}x parse-and-print)")
for name, rw, rp in summary:
    verdict = "ok" if rp <= target else "ABOVE"
    print(f"  {rw:5.2f}x wall  {rp:5.2f}x in-proc  {verdict:5}  {name}")
PY
