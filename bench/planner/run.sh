#!/usr/bin/env bash
# Planner benchmark: every strategy on every CSV of the bench data set, then a
# scaling run on synthetic problems (1k, 10k, 100k buffers).
#
#   bench/planner/run.sh [BENCH_DATA_DIR]
#
# Needs cmake, ninja, g++ and python3 (no LLVM): it runs
# `scripts/setup.sh planner-bench` first, which installs what is missing.
#
# Environment:
#   BENCH_DATA   data directory (default: <repo>/bench/data; its README.md
#                gives the best known peaks the quality table compares with)
#   BUILD_DIR    a configured build tree with a cs349-plan target (default:
#                a standalone planner build in <repo>/build-planner-bench)
#   CXX          compiler of a new standalone build (default g++)
#   TIME_LIMIT   seconds for the search strategies (default 6)
#   REPS         repetitions of the fast strategies, median reported (default 5)
#   STRATEGIES   space-separated subset (default: all)
#   SCALING=0    skip the scaling benchmark
#   LARGE=0      skip the large problems (most buffers live at once)
#   LARGE_TIME_LIMIT  seconds for best on them (default 10)
#   LARGE_TIMEOUT     seconds after which a greedy-by-size or best-fit run
#                on them is stopped and reported as "> N s" (default 300;
#                greedy orders other than the sweeps, by start or end,
#                whole or per size class, are still superlinear where most
#                buffers live at once)
#   CS349_OPT, CS349_GEN  tools of a main build (default <repo>/build/bin):
#                the 1000-layer initializer's problem comes from them and is
#                left out when they are missing
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bash "$root/scripts/setup.sh" planner-bench || { echo "run.sh: error: setup failed" >&2; exit 1; }
data=${1:-${BENCH_DATA:-$root/bench/data}}
time_limit=${TIME_LIMIT:-6}
reps=${REPS:-5}
strategies=${STRATEGIES:-"naive greedy-by-size best-fit search best"}

# --- build -----------------------------------------------------------------
# The planner needs no LLVM: by default a standalone Release build of just the
# planner and cs349-plan (bench/planner/CMakeLists.txt) is used, so that the
# benchmark does not depend on the rest of the tree configuring.
build=${BUILD_DIR:-$root/build-planner-bench}
if [[ -f $build/build.ninja ]]; then
  touch "$build/.build.lock"
  flock "$build/.build.lock" ninja -C "$build" -j2 cs349-plan >/dev/null
else
  CXX=${CXX:-g++} cmake -G Ninja -S "$root/bench/planner" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$build" -j2 cs349-plan >/dev/null
fi
plan=$build/bin/cs349-plan
[[ -x $plan ]] || { echo "run.sh: error: $plan was not built" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- quality: every strategy on every file -----------------------------------
results=$tmp/results.tsv
: >"$results"
mapfile -t files < <(find "$data" -name '*.csv' | sort)
for f in "${files[@]}"; do
  for s in $strategies; do
    args=(--strategy="$s" --time-limit="$time_limit")
    case $s in
      search|best) args+=(--repeat=1) ;;
      *) args+=(--repeat="$reps") ;;
    esac
    out=$("$plan" "${args[@]}" "$f") || { echo "run.sh: error: $s failed on $f" >&2; exit 1; }
    printf '%s\t%s\t%s\n' "${f#"$data"/}" "$s" "$(echo "$out" | tr '\n' '|')" >>"$results"
  done
done

python3 - "$results" "$data" <<'PY'
import re, sys, os
results, data = sys.argv[1], sys.argv[2]
# Best known peaks from the data set's README tables (the "best known"
# column of each table; "<= X" counts as X).
best = {}
readme = os.path.join(data, "README.md")
if os.path.exists(readme):
    col = None
    for line in open(readme):
        if not line.lstrip().startswith("|"):
            col = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        heads = [c.lower() for c in cells]
        if any(h.startswith("best known") for h in heads):
            col = next(i for i, h in enumerate(heads) if h.startswith("best known"))
        elif col is not None and cells[0].endswith(".csv") and len(cells) > col:
            m = re.search(r"\d+", cells[col].replace(",", ""))
            if m:
                best[cells[0]] = int(m.group())
rows = []
for line in open(results):
    name, strat, report = line.rstrip("\n").split("\t")
    kv = {}
    for item in report.split("|"):
        if ":" in item:
            k, v = item.split(":", 1)
            kv[k.strip()] = v.strip()
    peak = int(kv["arena"]); lb = int(kv["lower bound"])
    bk = best.get(os.path.basename(name))
    gap_lb = 100.0 * (peak - lb) / lb if lb else 0.0
    gap_bk = "%+.2f" % (100.0 * (peak - bk) / bk) if bk else "-"
    t = float(kv["time"].split()[0])
    rows.append((name, kv["buffers"], strat, str(peak), "%.2f" % gap_lb, gap_bk,
                 "%.1f" % t if t >= 10 else "%.3f" % t, kv["verified"]))
hdr = ("file", "buffers", "strategy", "peak", "gap LB %", "gap best %", "time ms", "verified")
w = [max(len(r[i]) for r in rows + [hdr]) for i in range(len(hdr))]
fmt = lambda r: "  ".join(c.rjust(w[i]) if i in (1, 3, 4, 5, 6) else c.ljust(w[i]) for i, c in enumerate(r))
print("Quality (time: median of REPS runs for naive/greedy-by-size/best-fit; one run for search/best)")
print(fmt(hdr)); print("  ".join("-" * x for x in w))
prev = None
for r in rows:
    print(fmt(r))
PY

# --- scaling: synthetic problems ---------------------------------------------
if [[ ${SCALING:-1} != 0 ]]; then
  echo
  echo "Scaling (synthetic: cs349-plan --generate=N --seed=1, alignment 64; median of $reps runs)"
  printf '%-8s %-15s %10s %8s %12s %20s\n' buffers strategy "time ms" "gap LB %" "verified" "ns / (n log2 n)"
  for n in 1000 10000 100000; do
    "$plan" --generate=$n --seed=1 -o "$tmp/gen$n.csv"
    for s in greedy-by-size best-fit; do
      out=$("$plan" --strategy=$s --alignment=64 --repeat="$reps" "$tmp/gen$n.csv")
      t=$(echo "$out" | awk '/^time:/{print $2}')
      g=$(echo "$out" | awk '/^gap:/{print $2}')
      v=$(echo "$out" | awk '/^verified:/{print $2}')
      per=$(python3 -c "import math; print('%.1f' % ($t*1e6/($n*math.log2($n))))")
      printf '%-8s %-15s %10s %8s %12s %20s\n' $n $s "$t" "$g" "$v" "$per"
    done
  done
fi

# --- large: most buffers live at once ------------------------------------------
# Generated with fixed seeds (nothing large is committed): the initializer of
# a 1000-layer model from the compiler itself, long lifetimes, results that
# all live to the end, training steps.  Each run is timed as a whole process
# (wall), since --time-limit promises the whole call.
if [[ ${LARGE:-1} != 0 ]]; then
  large_limit=${LARGE_TIME_LIMIT:-10}
  opt=${CS349_OPT:-$root/build/bin/cs349-opt}
  gen=${CS349_GEN:-$root/build/bin/cs349-gen}
  "$plan" --generate=60000 --seed=1 --lifetimes=long --sizes=few -o "$tmp/long-60k.csv"
  "$plan" --generate=60000 --seed=2 --lifetimes=to-end --sizes=few -o "$tmp/to-end-60k.csv"
  "$plan" --generate=28000 --seed=3 --lifetimes=training -o "$tmp/training-28k.csv"
  "$plan" --generate=62000 --seed=4 --lifetimes=long -o "$tmp/long-62k-log.csv"
  large=("$tmp/long-60k.csv" "$tmp/to-end-60k.csv" "$tmp/training-28k.csv" "$tmp/long-62k-log.csv")
  if [[ -x $opt && -x $gen ]]; then
    # The initializer's results all live to the end: its plan is the
    # problem (first/last kernel of each buffer from the JSON report).
    "$gen" layer --preset llama3.1-8b --seq 8192 --layers 1000 >"$tmp/l1000.mlir"
    "$opt" "$tmp/l1000.mlir" --optimize --fuse "--plan-memory=report=$tmp/l1000.json" -o /dev/null
    python3 - "$tmp/l1000.json" "$tmp/init-1000-layers.csv" <<'PY'
import json, sys
functions = json.load(open(sys.argv[1]))
f = next(f for f in functions if f["name"].endswith("_init"))
with open(sys.argv[2], "w") as out:
    out.write("id,lower,upper,size\n")
    for i, b in enumerate(f["buffers"]):
        out.write(f"{i},{b['first']},{b['last'] + 1},{b['bytes']}\n")
PY
    large+=("$tmp/init-1000-layers.csv")
  fi
  echo
  echo "Large problems (alignment 64; one core; wall = whole cs349-plan process, median of 3 for greedy-by-size/best-fit)"
  large_timeout=${LARGE_TIMEOUT:-300}
  printf '%-22s %8s %-22s %8s %10s %10s\n' problem buffers strategy "gap LB %" "plan ms" "wall ms"
  for f in "${large[@]}"; do
    for s in greedy-by-size best-fit best; do
      args=(--strategy=$s --alignment=64 --time-limit="$large_limit")
      runs=3; [[ $s == best ]] && runs=1
      walls=()
      out=
      for ((r = 0; r < runs; ++r)); do
        t0=$(date +%s%N)
        if ! out=$(taskset -c 0 timeout "$large_timeout" "$plan" "${args[@]}" "$f"); then
          out=timeout
          break
        fi
        walls+=($(( ($(date +%s%N) - t0) / 1000000 )))
      done
      if [[ $out == timeout ]]; then
        printf '%-22s %8s %-22s %8s %10s %10s\n' "$(basename "$f" .csv)" - $s - \
          "> ${large_timeout} s" -
        continue
      fi
      wall=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
      printf '%-22s %8s %-22s %8s %10s %10s\n' "$(basename "$f" .csv)" \
        "$(echo "$out" | awk '/^buffers:/{print $2}')" $s \
        "$(echo "$out" | awk '/^gap:/{print $2}')" \
        "$(echo "$out" | awk '/^time:/{print $2}')" "$wall"
    done
  done
fi
