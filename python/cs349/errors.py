"""Exceptions of the cs349 package, and how they come to name the user's line.

A mistake in a traced function (a shape that does not fit, a function the
dialect does not have) is raised as a Cs349Error whose message starts with
the file and line of the user's code. Public entry points re-raise it
without the package's own frames, so the traceback ends in the user's code.
"""
import functools
import os
import sys
import types

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class Cs349Error(Exception):
    """Base of every error the package raises on purpose."""


class TraceError(Cs349Error, ValueError):
    """The traced function asked for something the dialect cannot express."""


class ToolsNotFound(Cs349Error, FileNotFoundError):
    """cs349-opt / cs349-run were found neither where CS349_TOOLS points, nor
    in the build tree, nor on PATH."""


class ToolError(Cs349Error, RuntimeError):
    """A tool ran and reported an error (its diagnostics are the message)."""


# Modules that are front ends of the package (the lecture's graph_lab) add
# themselves: an error names their caller's line, not theirs.
FRONT_ENDS = set()
# Model code shipped with the package is user code: its lines name its ops.
MODEL_FILES = {os.path.join(PACKAGE_DIR, "models.py")}


def is_internal(code_filename):
    path = os.path.abspath(code_filename)
    return (path.startswith(PACKAGE_DIR + os.sep) and path not in MODEL_FILES) or path in FRONT_ENDS


def user_frame(start=None):
    """The innermost frame that is not the package's own."""
    frame = start or sys._getframe(1)
    while frame is not None and is_internal(frame.f_code.co_filename):
        frame = frame.f_back
    return frame


def where(frame=None):
    frame = frame or user_frame(sys._getframe(1))
    if frame is None:
        return ""
    return f"{frame.f_code.co_filename}:{frame.f_lineno}: "


def at_user_line(error_type, message):
    """An exception of `error_type` whose message starts with the user's
    file:line."""
    return error_type(where(user_frame(sys._getframe(1))) + message)


def _user_frames(traceback):
    """The traceback without the package's frames."""
    frames = []
    while traceback is not None:
        if not is_internal(traceback.tb_frame.f_code.co_filename):
            frames.append(traceback)
        traceback = traceback.tb_next
    result = None
    for tb in reversed(frames):
        result = types.TracebackType(result, tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
    return result


class _Calls:
    """Counts the calls from user code into the package (not the calls the
    package makes to itself): the tracer tells a loop that runs one line
    again from one line that makes several ops."""
    depth = 0
    serial = 0


def api(function):
    """Marks a public entry point: a Cs349Error raised below it reaches the
    caller with the package's frames cut from its traceback."""
    @functools.wraps(function)
    def entry(*args, **kwargs):
        if _Calls.depth == 0:
            _Calls.serial += 1
        _Calls.depth += 1
        try:
            return function(*args, **kwargs)
        except Cs349Error as error:
            error.__cause__ = None
            error.__suppress_context__ = True
            raise error.with_traceback(_user_frames(error.__traceback__)) from None
        finally:
            _Calls.depth -= 1
    return entry
