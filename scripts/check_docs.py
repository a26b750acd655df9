#!/usr/bin/env python3
"""Runs the command examples of the Markdown docs and compares what the tools
print with what the docs show.

An example is a fenced block whose info string starts with `console`:

    ```console
    $ cs349-gen layer --preset tiny --seq 16 > layer.mlir
    $ cs349-opt layer.mlir --optimize --fuse --plan-memory=alignment=1 \
        --print-op-counts -o /dev/null
    @layer: computed 10, ...
    ...
    ```

* A line starting with `$ ` is a command (bash, with `pipefail`); a command
  line ending in `\\` continues on the next line. The lines up to the next
  command are what it prints, standard output and standard error together.
* A line that is only `...` stands for any number of lines (also none); a
  line ending in ` ...` stands for one line that starts with the text before
  it. Trailing blanks are ignored.
* A command must exit with status 0, unless the block shows what it prints
  and that matches (an error message shown in the docs is checked as text).
* `console slow` marks an example that takes long (benchmarks, whole demo
  scripts): it is run only with `--slow`. Anything that is not `console`
  (plain, `text`, `mlir`, `cpp`, indented blocks) is not run: output that
  differs from run to run (benchmark times) belongs in a `text` block.

The examples of one page run in order, in one fresh temporary directory that
also links the repository's top-level folders (`scripts`, `bench`, `test`,
...), so that a command can use files an earlier command of the same page
wrote (`cs349-gen ... > layer.mlir`) and the repository's scripts by their
relative paths. The tools are found on PATH; `--bin DIR` puts DIR first.
`build` in that directory is the build tree the tools on PATH come from (the
folder above their `bin`), so `scripts/demos-3-4.sh build` runs them too.

    scripts/check_docs.py --bin build/bin              # the cheap examples of README.md and docs/**/*.md
    scripts/check_docs.py --bin build/bin --slow       # and the slow ones (minutes)
    scripts/check_docs.py --bin build/bin docs/execution.md

A translated page shows the same examples as its original, only the prose
differs: `--translation docs/course docs/course/zh` checks that every page of
the first folder has a page of the same name in the second with the same
commands and the same output, and that the second has no other pages.
"""

import argparse
import dataclasses
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
ELIDE_ALL = "..."
ELIDE_REST = " ..."


@dataclasses.dataclass
class Command:
    line: int          # 1-based line of the `$ ` line in its file
    text: str          # the shell command, continuation lines included
    expected: list     # lines shown after it


@dataclasses.dataclass
class Example:
    path: Path
    line: int          # line of the opening fence
    slow: bool
    commands: list


def parse_examples(path):
    """Returns the `console` blocks of one Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    examples = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        # A backtick fence's info string has no backticks (CommonMark):
        # "```` ```console ````" at the start of a line is inline code.
        if not match or (match["fence"][0] == "`" and "`" in match["info"]):
            i += 1
            continue
        indent, fence = len(match["indent"]), match["fence"]
        words = match["info"].split()
        start = i
        body = []
        i += 1
        while i < len(lines):
            closing = FENCE.match(lines[i])
            if (closing and closing["fence"][0] == fence[0]
                    and len(closing["fence"]) >= len(fence)
                    and not closing["info"].strip()):
                break
            # A fenced block inside a list item is indented like its fence.
            line = lines[i]
            body.append((i + 1, line[indent:] if not line[:indent].strip()
                         else line.lstrip()))
            i += 1
        i += 1
        if not words or words[0] != "console":
            continue
        examples.append(Example(path, start + 1, "slow" in words[1:],
                                parse_commands(path, body)))
    return examples


def parse_commands(path, body):
    commands = []
    continued = False
    for number, text in body:
        if continued:
            commands[-1].text += "\n" + text
            continued = text.endswith("\\")
        elif text.startswith("$ "):
            commands.append(Command(number, text[2:], []))
            continued = text.endswith("\\")
        elif commands:
            commands[-1].expected.append(text)
        elif text.strip():
            raise SystemExit(f"{path}:{number}: error: a console block must "
                             f"start with a `$ ` command line")
    return commands


def matches(expected, actual):
    """Whether the lines `actual` are shown by `expected` (with elisions)."""
    expected = [line.rstrip() for line in expected]
    actual = [line.rstrip() for line in actual]
    while expected and not expected[-1]:
        expected.pop()
    while actual and not actual[-1]:
        actual.pop()
    # reachable[j]: the expected lines so far can show actual[:j].
    reachable = [True] + [False] * len(actual)
    for want in expected:
        if want == ELIDE_ALL:
            for j in range(1, len(reachable)):
                reachable[j] = reachable[j] or reachable[j - 1]
            continue
        if want.endswith(ELIDE_REST):
            prefix = want[:-len(ELIDE_REST)]
            fits = lambda got: got.startswith(prefix)
        else:
            fits = lambda got: got == want
        reachable = [False] + [reachable[j] and fits(actual[j])
                               for j in range(len(actual))]
    return reachable[-1]


def shows_output(expected):
    return any(line.strip() and line.strip() != ELIDE_ALL for line in expected)


def run_page(path, examples, env, build, timeout, slow, verbose):
    """Runs the examples of one page; returns (commands run, failures)."""
    ran, failures = 0, []
    with tempfile.TemporaryDirectory(prefix="cs349-docs-") as work:
        for entry in ROOT.iterdir():
            if (not entry.name.startswith(".") and entry.is_dir()
                    and entry.name != "build"):
                os.symlink(entry, Path(work) / entry.name)
        os.symlink(build, Path(work) / "build")
        for example in examples:
            if example.slow and not slow:
                continue
            for command in example.commands:
                where = f"{path}:{command.line}"
                if verbose:
                    print(f"{where}: $ {command.text}", flush=True)
                try:
                    result = subprocess.run(
                        ["bash", "-o", "pipefail", "-c", command.text],
                        cwd=work, env=env, stdin=subprocess.DEVNULL,
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        timeout=None if example.slow else timeout)
                    output = result.stdout.decode("utf-8", "replace")
                    status = result.returncode
                except subprocess.TimeoutExpired:
                    failures.append(f"{where}: error: `{command.text}` took "
                                    f"more than {timeout} s: mark the block "
                                    f"`console slow`")
                    continue
                ran += 1
                actual = output.splitlines()
                if not matches(command.expected, actual):
                    failures.append(describe(where, command, actual, status))
                elif status != 0 and not shows_output(command.expected):
                    failures.append(
                        f"{where}: error: `{command.text}` exited with "
                        f"status {status} and the docs show none of its "
                        f"output:\n" + indent(actual))
    return ran, failures


def indent(lines, limit=60):
    shown = lines[:limit]
    more = [f"... ({len(lines) - limit} more lines)"] if len(lines) > limit else []
    return "\n".join("    | " + line for line in shown + more)


def describe(where, command, actual, status):
    return (f"{where}: error: `{command.text}` (exit status {status}) prints "
            f"something else than the docs show.\n  docs:\n"
            + indent(command.expected) + "\n  printed:\n" + indent(actual))


def compare_translation(original_dir, translated_dir):
    """Returns (pages compared, failures): the translated pages must show the
    examples of their originals, command for command and line for line."""
    shown = lambda path: os.path.relpath(path, Path.cwd())
    originals = {page.name: page for page in sorted(original_dir.glob("*.md"))}
    translations = {page.name: page for page in sorted(translated_dir.glob("*.md"))}
    failures = [f"{shown(page)}: error: no original {shown(original_dir / name)}"
                for name, page in translations.items() if name not in originals]
    for name, original in originals.items():
        translated = translations.get(name)
        if translated is None:
            failures.append(f"{shown(original)}: error: no translation "
                            f"{shown(translated_dir / name)}")
            continue
        ours = [c for e in parse_examples(original) for c in e.commands]
        theirs = [c for e in parse_examples(translated) for c in e.commands]
        for mine, other in zip(ours, theirs):
            if (mine.text, mine.expected) != (other.text, other.expected):
                failures.append(
                    f"{shown(translated)}:{other.line}: error: `{other.text}` "
                    f"and what it prints differ from {shown(original)}:"
                    f"{mine.line} `{mine.text}`")
                break
        else:
            if len(ours) != len(theirs):
                failures.append(
                    f"{shown(translated)}: error: {len(theirs)} commands, "
                    f"{shown(original)} has {len(ours)}")
    return len(originals), failures


def default_pages():
    # Every page under docs/, also in subfolders (the course, its translation).
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def main():
    parser = argparse.ArgumentParser(
        description="Run the ```console examples of the docs and compare "
                    "their output with the docs.")
    parser.add_argument("pages", nargs="*", type=Path,
                        help="Markdown files (default: README.md and every "
                             ".md under docs/, subfolders too)")
    parser.add_argument("--bin", type=Path,
                        help="directory with the cs349 tools, put first on PATH")
    parser.add_argument("--slow", action="store_true",
                        help="also run the examples marked `console slow`")
    parser.add_argument("--timeout", type=float, default=120,
                        help="seconds a cheap command may take (default 120)")
    parser.add_argument("--list", action="store_true",
                        help="list the examples instead of running them")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print every command before running it")
    parser.add_argument("--translation", nargs=2, type=Path,
                        metavar=("ORIGINAL_DIR", "TRANSLATED_DIR"),
                        help="check that the pages of TRANSLATED_DIR show the "
                             "same examples as those of ORIGINAL_DIR (runs "
                             "nothing)")
    args = parser.parse_args()

    if args.translation:
        compared, failures = compare_translation(*args.translation)
        for failure in failures:
            print(failure)
        print(f"check_docs.py: {compared} pages compared with their "
              f"translations, {len(failures)} errors")
        return 1 if failures else 0

    env = dict(os.environ)
    if args.bin:
        env["PATH"] = f"{args.bin.resolve()}{os.pathsep}{env.get('PATH', '')}"
    pages = [page.resolve() for page in args.pages] or default_pages()
    opt = shutil.which("cs349-opt", path=env.get("PATH"))
    if not opt:
        sys.exit("check_docs.py: error: cs349-opt is not on PATH "
                 "(build first, and pass --bin build/bin)")
    build = Path(opt).resolve().parent.parent

    total, skipped, failures = 0, 0, []
    for page in pages:
        examples = parse_examples(page)
        shown = os.path.relpath(page, Path.cwd())
        if args.list:
            for example in examples:
                tag = " (slow)" if example.slow else ""
                for command in example.commands:
                    print(f"{shown}:{command.line}{tag}: $ {command.text}")
            continue
        skipped += sum(len(e.commands) for e in examples if e.slow and not args.slow)
        ran, page_failures = run_page(shown, examples, env, build, args.timeout,
                                      args.slow, args.verbose)
        total += ran
        failures += page_failures
    if args.list:
        return 0
    for failure in failures:
        print(failure)
    print(f"check_docs.py: {total} commands run, {len(failures)} differ from "
          f"the docs, {skipped} slow ones skipped"
          + ("" if args.slow or not skipped else " (--slow runs them)"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
