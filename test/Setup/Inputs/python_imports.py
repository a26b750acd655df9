"""Lists the modules the project's Python imports that are neither in the
standard library nor the project's own: setup.sh installs Debian packages
only, so each such module would need its python3-* package named there.

Reads every *.py file under the given directories and every Python heredoc
(`python3 - ... <<'PY'`) in their *.sh files. A module counts as the
project's own when a file of that name sits beside the script (a heredoc may
add its script's folder to sys.path), or when it is lit, which llvm-22-tools
ships with the test runner.

  python_imports.py [--exclude DIR]... DIR...
      prints 'FILE:LINE: MODULE' per foreign import, then
      'N files, M foreign imports'; build trees (build*) and .git are skipped
"""
import argparse
import ast
import os
import pathlib
import re
import sys

PROVIDED_BY_TEST_RUNNER = {"lit"}
HEREDOC = re.compile(r"python3\s+-\s[^\n]*<<\s*'?(\w+)'?\n(.*?)\n\1\n", re.S)


def sources(path):
    text = path.read_text()
    if path.suffix == ".py":
        yield 0, text
    else:
        for match in HEREDOC.finditer(text):
            yield text.count("\n", 0, match.start(2)), match.group(2)


def imported_modules(code):
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.lineno, node.module.split(".")[0]


def script_files(roots, excluded):
    excluded = {e.resolve() for e in excluded}
    for root in roots:
        for folder, subfolders, names in os.walk(root):
            # Pruned in place, so that build trees are not even listed.
            subfolders[:] = [
                d for d in subfolders
                if d != ".git" and not d.startswith("build")
                and (pathlib.Path(folder) / d).resolve() not in excluded]
            for name in names:
                if name.endswith((".py", ".sh")):
                    yield pathlib.Path(folder) / name


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--exclude", action="append", default=[], type=pathlib.Path)
    parser.add_argument("roots", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    files = sorted(set(script_files(args.roots, args.exclude)))
    foreign = 0
    for path in files:
        own = {p.stem for p in path.parent.glob("*.py")}
        for offset, code in sources(path):
            for line, module in imported_modules(code):
                if (module in sys.stdlib_module_names or module in own
                        or module in PROVIDED_BY_TEST_RUNNER):
                    continue
                print(f"{path}:{offset + line}: {module}")
                foreign += 1
    print(f"{len(files)} files, {foreign} foreign imports")


if __name__ == "__main__":
    main()
