#!/usr/bin/env python3
"""cs349-steps: every step of a cs349-opt pipeline, one numbered file each.

    cs349-steps layer.mlir -o steps -- --optimize --fuse --plan-memory

runs cs349-opt once with upstream's IR printing (--mlir-print-ir-after-all,
whole module after every pass, names kept as SSA names) and writes to the
output directory, for the input and every pass that ran:

    NN-<pass>.mlir      the IR after the step (%layer0.attn.norm = ...)
    NN-<pass>.diff      a unified diff against the step before
    NN-<pass>.report    the memory report (--memory-report), once there is a
                        plan: lifetimes, sizes and offsets of written results
    NN-<pass>.svg       the plan picture (--plan-svg), once there is a plan
    index.html          one page linking them, with op counts per step

Steps that change nothing get no files of their own and are listed as such.
"""

import argparse
import difflib
import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

DUMP_HEADER = re.compile(
    r"^// -----// IR Dump After (.+?) \((.+?)\)(?: \('[^']*' operation(?:: @([^)]*))?\))? //----- //$")


class StepsError(Exception):
    pass


def find_opt(explicit):
    candidates = []
    if explicit:
        candidates.append(Path(explicit) / "cs349-opt")
    candidates.append(Path(__file__).resolve().parent / "cs349-opt")
    found = shutil.which("cs349-opt")
    if found:
        candidates.append(Path(found))
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    tried = ", ".join(str(c) for c in candidates) or "PATH"
    raise StepsError(f"cannot find cs349-opt (tried {tried}); pass --tools DIR")


def run_opt(opt, args, stdin_text=None):
    return subprocess.run([str(opt), *args], input=stdin_text, capture_output=True, text=True)


def split_dumps(stderr):
    """The IR printed after each pass, as (pass argument, module text)."""
    steps, current, name = [], None, None
    for line in stderr.splitlines(keepends=True):
        header = DUMP_HEADER.match(line.rstrip("\n"))
        if header:
            if current is not None:
                steps.append((name, "".join(current)))
            # A pass on functions runs once per function: name both.
            name = header.group(2) + ("." + header.group(3) if header.group(3) else "")
            # cs349-opt's own first pass (names from the input's SSA names)
            # is reading, not a step of the user's pipeline.
            current = None if name == "step-names-from-source" else []
        elif current is not None:
            current.append(line)
    if current is not None:
        steps.append((name, "".join(current)))
    return steps


def readable(opt, module_with_locations):
    """The module with step names as SSA names and no location trailers."""
    result = run_opt(opt, ["--mlir-use-nameloc-as-prefix", "-"], module_with_locations)
    if result.returncode != 0:
        raise StepsError("cs349-opt could not read back its own dump:\n" + result.stderr)
    return result.stdout


def op_counts(text):
    counts = {}
    for match in re.finditer(r"^\s*(?:%[^=]*= )?(cs349\.[a-z_]+)\b", text, re.MULTILINE):
        counts[match.group(1)] = counts.get(match.group(1), 0) + 1
    return counts


def write_step_files(opt, out, number, name, located, previous_readable, previous_name):
    stem = f"{number:02d}-{name}"
    text = readable(opt, located)
    files = {"mlir": f"{stem}.mlir"}
    (out / files["mlir"]).write_text(text)
    if previous_readable is not None:
        diff = difflib.unified_diff(
            previous_readable.splitlines(keepends=True), text.splitlines(keepends=True),
            fromfile=previous_name, tofile=files["mlir"])
        files["diff"] = f"{stem}.diff"
        (out / files["diff"]).write_text("".join(diff))
    if "cs349.arena" in located:
        report = run_opt(opt, ["--memory-report", "-o", os.devnull, "-"], located)
        if report.returncode == 0:
            files["report"] = f"{stem}.report"
            (out / files["report"]).write_text(report.stdout + report.stderr)
    if "cs349.arena" in located:
        svg = out / f"{stem}.svg"
        picture = run_opt(opt, [f"--plan-svg=output={svg}", "-o", os.devnull, "-"], located)
        if picture.returncode == 0 and svg.exists():
            files["svg"] = svg.name
    return text, files


def write_index(out, input_name, pipeline, rows):
    cells = []
    for row in rows:
        links = " ".join(
            f'<a href="{html.escape(f)}">{kind}</a>' for kind, f in row["files"].items())
        counts = ", ".join(f"{n}&nbsp;{op[6:]}" for op, n in sorted(row["counts"].items()))
        picture = (f'<br><img src="{html.escape(row["files"]["svg"])}" width="480">'
                   if "svg" in row["files"] else "")
        cells.append(f"<tr><td>{row['number']:02d}</td><td>{html.escape(row['name'])}</td>"
                     f"<td>{links or 'unchanged'}</td><td>{counts}{picture}</td></tr>")
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>cs349 steps: {html.escape(input_name)}</title>
<style>body{{font-family:sans-serif}} td{{vertical-align:top;padding:4px 8px;border-bottom:1px solid #ddd}}</style>
</head><body>
<h1>{html.escape(input_name)}</h1>
<p><code>cs349-opt {html.escape(" ".join(pipeline))}</code></p>
<table><tr><th>#</th><th>step</th><th>files</th><th>cs349 ops</th></tr>
{chr(10).join(cells)}
</table></body></html>
"""
    (out / "index.html").write_text(page)


def main(argv):
    parser = argparse.ArgumentParser(
        prog="cs349-steps",
        description="Write the IR after every step of a cs349-opt pipeline, with diffs, "
                    "memory reports, plan pictures and an index page.",
        epilog="example: cs349-steps layer.mlir -o steps -- --optimize --fuse --plan-memory")
    parser.add_argument("input", help="input .mlir file")
    parser.add_argument("-o", "--output", required=True, help="directory to write (created)")
    parser.add_argument("--tools", help="directory holding cs349-opt (default: next to this "
                                        "script, then PATH)")
    # Everything after "--" is cs349-opt's, flags included.
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    pipeline = argv[split + 1:]
    if not pipeline:
        parser.error("no passes given: add -- and the cs349-opt passes")
    try:
        opt = find_opt(args.tools)
        source = Path(args.input).read_text()
    except (StepsError, OSError) as error:
        print(f"cs349-steps: error: {error}", file=sys.stderr)
        return 1

    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    run = run_opt(opt, [args.input, *pipeline, "--mlir-print-ir-after-all",
                        "--mlir-print-ir-module-scope", "--mlir-disable-threading",
                        "--mlir-print-debuginfo", "-o", os.devnull])
    if run.returncode != 0:
        errors = "\n".join(l for l in run.stderr.splitlines()
                           if not l.startswith("// -----// IR Dump") and ": " in l and
                           ("error" in l or "note" in l))
        print(f"cs349-steps: error: cs349-opt failed:\n{errors}", file=sys.stderr)
        return 1

    try:
        located_input = run_opt(opt, [args.input, "--mlir-print-debuginfo"]).stdout
        previous, files = write_step_files(opt, out, 0, "input", located_input, None, None)
        rows = [{"number": 0, "name": "input", "files": files, "counts": op_counts(previous)}]
        previous_name, previous_located = files["mlir"], located_input
        for number, (name, located) in enumerate(split_dumps(run.stderr), start=1):
            if located == previous_located:
                rows.append({"number": number, "name": name, "files": {},
                             "counts": op_counts(previous)})
                continue
            previous, files = write_step_files(opt, out, number, name, located, previous,
                                               previous_name)
            rows.append({"number": number, "name": name, "files": files,
                         "counts": op_counts(previous)})
            previous_name, previous_located = files["mlir"], located
    except StepsError as error:
        print(f"cs349-steps: error: {error}", file=sys.stderr)
        return 1
    write_index(out, args.input, pipeline, rows)
    changed = sum(1 for row in rows[1:] if row["files"])
    print(f"cs349-steps: {len(rows) - 1} steps ({changed} changed the IR) written to "
          f"{out}/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
