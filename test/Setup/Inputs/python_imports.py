"""Lists the modules the project's Python imports that are neither in the
standard library, nor the project's own, nor installed by setup.sh: the
project uses Debian's packages only, so a third-party module must come from
a python3-* package that setup.sh names.

Reads every *.py file under the given directories and every Python heredoc
(`python3 - ... <<'PY'`) in their *.sh files. A module is the project's own
when a file of that name sits beside the script (a heredoc may add its
script's folder to sys.path), when it is a module or package in a --path
folder, or when it is lit, which llvm-22-tools ships with the test runner. A
module M is installed when the --setup script names the package python3-M.

  python_imports.py [--setup FILE] [--path DIR]... [--exclude DIR]... DIR...
      prints 'FILE:LINE: MODULE' per other import, then
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


def modules_in(folder):
    return {p.stem for p in folder.glob("*.py")} | {
        p.parent.name for p in folder.glob("*/__init__.py")}


def modules_installed_by(setup_script):
    return set(re.findall(r"(?<![\w-])python3-([A-Za-z0-9_]+)(?![\w-])",
                          setup_script.read_text()))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--setup", type=pathlib.Path)
    parser.add_argument("--path", action="append", default=[], type=pathlib.Path)
    parser.add_argument("--exclude", action="append", default=[], type=pathlib.Path)
    parser.add_argument("roots", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    known = PROVIDED_BY_TEST_RUNNER | set().union(*map(modules_in, args.path))
    if args.setup:
        known |= modules_installed_by(args.setup)
    files = sorted(set(script_files(args.roots, args.exclude)))
    foreign = 0
    for path in files:
        beside = modules_in(path.parent)
        for offset, code in sources(path):
            for line, module in imported_modules(code):
                if (module in sys.stdlib_module_names or module in beside
                        or module in known):
                    continue
                print(f"{path}:{offset + line}: {module}")
                foreign += 1
    print(f"{len(files)} files, {foreign} foreign imports")


if __name__ == "__main__":
    main()
