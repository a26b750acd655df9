"""Tracing: run a Python function on symbolic tensors and record cs349 ops.

Every op records where in the user's code it was made. That gives it a name
(the assigned variable, inside the names of the user's functions and of any
`scope(...)` around it, e.g. "layer0.attn.q_proj") and a source position; both
go into the op's MLIR location, so the compiler's reports and diagnostics
name the user's step and line.
"""
import ast
import linecache
import sys

from .errors import TraceError, _Calls, api, at_user_line, is_internal
from . import dtypes

_active = []  # the traces being recorded, innermost last


def _current():
    if not _active:
        raise at_user_line(TraceError, "cs349 ops can only be used inside a function traced with cs349.trace")
    return _active[-1]


class scope:
    """Names the ops made inside it: `with scope("layer0"): ...` puts
    "layer0." before their names."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        _current().scopes.append(str(self.name))
        return self

    def __exit__(self, *exc):
        _current().scopes.pop()
        return False


# --------------------------------------------------------------------------
# Where an op comes from in the user's code

_statements = {}


def _statement_at(filename, line):
    """The innermost simple statement covering `line` of `filename`."""
    if filename not in _statements:
        table = {}
        source = "".join(linecache.getlines(filename))
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            tree = None
        if tree is not None:
            for node in ast.walk(tree):
                if isinstance(node, ast.stmt) and not isinstance(
                        node, (ast.FunctionDef, ast.ClassDef, ast.For, ast.While,
                               ast.If, ast.With, ast.Try, ast.AsyncFunctionDef)):
                    for number in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                        old = table.get(number)
                        if old is None or old.lineno <= node.lineno:
                            table[number] = node
        _statements[filename] = table
    return _statements[filename].get(line)


def _targets(statement):
    """The variable names a statement assigns (none for anything else)."""
    target = None
    if isinstance(statement, ast.Assign):
        target = statement.targets[0]
    elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)):
        target = statement.target
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
        return [e.id for e in target.elts]
    return []


class _Site:
    """One execution of one line of user code: the ops it made and the
    names it assigns."""

    def __init__(self, frame, prefix):
        self.frame_id = id(frame)
        self.lasti = frame.f_lasti
        self.filename = frame.f_code.co_filename
        self.line = frame.f_lineno
        self.column = 1
        try:
            positions = list(frame.f_code.co_positions())
            position = positions[frame.f_lasti // 2]
            if position[2] is not None:
                self.column = position[2] + 1
        except (AttributeError, IndexError):
            pass
        self.prefix = prefix
        statement = _statement_at(self.filename, self.line)
        self.targets = _targets(statement) if statement is not None else []
        self.ops = []
        self.call = None


# --------------------------------------------------------------------------
# The recorded program


class _Op:
    def __init__(self, mnemonic, operands, attributes, type_, site):
        self.mnemonic = mnemonic
        self.operands = operands
        self.attributes = attributes
        self.type = type_
        self.site = site
        self.name = None
        self.swaps_last_two = False


class _Trace:
    def __init__(self, dtype):
        self.dtype = dtype
        self.ops = []
        self.arguments = []  # (name, TensorType)
        self.scopes = []
        self.site = None

    def locate(self):
        """The _Site of the op about to be made: the user's line, and the
        names of the user's functions between it and the traced function."""
        frame = sys._getframe(1)
        while frame is not None and is_internal(frame.f_code.co_filename):
            frame = frame.f_back
        user = frame
        names = []
        while frame is not None and not is_internal(frame.f_code.co_filename):
            names.append(frame.f_code.co_name)
            frame = frame.f_back
        # The outermost user frame is the traced function itself: it names
        # the func.func, not its steps.
        names = [n for n in reversed(names[:-1]) if not n.startswith("<")]
        prefix = tuple(self.scopes) + tuple(names)
        site = self.site
        # The same instruction again in a later call is the line running
        # again (a loop); an earlier instruction, too.
        if (site is None or site.frame_id != id(user) or site.line != user.f_lineno
                or user.f_lasti < site.lasti or site.prefix != prefix
                or (user.f_lasti == site.lasti and _Calls.serial != site.call)):
            site = _Site(user, prefix)
            self.site = site
        site.lasti = user.f_lasti
        site.call = _Calls.serial
        return site

    def add(self, mnemonic, operands, attributes, type_):
        site = self.locate()
        op = _Op(mnemonic, list(operands), attributes, type_, site)
        site.ops.append(op)
        self.ops.append(op)
        return Tensor(self, op, type_)

    def constant(self, array_or_number, dtype=None):
        dtype = dtype or self.dtype
        if isinstance(array_or_number, (int, float)):
            type_ = dtypes.TensorType((), dtype)
            value = dtypes.scalar_literal(float(array_or_number), dtype)
            return self.add("constant", [], {"value": f"dense<{value}> : {type_}"}, type_)
        text, shape = dtypes.dense_literal(array_or_number, dtype)
        type_ = dtypes.TensorType(shape, dtype)
        return self.add("constant", [], {"value": f"{text} : {type_}"}, type_)

    def lift(self, value, like):
        """A Tensor for an operand: tensors as they are, Python numbers and
        numpy arrays as constants of the other operand's element type."""
        if isinstance(value, Tensor):
            if value._trace is not self:
                raise at_user_line(TraceError, "a tensor of another trace was used here")
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.constant(value, like.dtype)
        if dtypes.is_array(value):
            return self.constant(value, like.dtype)
        raise at_user_line(TraceError, f"expected a tensor, a number or a numpy array, got {type(value).__name__}")


class Tensor:
    """A value of a traced function: shape and dtype are known, the numbers
    are not (see Program.run for those)."""

    __array_priority__ = 1000  # numpy array (op) Tensor defers to Tensor

    def __init__(self, trace, op, type_, argument=None):
        self._trace = trace
        self._op = op
        self._argument = argument
        self.type = type_

    @property
    def shape(self):
        return self.type.shape

    @property
    def dtype(self):
        return self.type.dtype

    @property
    def ndim(self):
        return len(self.type.shape)

    def __repr__(self):
        what = self._op.mnemonic if self._op is not None else f"argument {self._argument}"
        return f"<cs349 Tensor {self.type} from {what}>"

    # Steps named by hand where a variable name would not do.
    def named(self, name):
        if self._op is not None:
            self._op.name = str(name)
        return self

    def _call(self, name, *args, **kwargs):
        from .functional import FUNCTIONS
        return FUNCTIONS[name](*args, **kwargs)

    def __matmul__(self, other):
        return self._call("matmul", self, other)

    def __rmatmul__(self, other):
        return self._call("matmul", other, self)

    def __add__(self, other):
        return self._call("add", self, other)

    def __radd__(self, other):
        return self._call("add", other, self)

    def __sub__(self, other):
        return self._call("sub", self, other)

    def __rsub__(self, other):
        return self._call("sub", other, self)

    def __mul__(self, other):
        return self._call("mul", self, other)

    def __rmul__(self, other):
        return self._call("mul", other, self)

    def __truediv__(self, other):
        return self._call("div", self, other)

    def __rtruediv__(self, other):
        return self._call("div", other, self)

    def __pow__(self, other):
        return self._call("pow", self, other)

    def __rpow__(self, other):
        return self._call("pow", other, self)

    def __neg__(self):
        return self._call("neg", self)

    def __pos__(self):
        return self

    def sum(self, axis=None, keepdims=False):
        return self._call("sum", self, axis=axis, keepdims=keepdims)

    def max(self, axis=None, keepdims=False):
        return self._call("max", self, axis=axis, keepdims=keepdims)

    def mean(self, axis=None, keepdims=False):
        total = self._call("sum", self, axis=axis, keepdims=keepdims)
        count = 1
        for a in dtypes.normalize_axes(axis, self.ndim):
            count *= self.shape[a]
        return total / float(count)

    def reshape(self, *shape):
        return self._call("reshape", self, *shape)

    def transpose(self, *axes):
        return self._call("transpose", self, *axes)

    @property
    def T(self):
        return self._call("transpose", self, *reversed(range(self.ndim)))

    @property
    def mT(self):
        axes = list(range(self.ndim))
        axes[-2:] = axes[-1], axes[-2]
        return self._call("transpose", self, *axes)

    def repeat(self, times, axis):
        return self._call("repeat", self, times, axis)

    def __getitem__(self, index):
        raise at_user_line(TraceError, "indexing and slicing: the cs349 dialect has no op for them "
                           "(reshape, transpose and repeat are its views)")

    def __bool__(self):
        raise at_user_line(TraceError, "the truth value of a traced tensor is not known while tracing "
                           "(no data-dependent control flow)")

    def __len__(self):
        return self.shape[0] if self.shape else 0

    def __iter__(self):
        raise at_user_line(TraceError, "iterating over a traced tensor: the cs349 dialect has no slicing op")


# Every public method reports a mistake at the user's line, without the
# package's frames.
for _name, _method in list(vars(Tensor).items()):
    if callable(_method) and (not _name.startswith("_") or _name in (
            "__matmul__", "__rmatmul__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
            "__rmul__", "__truediv__", "__rtruediv__", "__pow__", "__rpow__", "__neg__", "__getitem__",
            "__bool__", "__iter__")):
        setattr(Tensor, _name, api(_method))
for _name in ("T", "mT"):
    setattr(Tensor, _name, property(api(getattr(Tensor, _name).fget)))


def _assign_names(ops):
    """Names from the user's variables: the last op of a line that assigns
    `q` is "q" (prefixed by scopes and functions), the others
    "q.matmul"..., and an op on a line without an assignment is named by its
    mnemonic. A name made twice gets ".1", ".2"... after the first."""
    for op in ops:
        if op.name is not None:
            continue
        site = op.site
        targets = site.targets
        final = [o for o in site.ops if not any(o is p._op for x in site.ops for p in x.operands
                                                    if isinstance(p, Tensor))]
        base = None
        if targets and op in final:
            index = final.index(op) - (len(final) - len(targets))
            if len(targets) == 1 and op is final[-1]:
                base = targets[0]
            elif 0 <= index < len(targets):
                base = targets[index]
        if base is None:
            base = (targets[0] + "." + op.mnemonic) if len(targets) == 1 else op.mnemonic
        op.name = ".".join(site.prefix + (base,))
    seen = {}
    for op in ops:
        count = seen.get(op.name, 0)
        seen[op.name] = count + 1
        if count:
            op.name = f"{op.name}.{count}"


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _location(op):
    site = op.site
    return f"loc({_quote(op.name)}({_quote(site.filename)}:{site.line}:{site.column}))"


def emit(trace, outputs, function_name):
    """The module, in MLIR's generic form: the ops the outputs depend on, in
    the order they were made."""
    needed = set()
    stack = [t._op for t in outputs if t._op is not None]
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed.add(id(op))
        stack.extend(t._op for t in op.operands if t._op is not None)
    ops = [op for op in trace.ops if id(op) in needed]
    _assign_names(ops)
    names = {}
    lines = []
    arguments = ", ".join(f"%arg{i}: {type_} loc({_quote(name)})"
                          for i, (name, type_) in enumerate(trace.arguments))
    argument_types = ", ".join(str(t) for _, t in trace.arguments)
    result_types = ", ".join(str(t.type) for t in outputs)
    lines.append('"builtin.module"() ({')
    lines.append(f'  "func.func"() <{{function_type = ({argument_types}) -> ({result_types}), '
                 f'sym_name = {_quote(function_name)}}}> ({{')
    lines.append(f"  ^bb0({arguments}):" if trace.arguments else "  ^bb0:")

    def ref(tensor):
        if tensor._op is None:
            return f"%arg{tensor._argument}"
        return names[id(tensor._op)]

    for number, op in enumerate(ops):
        names[id(op)] = f"%{number}"
        attributes = ""
        if op.attributes:
            attributes = " <{" + ", ".join(
                k if v is True else f"{k} = {v}" for k, v in sorted(op.attributes.items())) + "}>"
        operand_types = ", ".join(str(t.type) for t in op.operands)
        lines.append(f'    %{number} = "cs349.{op.mnemonic}"({", ".join(ref(t) for t in op.operands)})'
                     f'{attributes} : ({operand_types}) -> {op.type} {_location(op)}')
    lines.append(f'    "func.return"({", ".join(ref(t) for t in outputs)}) : ({result_types}) -> () loc("return")')
    lines.append(f"  }}) : () -> () loc({_quote(function_name)})")
    lines.append("}) : () -> ()")
    return "\n".join(lines) + "\n"


@api
def trace(function, inputs, params=None, dtype="bf16", name=None):
    """Traces `function` into a cs349 Program.

    inputs: {name: shape or numpy array}, passed to `function` positionally
    in this order; params: {name: shape or numpy array}, passed as one dict
    after them (when given). A shape becomes a function argument, an array a
    constant. dtype: "bf16" (the default), "f16" or "f32". The function
    returns a tensor or a tuple/list of tensors.
    """
    from .program import Program
    dtype = dtypes.element_type(dtype)
    for what, given in (("inputs", inputs), ("params", params)):
        if given is not None and not isinstance(given, dict):
            raise at_user_line(TraceError, f"trace: {what} must be a dict {{name: shape or numpy array}}, "
                               f"got {type(given).__name__}")
    recording = _Trace(dtype)
    _active.append(recording)
    try:
        def value_of(key, spec):
            if dtypes.is_array(spec):
                return recording.constant(spec).named(str(key))
            shape = dtypes.shape_of(spec, key)
            type_ = dtypes.TensorType(shape, dtype)
            index = len(recording.arguments)
            recording.arguments.append((str(key), type_))
            return Tensor(recording, None, type_, argument=index)

        args = [value_of(k, v) for k, v in inputs.items()]
        if params is not None:
            args.append({k: value_of(k, v) for k, v in params.items()})
        result = function(*args)
    finally:
        _active.pop()
    outputs = list(result) if isinstance(result, (tuple, list)) else [result]
    if not outputs or not all(isinstance(t, Tensor) for t in outputs):
        raise at_user_line(TraceError, f"the traced function must return a tensor or a tuple of tensors, "
                           f"got {type(result).__name__}")
    function_name = name or getattr(function, "__name__", "main")
    if not function_name.isidentifier():
        function_name = "main"
    text = emit(recording, outputs, function_name)
    return Program(text, function=function_name,
                   arguments=[(n, t) for n, t in recording.arguments])
