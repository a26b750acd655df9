#!/usr/bin/env bash
# The lecture's demos 1 and 2, every number computed by the tools:
#   demo 1: the small layer (d=128, T=16) optimized with FlashAttention, fused
#           and planned: each written result, its producer, shape, size,
#           first/last kernel and offset; naive / greedy / lower bound
#           (cs349-opt --memory-report);
#   demo 2: one Llama-3.1-8B layer at T = 512, 2048, 8192: unfused / fused /
#           fused + FlashAttention, with the written results, the naive size,
#           the greedy arena and the lower bound (the JSON report of
#           cs349-opt --plan-memory, read with python3's json module).
# Usage: scripts/lecture-demos.sh BUILD_DIR   (after scripts/build.sh)
set -euo pipefail
build=${1:?usage: scripts/lecture-demos.sh BUILD_DIR}
bin=$build/bin
for tool in cs349-gen cs349-opt; do
  if [[ ! -x $bin/$tool ]]; then
    echo "lecture-demos.sh: $bin/$tool not found: build first (scripts/build.sh $build)" >&2
    exit 1
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo
echo "== Demo 1: the small layer (d=128, H=8, G=2, dh=16, f=344, T=16), fused + FlashAttention"
echo "   cs349-gen layer --preset tiny --seq 16 | cs349-opt --optimize --fuse --plan-memory=alignment=1 --memory-report"
"$bin/cs349-gen" layer --preset tiny --seq 16 \
  | "$bin/cs349-opt" --optimize --fuse --plan-memory=alignment=1 --memory-report -o /dev/null \
  | sed -n '/^@layer:/,/^naive /p'
echo "   Only written results need memory; a result lives from the kernel that writes it to the"
echo "   last kernel that reads it. Greedy-by-size places the largest first, each at the lowest"
echo "   offset free of every placed result whose lifetime overlaps."

echo
echo "== Demo 2: Llama-3.1-8B, one layer, prefill activations (bf16; weights and x not counted)"
modes=(
  "unfused|--decompose --fuse=enable=false"
  "fused|--optimize=attention=false --fuse"
  "fused + FlashAttention|--optimize --fuse"
)
for seq in 512 2048 8192; do
  "$bin/cs349-gen" layer --preset llama3.1-8b --seq "$seq" > "$tmp/layer-$seq.mlir"
  for index in "${!modes[@]}"; do
    # shellcheck disable=SC2086
    "$bin/cs349-opt" "$tmp/layer-$seq.mlir" ${modes[$index]#*|} \
      --plan-memory=report="$tmp/plan-$seq-$index.json" -o /dev/null
  done
done

python3 - "$(dirname "$0")" "$tmp" "${modes[@]%%|*}" <<'PY'
import sys

sys.path.insert(0, sys.argv[1])
from plan_tables import human, load_plan, print_table  # noqa: E402

tmp, names = sys.argv[2], sys.argv[3:]


rows = [["T", "partition", "written results", "naive", "greedy", "lower bound"]]
plans = {}
for seq in (512, 2048, 8192):
    for index, name in enumerate(names):
        layer = load_plan(f"{tmp}/plan-{seq}-{index}.json", "layer")
        plans[(seq, name)] = layer
        rows.append([str(seq), name, str(len(layer["buffers"])),
                     human(layer["naive_bytes"]), human(layer["arena_bytes"]),
                     human(layer["lower_bound_bytes"])])
print_table(rows)

unfused, fused, flash = names
u, f2, f8, a2, a8 = (plans[(2048, unfused)], plans[(2048, fused)],
                     plans[(8192, fused)], plans[(2048, flash)],
                     plans[(8192, flash)])
print(f"   Reuse: at T=2048 the {len(u['buffers'])} unfused results add up to "
      f"{human(u['naive_bytes'])}; greedy reuse needs {human(u['arena_bytes'])}.")
print(f"   Fusion writes {len(f2['buffers'])} results instead of {len(u['buffers'])} "
      f"(naive {human(f2['naive_bytes'])}) but the peak stays {human(f2['arena_bytes'])}: "
      f"two [32,T,T] tensors are live at the softmax.")
print(f"   FlashAttention at T=8192: {human(f8['arena_bytes'])} -> {human(a8['arena_bytes'])}. "
      f"T x4 (2048 -> 8192): peak x{f8['arena_bytes'] / f2['arena_bytes']:.1f} without it, "
      f"x{a8['arena_bytes'] / a2['arena_bytes']:.1f} with it.")
PY
