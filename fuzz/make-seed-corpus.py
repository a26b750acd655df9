#!/usr/bin/env python3
"""Writes the seed corpora of the cs349 fuzz targets from the test suite.

    make-seed-corpus.py TEST_DIR OUT_DIR [--gen CS349_GEN]

OUT_DIR/ir        one file per `// -----` case of every test/**/*.mlir (full
                  line comments dropped: they only make inputs longer), plus,
                  when --gen is given, two small layers and small random
                  TOSA and linalg programs (what --import reads) from cs349-gen
OUT_DIR/plan-csv  every test/Planner/Inputs/*.csv
OUT_DIR/gen-options
                  the arguments of every `cs349-gen ...` RUN line, one
                  argument per line (the gen-options fuzzer's input format)

The output is a pure function of the test files (file names are content
hashes), so rerunning it only adds what changed.
"""

import argparse
import hashlib
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys


def write_seed(directory: pathlib.Path, text: str) -> None:
    data = text.encode()
    name = hashlib.sha1(data).hexdigest()
    (directory / name).write_bytes(data)


def ir_cases(path: pathlib.Path):
    cases = re.split(r"^// -----.*$", path.read_text(), flags=re.M)
    for case in cases:
        lines = [l for l in case.splitlines() if not l.lstrip().startswith("//")]
        text = "\n".join(lines).strip()
        if text:
            yield text + "\n"


def without_locations(text: str) -> str:
    """IR without its location aliases and `loc(...)` annotations."""
    text = re.sub(r'^#loc\d* = .*\n', "", text, flags=re.M)
    return re.sub(r' loc\((?:"[^"]*"|#loc\d*|unknown)\)', "", text)


def gen_arguments(path: pathlib.Path):
    """The argument lists of the cs349-gen commands of a lit test's RUN lines."""
    for line in path.read_text().splitlines():
        match = re.search(r"RUN:(.*)", line)
        if not match:
            continue
        for command in re.split(r"[|;]|&&", match.group(1)):
            try:
                words = shlex.split(command)
            except ValueError:
                continue
            if words and words[0] == "not":
                words = words[1:]
            if not words or words[0] != "cs349-gen":
                continue
            arguments = []
            for word in words[1:]:
                # Redirections end the tool's own arguments.
                if word.startswith((">", "2>", "<")) or "%" in word:
                    break
                arguments.append(word)
            yield arguments


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("test_dir", type=pathlib.Path)
    parser.add_argument("out_dir", type=pathlib.Path)
    parser.add_argument("--gen", help="cs349-gen, to add a generated layer")
    args = parser.parse_args()

    corpora = {name: args.out_dir / name for name in ("ir", "plan-csv", "gen-options")}
    for directory in corpora.values():
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)

    for path in sorted(args.test_dir.rglob("*.mlir")):
        for case in ir_cases(path):
            write_seed(corpora["ir"], case)
    if args.gen:
        # A whole layer (attention to match, norms to fold) and a small one
        # with constant weights (folding); kept small so mutations stay cheap.
        for sizes in (["--preset", "tiny"],
                      ["--d", "8", "--heads", "2", "--kv-heads", "1",
                       "--head-dim", "4", "--ffn", "8", "--weights=random",
                       "--dtype", "f32"]):
            layer = subprocess.run(
                [args.gen, "layer", *sizes, "--seq", "4", "--locations=false"],
                check=True, capture_output=True, text=True).stdout
            write_seed(corpora["ir"], layer)
        # Front-end IR beyond the hand-written import tests: short programs,
        # so that a mutation still reaches the importer's patterns.
        for form in ("tosa", "linalg"):
            for seed in range(8):
                program = subprocess.run(
                    [args.gen, "random-import", "--form", form,
                     "--seed", str(seed), "--ops", "2:6"],
                    check=True, capture_output=True, text=True).stdout
                write_seed(corpora["ir"], without_locations(program))

    for path in sorted((args.test_dir / "Planner" / "Inputs").glob("*.csv")):
        write_seed(corpora["plan-csv"], path.read_text())

    for path in sorted(args.test_dir.rglob("*")):
        if path.suffix in (".test", ".mlir"):
            for arguments in gen_arguments(path):
                write_seed(corpora["gen-options"], "\n".join(arguments) + "\n")

    for name, directory in corpora.items():
        print(f"{name}: {len(os.listdir(directory))} seeds", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
