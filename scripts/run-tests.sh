#!/usr/bin/env bash
# Sets up, builds and runs every cs349 test: the lit suite and the unit tests
# through ctest, once on a normal build and once more on a build whose own code
# is instrumented with AddressSanitizer and UndefinedBehaviorSanitizer, where
# ctest also runs each libFuzzer target (fuzz/) for a short fixed time.
#   scripts/run-tests.sh            both builds
#   CS349_SKIP_SANITIZERS=1 ...     the normal build only (quick local runs)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/setup.sh build browser-test || { echo "setup failed"; exit 1; }

status=0
run_suite() {
  local build=$1; shift
  echo "== building $build"
  if ! bash scripts/build.sh "$build" -- "$@"; then
    echo "build of $build failed"
    return 1
  fi
  echo "== testing $build"
  (cd "$build" && ctest --output-on-failure -j2)
}

# Unity builds (each target's sources compiled a batch at a time) take half
# the build time of compiling them one by one; scripts/build.sh, for
# editing, compiles them one by one.
unity=-DCMAKE_UNITY_BUILD=ON
run_suite "$root/build" "$unity" || status=1
echo "== grading the exercises: own files 100 %, starters as documented, broken variants lose points"
bash scripts/grade.sh --check || status=1
if [[ -z ${CS349_SKIP_SANITIZERS:-} ]]; then
  run_suite "$root/build-sanitize" "$unity" -DCS349_ENABLE_SANITIZERS=ON -DCS349_ENABLE_FUZZERS=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo || status=1
fi
exit $status
