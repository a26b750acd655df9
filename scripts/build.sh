#!/usr/bin/env bash
# Configures (once) and builds cs349 into a build directory.
#   scripts/build.sh [BUILD_DIR] [-- extra cmake args] ; env TARGETS="..." limits the targets.
# Several people may build in one tree at once: the build holds a lock.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
[[ ${1:-} == "--" ]] && shift
extra=("$@")

if [[ ! -f $build/build.ninja ]]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "${extra[@]}" >/dev/null
fi
exec 9>"$build/.build.lock"
flock 9
# shellcheck disable=SC2086
ninja -C "$build" ${TARGETS:-}
