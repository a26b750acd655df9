#!/usr/bin/env bash
# Installs the Debian packages cs349 needs; does nothing when they are present.
#
#   scripts/setup.sh [GROUP...]     GROUP: build (the default), planner-bench,
#                                   pipeline-bench, browser-test
#
# Every tool or library a build, test, demo or benchmark uses is named here,
# even when the machine image usually has it: docs/development.md says how
# the list was checked.
set -euo pipefail

# Build, tests and demos (scripts/build.sh, run-tests.sh, run-main.sh).
build=(
  # LLVM/MLIR 22: libraries and CMake config; mlir-tblgen; lit, FileCheck,
  # not, count, split-file
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  # compiler, linker, and the sanitizer runtimes of the instrumented build
  clang-22 lld-22 libclang-rt-22-dev
  cmake ninja-build
  # unit tests (find_package(GTest))
  libgtest-dev googletest
  # libraries LLVM's CMake config links against (LLVMExports.cmake)
  zlib1g-dev libzstd-dev libedit-dev libcurl4-openssl-dev libxml2-dev
  # lit, the test helpers and the demo scripts (standard library only)
  python3
  # the Python package's run() and concrete weights (python/, test/Python)
  python3-numpy
  # flock (build lock), diff (tests); essential on Debian, named all the same
  util-linux diffutils
)
# bench/planner/run.sh: a standalone Release build of the planner alone,
# with the system C++ compiler (its published numbers are g++'s).
planner_bench=(cmake ninja-build g++ python3 util-linux)
# bench/pipeline/run.sh: the main build, plus valgrind for its instruction
# counts (callgrind).
pipeline_bench=("${build[@]}" valgrind)
# test/Browser: the interactive plan page loaded in headless Chromium (the
# tests are reported unsupported without it).
browser_test=(chromium)

packages=()
for group in "${@:-build}"; do
  case $group in
    build) packages+=("${build[@]}") ;;
    planner-bench) packages+=("${planner_bench[@]}") ;;
    pipeline-bench) packages+=("${pipeline_bench[@]}") ;;
    browser-test) packages+=("${browser_test[@]}") ;;
    *) echo "setup: unknown group '$group' (build, planner-bench, pipeline-bench, browser-test)" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi
# A package named by two groups is installed once.
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)

echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
