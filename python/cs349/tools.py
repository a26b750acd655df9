"""Finding and running the cs349 tools (cs349-opt, cs349-run, cs349-gen).

Looked for, in order: the folder named by the CS349_TOOLS environment
variable, the build tree of the repository this package sits in
(<repo>/build/bin), and PATH.
"""
import os
import pathlib
import shutil
import subprocess

from .errors import ToolError, ToolsNotFound, at_user_line

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
_found = {}


def candidates(name):
    """Every place `name` is looked for, in order (what an error lists)."""
    places = []
    if os.environ.get("CS349_TOOLS"):
        places.append(pathlib.Path(os.environ["CS349_TOOLS"]) / name)
    places.append(REPOSITORY / "build" / "bin" / name)
    on_path = shutil.which(name)
    places.append(pathlib.Path(on_path) if on_path else f"{name} on PATH")
    return places


def find(name):
    key = (name, os.environ.get("CS349_TOOLS"), os.environ.get("PATH"))
    if key in _found:
        return _found[key]
    tried = candidates(name)
    for place in tried:
        if isinstance(place, pathlib.Path) and place.is_file() and os.access(place, os.X_OK):
            _found[key] = str(place)
            return _found[key]
    raise at_user_line(
        ToolsNotFound,
        f"cannot find {name}: tried " + ", ".join(str(p) for p in tried) +
        " (build the project with scripts/build.sh, or set CS349_TOOLS to the folder that has it)")


def run(name, arguments, input_text=None, what=None):
    """Runs a tool; returns its standard output. A failure is a ToolError
    carrying the tool's diagnostics."""
    command = [find(name)] + [str(a) for a in arguments]
    done = subprocess.run(command, input=input_text, capture_output=True, text=True)
    if done.returncode != 0:
        detail = done.stderr.strip() or done.stdout.strip()
        raise at_user_line(ToolError, f"{what or name} failed:\n{detail}")
    return done.stdout
