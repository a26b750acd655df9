#!/usr/bin/env bash
# Import benchmark: how long `cs349-opt --import --optimize --fuse
# --plan-memory` takes on a whole decoder written in TOSA the way front ends
# export it (make-decoder.py: batch of one, 4-D attention, GQA as a 5-D
# broadcast, reciprocal · mul softmax, sigmoid · x), against parse-and-print
# of the same file.
#
#   bench/import/run.sh
#
# Environment:
#   BUILD_DIR  build tree (default <repo>/build, built with scripts/build.sh)
#   LAYERS     decoder layers (default 32)
#   ROPE=1     with rotary embeddings as BuddyNext writes them (make-decoder.py --rope)
#   REPS       repetitions of each command (default 7); the median is reported
#   TARGET     the largest acceptable median, in seconds (default 2)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
layers=${LAYERS:-32}
reps=${REPS:-7}
target=${TARGET:-2}

TARGETS="cs349-opt" "$root/scripts/build.sh" "$build" >/dev/null
opt=$build/bin/cs349-opt
[[ -x $opt ]] || { echo "run.sh: error: $opt was not built" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rope=()
[[ ${ROPE:-0} == 1 ]] && rope=(--rope)
python3 "$root/bench/import/make-decoder.py" "$layers" "${rope[@]}" >"$tmp/model.mlir"

# The plan the benchmark times must be right: verify it once.
"$opt" "$tmp/model.mlir" --import --optimize --fuse --plan-memory \
  --verify-memory-plan -o "$tmp/planned.mlir"
echo "Import of a $layers-layer TOSA decoder: $(grep -c ' = ' "$tmp/model.mlir") ops in," \
  "$(grep -c 'cs349.kernel' "$tmp/planned.mlir") kernels out," \
  "$(grep -c 'cs349.opaque' "$tmp/planned.mlir") opaque"
grep -o '#cs349.arena<[^>]*>' "$tmp/planned.mlir" | sed 's/^/  /'

python3 - "$opt" "$tmp" "$reps" "$target" <<'PY'
import statistics, subprocess, sys, time
opt, tmp, reps, target = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
commands = {
    "import + optimize + fuse + plan": ["--import", "--optimize", "--fuse", "--plan-memory"],
    "import only": ["--import"],
    "parse and print": [],
}
times = {name: [] for name in commands}
# Interleaved, so that load from other users of the machine hits all alike.
for _ in range(reps):
    for name, flags in commands.items():
        cmd = [opt, f"{tmp}/model.mlir", *flags, "-o", f"{tmp}/out.mlir"]
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - start)
print(f"wall time, median (min) of {reps} runs:")
for name, ts in times.items():
    print(f"  {statistics.median(ts):7.3f} s ({min(ts):.3f} s)  {name}")
pipeline = statistics.median(times["import + optimize + fuse + plan"])
print(f"target: under {target:g} s: {'ok' if pipeline < target else 'ABOVE'}")
sys.exit(0 if pipeline < target else 1)
PY
