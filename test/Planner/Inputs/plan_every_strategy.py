#!/usr/bin/env python3
"""Runs cs349-plan with every strategy on every CSV under a directory.

For each problem and strategy: plans it (--output writes the solution CSV),
requires the report to say "verified: ok", then re-checks the written
solution with the independent `cs349-plan --check`. Across strategies it
requires what the planner promises:
  * no arena below the lower bound;
  * naive = the naive size;
  * best-fit, search and best never worse than greedy-by-size.
Prints one line per problem and strategy (what held, no timing-dependent
numbers) for FileCheck, "FAIL: ..." for anything that did not, and exits 1
if anything failed.

  plan_every_strategy.py [--plan=cs349-plan] [--time-limit=SEC]
      [--skip=STRATEGY:FILE.csv ...] --output-dir=DIR DATA_DIR
"""
import argparse
import os
import subprocess
import sys

STRATEGIES = ["naive", "greedy-by-size", "best-fit", "search", "best"]
NOT_WORSE_THAN_GREEDY = {"best-fit", "search", "best"}
# Strategies whose plan depends on the time they get.
ANYTIME = {"search", "best"}


def report(text):
    values = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            values[key.strip()] = value.strip()
    return values


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plan", default="cs349-plan")
    parser.add_argument("--time-limit", default="0.5")
    parser.add_argument("--skip", action="append", default=[],
                        help="STRATEGY:FILE.csv pairs not to run")
    parser.add_argument("--time-limit-for", action="append", default=[],
                        help="FILE.csv:SEC, the time limit of that file")
    parser.add_argument("--not-compared", action="append", default=[],
                        help="FILE.csv whose time-limited plans are not "
                             "compared with greedy-by-size's")
    parser.add_argument("--output-dir", required=True)
    parser.add_argument("data")
    args = parser.parse_args()

    skip = set()
    for item in args.skip:
        strategy, sep, name = item.partition(":")
        if not sep or strategy not in STRATEGIES:
            parser.error(f"--skip expects STRATEGY:FILE.csv, got '{item}'")
        skip.add((strategy, name))
    time_limits = {}
    for item in args.time_limit_for:
        name, sep, seconds = item.partition(":")
        if not sep:
            parser.error(f"--time-limit-for expects FILE.csv:SEC, got '{item}'")
        time_limits[name] = seconds

    problems = sorted(
        os.path.relpath(os.path.join(dirpath, name), args.data)
        for dirpath, _, names in os.walk(args.data)
        for name in names if name.endswith(".csv"))
    if not problems:
        print(f"FAIL: no .csv under {args.data}")
        return 1

    failures = 0

    def fail(message):
        nonlocal failures
        failures += 1
        print(f"FAIL: {message}")

    os.makedirs(args.output_dir, exist_ok=True)
    for rel in problems:
        path = os.path.join(args.data, rel)
        arenas = {}
        print(f"{rel}:")
        for strategy in STRATEGIES:
            if (strategy, os.path.basename(rel)) in skip:
                print(f"  {strategy}: skipped")
                continue
            solution = os.path.join(
                args.output_dir, rel.replace(os.sep, "_") + f".{strategy}.csv")
            run = subprocess.run(
                [args.plan, f"--strategy={strategy}",
                 "--time-limit="
                 + time_limits.get(os.path.basename(rel), args.time_limit),
                 f"--output={solution}",
                 path], capture_output=True, text=True)
            if run.returncode != 0:
                fail(f"{rel} {strategy}: cs349-plan exited with "
                     f"{run.returncode}: {run.stderr.strip()}")
                continue
            values = report(run.stdout)
            arena = int(values["arena"])
            lower = int(values["lower bound"])
            naive = int(values["naive"])
            arenas[strategy] = arena
            held = []
            if values.get("verified") == "ok":
                held.append("verified")
            else:
                fail(f"{rel} {strategy}: verified: {values.get('verified')}")
            check = subprocess.run([args.plan, "--check", solution],
                                   capture_output=True, text=True)
            if check.returncode == 0 and check.stdout.startswith("valid:"):
                held.append("--check valid")
            else:
                fail(f"{rel} {strategy}: --check: "
                     f"{(check.stdout + check.stderr).strip()}")
            if arena >= lower:
                held.append("arena >= lower bound")
            else:
                fail(f"{rel} {strategy}: arena {arena} below the lower "
                     f"bound {lower}")
            if strategy == "naive":
                if arena == naive:
                    held.append("arena == naive size")
                else:
                    fail(f"{rel} naive: arena {arena} != naive size {naive}")
            if (strategy in ANYTIME and
                    os.path.basename(rel) in args.not_compared):
                held.append("not compared (time-bound)")
            elif strategy in NOT_WORSE_THAN_GREEDY and "greedy-by-size" in arenas:
                greedy = arenas["greedy-by-size"]
                if arena <= greedy:
                    held.append("arena <= greedy-by-size")
                else:
                    fail(f"{rel} {strategy}: arena {arena} worse than "
                         f"greedy-by-size {greedy}")
            print(f"  {strategy}: " + ", ".join(held))
    print(f"{len(problems)} problems, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
