#!/usr/bin/env bash
# The lecture's demos 3 and 4, every number computed by the tools, and the
# pictures of the plans:
#   demo 3: four branches y_i = tanh(x @ W_i) (x [2048,4096], W_i
#           [4096,16384]), row-summed and added, generated breadth-first and
#           depth-first, unfused and fused, and breadth-first reordered by
#           cs349-opt --schedule-memory: kernels, greedy arena, lower bound
#           (the JSON report of cs349-opt --plan-memory);
#   demo 4: the memory budget of Llama-3.1-8B (weights, KV cache, activations
#           with and without FlashAttention) at T = 2048, 8192, 32768
#           (cs349-opt --memory-budget);
#   pictures: the plan of the Llama layer at T = CS349_SEQ (default 2048)
#           unfused, fused and fused + FlashAttention, and of the branches
#           before and after scheduling (cs349-opt --plan-svg), as SVG files
#           in OUT_DIR.
# Usage: scripts/demos-3-4.sh BUILD_DIR [OUT_DIR]   (after scripts/build.sh)
#   OUT_DIR defaults to BUILD_DIR/main-job; `scripts/demos-3-4.sh build
#   docs/images` regenerates the pictures in the docs.
set -euo pipefail
build=${1:?usage: scripts/demos-3-4.sh BUILD_DIR [OUT_DIR]}
out=${2:-$build/main-job}
bin=$build/bin
for tool in cs349-gen cs349-opt; do
  if [[ ! -x $bin/$tool ]]; then
    echo "demos-3-4.sh: $bin/$tool not found: build first (scripts/build.sh $build)" >&2
    exit 1
  fi
done
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo
echo "== Demo 3: the order of the ops changes the peak (4 branches y_i = tanh(x @ W_i), each"
echo "   [2048, 16384] bf16, row-summed and added; cs349-gen branches --order breadth|depth)"
rows=(
  "breadth|as generated|--fuse=enable=false"
  "breadth|as generated|--fuse"
  "depth|as generated|--fuse=enable=false"
  "depth|as generated|--fuse"
  "breadth|--schedule-memory|--schedule-memory --fuse=enable=false"
  "breadth|--schedule-memory|--schedule-memory --fuse"
)
for order in breadth depth; do
  "$bin/cs349-gen" branches --order "$order" > "$tmp/branches-$order.mlir"
done
for index in "${!rows[@]}"; do
  IFS='|' read -r order _ flags <<< "${rows[$index]}"
  # shellcheck disable=SC2086
  "$bin/cs349-opt" "$tmp/branches-$order.mlir" $flags \
    --plan-memory=report="$tmp/branches-$index.json" -o /dev/null
done
"$bin/cs349-opt" "$tmp/branches-breadth.mlir" --fuse --plan-memory \
  --plan-svg=output="$out/branches-breadth.svg" -o /dev/null
"$bin/cs349-opt" "$tmp/branches-breadth.mlir" --schedule-memory --fuse --plan-memory \
  --plan-svg=output="$out/branches-scheduled.svg" -o /dev/null

python3 - "$(dirname "$0")" "$tmp" "${rows[@]}" <<'PY'
import sys

sys.path.insert(0, sys.argv[1])
from plan_tables import human, load_plan, print_table  # noqa: E402

tmp, rows = sys.argv[2], sys.argv[3:]


table = [["order in the code", "schedule", "partition", "kernels", "greedy arena", "lower bound"]]
arena = {}
for index, row in enumerate(rows):
    order, schedule, flags = row.split("|")
    plan = load_plan(f"{tmp}/branches-{index}.json", "branches")
    partition = "unfused" if "enable=false" in flags else "fused"
    arena[(order, schedule, partition)] = plan["arena_bytes"]
    table.append([order, schedule, partition, str(plan["kernels"]),
                  human(plan["arena_bytes"]), human(plan["lower_bound_bytes"])])
print_table(table)
b = arena[("breadth", "as generated", "fused")]
d = arena[("depth", "as generated", "fused")]
s = arena[("breadth", "--schedule-memory", "fused")]
print(f"   Fused, breadth-first keeps the four 67 MB products alive ({human(b)}); depth-first frees")
print(f"   each after its sum ({human(d)}, {b / d:.1f}x less). --schedule-memory reorders the")
print(f"   breadth-first code within its dependences and reaches {human(s)}: the compiler finds")
print(f"   the order the programmer did not write.")
PY

echo
echo "== Demo 4: the memory budget of a layer (Llama-3.1-8B, bf16, batch 1, 32 layers)"
echo "   cs349-gen layer --preset llama3.1-8b --seq T | cs349-opt --memory-budget=layers=32"
for seq in 2048 8192 32768; do
  echo "-- T = $seq"
  "$bin/cs349-gen" layer --preset llama3.1-8b --seq "$seq" \
    | "$bin/cs349-opt" --memory-budget=layers=32 -o /dev/null | tail -n +2
done
echo "   Weights do not depend on T; the KV cache grows linearly with T and stays for decoding."
echo "   Activations are temporary (the next layer reuses the arena): linear in T with"
echo "   FlashAttention, quadratic without it (the [32, T, T] scores and probabilities)."

seq=${CS349_SEQ:-2048}
echo
echo "== Pictures of the plans (kernel across, offset down; hover a rectangle for its result)"
"$bin/cs349-gen" layer --preset llama3.1-8b --seq "$seq" > "$tmp/layer.mlir"
pictures=(
  "layer-unfused|--decompose --fuse=enable=false"
  "layer-fused|--optimize=attention=false --fuse"
  "layer-fused-fa|--optimize --fuse"
)
for picture in "${pictures[@]}"; do
  # shellcheck disable=SC2086
  "$bin/cs349-opt" "$tmp/layer.mlir" ${picture#*|} --plan-memory \
    --plan-svg="output=$out/${picture%%|*}.svg functions=layer" -o /dev/null
done
for name in layer-unfused layer-fused layer-fused-fa branches-breadth branches-scheduled; do
  echo "   $out/$name.svg"
done
echo "== The fused + FlashAttention plan as an interactive page (switch to the naive and best-fit plans)"
"$bin/cs349-opt" "$tmp/layer.mlir" --optimize --fuse --plan-memory \
  --plan-html="output=$out/layer-plan.html strategies=naive,best-fit" -o /dev/null
echo "   $out/layer-plan.html"
