#!/usr/bin/env bash
# Grades a course exercise: builds the project with a student's file in place
# of the project's own and runs the tests the project's implementation passes.
#
#   scripts/grade.sh --list                 the exercises
#   scripts/grade.sh NAME [STUDENT_FILE]    grade STUDENT_FILE (default: the
#                                           project's own implementation)
#   scripts/grade.sh --check                every exercise: the project's own
#                                           file scores 100 %, the starter its
#                                           documented score, the broken
#                                           variant loses its points (CI)
#
# It uses the build tree in $CS349_GRADE_BUILD (default: build/, configured
# by scripts/build.sh) and puts the project's own file back afterwards.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CS349_GRADE_BUILD:-$root/build}
lit=/usr/lib/llvm-22/bin/lit

die() { echo "grade: error: $*" >&2; exit 2; }

exercise_names() {
  for conf in "$root"/exercises/*/exercise.conf; do
    basename "$(dirname "$conf")"
  done
}

# Reads exercises/NAME/exercise.conf: replaces=, targets=, gtest=, lit=,
# starter_score=, summary=.
load_exercise() {
  local name=$1 conf="$root/exercises/$1/exercise.conf"
  [[ -f $conf ]] || die "no exercise '$name' (scripts/grade.sh --list names them)"
  replaces="" targets="" gtest="" lit_tests="" starter_score="" summary=""
  while IFS='=' read -r key value; do
    case $key in
      replaces) replaces=$value ;;
      targets) targets=$value ;;
      gtest) gtest=$value ;;
      lit) lit_tests=$value ;;
      starter_score) starter_score=$value ;;
      summary) summary=$value ;;
      ''|'#'*) ;;
      *) die "$conf: unknown key '$key'" ;;
    esac
  done < "$conf"
}

configure() {
  # An empty CS349_EXERCISE_FILE builds the project's own file.
  cmake -S "$root" -B "$build" -DCS349_EXERCISE_REPLACES="$replaces" \
    -DCS349_EXERCISE_FILE="$1" >/dev/null || return 1
}

# Every target, not only this exercise's: an earlier exercise's variant may
# still sit in a binary this one does not build (cs349-plan after
# greedy-by-size, say).
restore() {
  [[ -n ${replaces:-} ]] || return 0
  configure "" && ninja -C "$build" >/dev/null
}

# Prints one line per test case ("PASS name" / "FAIL name") for the
# exercise's lit tests and googletest cases.
run_tests() {
  local binary filter
  if [[ -n $lit_tests ]]; then
    local paths=()
    for dir in $lit_tests; do paths+=("$build/${dir}"); done
    "$lit" -v "${paths[@]}" 2>/dev/null | sed -n -E \
      -e 's/^(PASS|XPASS): [^:]+ :: (.*) \([0-9]+ of [0-9]+\)$/PASS \2/p' \
      -e 's/^(FAIL|XFAIL|UNRESOLVED|TIMEOUT): [^:]+ :: (.*) \([0-9]+ of [0-9]+\)$/FAIL \2/p'
  fi
  if [[ -n $gtest ]]; then
    binary=${gtest%%:*} filter=${gtest#*:}
    "$build/$binary" --gtest_filter="$filter" --gtest_color=no 2>/dev/null | sed -n -E \
      -e 's/^\[       OK \] ([^ ]+).*/PASS \1/p' \
      -e 's/^\[  FAILED  \] ([^ ]+) \(.*/FAIL \1/p'
  fi
}

# The "P/T" of a grade's last line; "0/0" when the build failed.
score_of() {
  grep -oE '[0-9]+/[0-9]+' <<< "$1" | head -1 || echo 0/0
}

# grade NAME FILE: prints the failing cases and "NAME: P/T" on its last line.
grade() {
  local name=$1 file=$2
  load_exercise "$name"
  [[ -f $build/build.ninja ]] || bash "$root/scripts/build.sh" "$build" >/dev/null ||
    die "the build in $build failed"
  if ! configure "$file" || ! ninja -C "$build" $targets > "$build/grade-build.log" 2>&1; then
    grep -E "error|Error" "$build/grade-build.log" | head -20 >&2
    echo "$name: 0/0 (the build failed)"
    return 1
  fi
  local results passed total
  results=$(run_tests)
  total=$(grep -c . <<< "$results")
  passed=$(grep -c '^PASS ' <<< "$results")
  grep '^FAIL ' <<< "$results" | sed 's/^FAIL /  failed: /'
  echo "$name: $passed/$total"
}

case ${1:-} in
  --list)
    for name in $(exercise_names); do
      load_exercise "$name"
      printf '%-16s %s\n' "$name" "$summary"
    done
    ;;
  --check)
    status=0
    for name in $(exercise_names); do
      load_exercise "$name"
      own=$(grade "$name" "" | tail -1)
      starter=$(grade "$name" "$root/exercises/$name/starter/$(basename "$replaces")" | tail -1)
      broken=$(grade "$name" "$root/exercises/$name/check/broken.cpp" | tail -1)
      own_score=$(score_of "$own") starter_got=$(score_of "$starter")
      broken_score=$(score_of "$broken")
      verdict=ok
      [[ ${own_score%%/*} == "${own_score##*/}" && ${own_score##*/} != 0 ]] || verdict="own implementation below 100 %"
      [[ $starter_got == "$starter_score" ]] || verdict="starter scores $starter_got, documented $starter_score"
      [[ ${broken_score%%/*} -lt ${own_score##*/} ]] || verdict="broken variant loses no points"
      echo "$name: own $own_score, starter $starter_got, broken $broken_score: $verdict"
      [[ $verdict == ok ]] || status=1
    done
    # The next exercise's build puts this one's file back; the last one's
    # is put back here.
    restore
    exit $status
    ;;
  ''|-h|--help)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    ;;
  *)
    name=$1
    file=${2:-}
    [[ -z $file || -f $file ]] || die "no file '$file'"
    [[ -z $file ]] || file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")
    load_exercise "$name"
    trap restore EXIT
    out=$(grade "$name" "$file")
    status=$?
    echo "$out"
    score=$(score_of "$out")
    [[ $status == 0 && ${score%%/*} == "${score##*/}" ]]
    ;;
esac
