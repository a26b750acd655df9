#!/usr/bin/env bash
# The main job: sets up, builds, and runs cs349 on the built-in Llama-3.1-8B
# decoder layer — the op counts of the generated layer, the plan that
# `cs349-opt --optimize --fuse --plan-memory` makes for it, and the lecture's
# demos, every number computed by the tools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${CS349_BUILD:-$root/build}

bash scripts/setup.sh
bash scripts/build.sh "$build" >/dev/null
bin=$build/bin
out=${CS349_OUT:-$build/main-job}
mkdir -p "$out"

seq=${CS349_SEQ:-2048}
echo "== Llama-3.1-8B decoder layer, prefill T=$seq, bf16 (cs349-gen layer --preset llama3.1-8b --seq $seq)"
"$bin/cs349-gen" layer --preset llama3.1-8b --seq "$seq" > "$out/layer.mlir"
echo "-- op counts of the generated layer"
"$bin/cs349-opt" --print-op-stats "$out/layer.mlir" -o /dev/null 2>&1 | sed -n '/Operations encountered/,$p'

if [[ -x scripts/lecture-demos.sh ]]; then
  bash scripts/lecture-demos.sh "$build"
fi
if [[ -x scripts/demos-3-4.sh ]]; then
  bash scripts/demos-3-4.sh "$build" "$out"
fi
