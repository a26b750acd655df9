"""The functional namespace: one entry per op of the cs349 dialect.

`FUNCTIONS` is the single table the namespace, the Tensor operators and the
error for an unknown name read. An op the dialect gains is one line here:

    "gelu": Unary("gelu"),
    "layer_norm": SameShape("layer_norm", ("input", "gain", "bias"), epsilon=F64(1e-5)),

Shapes are checked here, where the user's line is still known; the
compiler's verifiers check them again.
"""
import math

from . import dtypes
from .errors import TraceError, api, at_user_line
from .trace import Tensor, _current


def _fail(message):
    raise at_user_line(TraceError, message)


def _broadcast(a, b, what):
    shape = []
    for x, y in zip(reversed((1,) * (len(b) - len(a)) + tuple(a)),
                    reversed((1,) * (len(a) - len(b)) + tuple(b))):
        if x != y and 1 not in (x, y):
            _fail(f"{what}: shapes {list(a)} and {list(b)} do not broadcast")
        shape.append(max(x, y))
    return tuple(reversed(shape))


def _operands(trace, values):
    """Tensors for the operands; numbers and arrays take the first tensor's
    element type."""
    like = next((v for v in values if isinstance(v, Tensor)), None)
    if like is None:
        _fail("expected at least one traced tensor among the operands")
    tensors = [trace.lift(v, like) for v in values]
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        if t.dtype != dtype:
            _fail(f"element types differ: {dtype} and {t.dtype}")
    return tensors


# --------------------------------------------------------------------------
# Attribute kinds: how a Python argument becomes an MLIR attribute


class F64:
    def __init__(self, default=None):
        self.default = default

    def __call__(self, value, name, rank):
        return dtypes.scalar_literal(float(value)) + " : f64"


class I64:
    def __init__(self, default=None):
        self.default = default

    def __call__(self, value, name, rank):
        return f"{int(value)} : i64"


class Axis(I64):
    def __call__(self, value, name, rank):
        return f"{dtypes.normalize_axis(value, rank, name)} : i64"


class Unit:
    def __init__(self, default=False):
        self.default = default

    def __call__(self, value, name, rank):
        return True if value else None


# --------------------------------------------------------------------------
# Op shapes


class Op:
    """An op whose result has the first operand's type (after the checks
    `check` makes)."""

    def __init__(self, mnemonic, operands=("input",), check=None, **attributes):
        self.mnemonic = mnemonic
        self.operand_names = operands
        self.attributes = attributes
        self.check = check

    def result_type(self, tensors, attributes):
        return tensors[0].type

    def __call__(self, *args, **kwargs):
        trace = _current()
        names = self.operand_names
        if len(args) > len(names) + len(self.attributes):
            _fail(f"{self.mnemonic} takes {len(names)} operands ({', '.join(names)}), got {len(args)}")
        values = list(args[:len(names)])
        for n in names[len(values):]:
            if n not in kwargs:
                _fail(f"{self.mnemonic}: missing operand '{n}'")
            values.append(kwargs.pop(n))
        extra = dict(zip(self.attributes, args[len(names):]))
        extra.update(kwargs)
        unknown = set(extra) - set(self.attributes)
        if unknown:
            _fail(f"{self.mnemonic}: unknown argument(s) {', '.join(sorted(unknown))}; "
                  f"it takes {', '.join(list(names) + list(self.attributes))}")
        tensors = _operands(trace, values)
        rank = tensors[0].ndim
        attributes = {}
        for key, kind in self.attributes.items():
            value = extra.get(key, kind.default)
            if value is None:
                _fail(f"{self.mnemonic}: missing argument '{key}'")
            text = kind(value, key, rank)
            if text is not None:
                attributes[key] = text
        if self.check:
            self.check(tensors, extra)
        return trace.add(self.mnemonic, tensors, attributes, self.result_type(tensors, attributes))


class SameShape(Op):
    """Every operand after the first is checked by the op's own `check`."""


class Unary(Op):
    """Elementwise on one tensor of any shape."""

    def __init__(self, mnemonic, check=None):
        super().__init__(mnemonic, ("input",), check)


class Binary(Op):
    """Elementwise on two tensors with NumPy broadcasting."""

    def __init__(self, mnemonic):
        super().__init__(mnemonic, ("lhs", "rhs"))

    def result_type(self, tensors, attributes):
        a, b = tensors
        return dtypes.TensorType(_broadcast(a.shape, b.shape, self.mnemonic), a.dtype)


class Reduce:
    """reduce_sum / reduce_max over `axis` (None: every axis)."""

    def __init__(self, mnemonic):
        self.mnemonic = mnemonic

    def __call__(self, x, axis=None, keepdims=False):
        trace = _current()
        (x,) = _operands(trace, [x])
        axes = dtypes.normalize_axes(axis, x.ndim)
        shape = [1 if i in axes else s for i, s in enumerate(x.shape)] if keepdims else \
            [s for i, s in enumerate(x.shape) if i not in axes]
        attributes = {"axes": "array<i64" + "".join(f"{', ' if i else ': '}{a}" for i, a in enumerate(axes)) + ">"}
        if keepdims:
            attributes["keepdims"] = True
        return trace.add(self.mnemonic, [x], attributes, dtypes.TensorType(shape, x.dtype))


# --------------------------------------------------------------------------
# Ops with their own shape rules


def matmul(a, b, transpose_b=False):
    """a [..., M, K] @ b [..., K, N] (b read as [..., N, K] with transpose_b);
    batch dimensions broadcast. `q @ k.mT` becomes one matmul with
    transpose_b, as the attention matcher expects."""
    trace = _current()
    a, b = _operands(trace, [a, b])
    op = b._op
    if not transpose_b and op is not None and op.swaps_last_two:
        b, transpose_b = op.operands[0], True
    if a.ndim < 2 or b.ndim < 2:
        _fail(f"matmul needs operands of rank 2 or more, got {list(a.shape)} @ {list(b.shape)}")
    k_b, n = (b.shape[-1], b.shape[-2]) if transpose_b else (b.shape[-2], b.shape[-1])
    if a.shape[-1] != k_b:
        _fail(f"matmul: the contraction dimensions do not match: {list(a.shape)} @ "
              f"{list(b.shape)}{' (transpose_b)' if transpose_b else ''} contracts {a.shape[-1]} with {k_b}")
    batch = _broadcast(a.shape[:-2], b.shape[:-2], "matmul batch dimensions")
    type_ = dtypes.TensorType(batch + (a.shape[-2], n), a.dtype)
    return trace.add("matmul", [a, b], {"transpose_b": True} if transpose_b else {}, type_)


def reshape(x, *shape):
    trace = _current()
    (x,) = _operands(trace, [x])
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    shape = list(shape)
    if shape.count(-1) > 1:
        _fail("reshape: at most one -1")
    known = math.prod(s for s in shape if s != -1)
    total = math.prod(x.shape)
    if -1 in shape:
        if known == 0 or total % known:
            _fail(f"reshape: cannot reshape {list(x.shape)} into {shape}")
        shape[shape.index(-1)] = total // known
    if math.prod(shape) != total:
        _fail(f"reshape: {list(x.shape)} has {total} elements, {shape} has {math.prod(shape)}")
    return trace.add("reshape", [x], {}, dtypes.TensorType(shape, x.dtype))


def transpose(x, *axes):
    trace = _current()
    (x,) = _operands(trace, [x])
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    if not axes:
        axes = tuple(reversed(range(x.ndim)))
    perm = [dtypes.normalize_axis(a, x.ndim) for a in axes]
    if sorted(perm) != list(range(x.ndim)):
        _fail(f"transpose: {list(axes)} is not a permutation of the {x.ndim} axes of {list(x.shape)}")
    shape = [x.shape[p] for p in perm]
    result = trace.add("transpose", [x], {"perm": "array<i64: " + ", ".join(map(str, perm)) + ">"},
                       dtypes.TensorType(shape, x.dtype))
    result._op.swaps_last_two = x.ndim >= 2 and perm == list(range(x.ndim - 2)) + [x.ndim - 1, x.ndim - 2]
    return result


def repeat(x, times, axis):
    trace = _current()
    (x,) = _operands(trace, [x])
    axis = dtypes.normalize_axis(axis, x.ndim)
    shape = list(x.shape)
    shape[axis] *= int(times)
    return trace.add("repeat", [x], {"axis": f"{axis} : i64", "times": f"{int(times)} : i64"},
                     dtypes.TensorType(shape, x.dtype))


def causal_mask(size, dtype=None, window=None):
    """The additive [T, T] causal mask (0 on and below the diagonal, -inf above);
    with `window=W` also -inf W or more positions below it (a sliding window)."""
    trace = _current()
    dtype = dtypes.element_type(dtype or trace.dtype)
    rows, columns = (size, size) if isinstance(size, int) else tuple(size)
    attributes = {} if window is None else {"window": I64()(window, "window", 0)}
    return trace.add("causal_mask", [], attributes, dtypes.TensorType((rows, columns), dtype))


def rope_table(kind, positions, head_dim, theta=500000.0, dtype=None):
    """The [T, dh] cos or sin table of rotary embeddings."""
    trace = _current()
    if kind not in ("cos", "sin"):
        _fail(f"rope_table: kind is 'cos' or 'sin', got {kind!r}")
    dtype = dtypes.element_type(dtype or trace.dtype)
    return trace.add("rope_table", [], {"kind": ("0" if kind == "cos" else "1") + " : i32",
                                        "theta": F64()(theta, "theta", 0)},
                     dtypes.TensorType((positions, head_dim), dtype))


def rope(x, cos=None, sin=None, theta=500000.0):
    """x * cos + rotate_half(x) * sin over [..., T, dh]; without tables, makes
    them from theta."""
    if cos is None or sin is None:
        positions, head_dim = x.shape[-2], x.shape[-1]
        cos = rope_table("cos", positions, head_dim, theta, x.dtype)
        sin = rope_table("sin", positions, head_dim, theta, x.dtype)
    return _rope(x, cos, sin)


def _check_rope(tensors, extra):
    x, cos, sin = tensors
    if cos.type != sin.type or x.ndim < 2 or cos.shape != x.shape[-2:]:
        _fail(f"rope: the tables must be [T, dh] = {list(x.shape[-2:])}, got {list(cos.shape)} and {list(sin.shape)}")


def _check_rms_norm(tensors, extra):
    x, gain = tensors
    if gain.shape != x.shape[-1:]:
        _fail(f"rms_norm: the gain must be [{x.shape[-1]}] (the last dimension of {list(x.shape)}), got {list(gain.shape)}")


def _check_rotate_half(tensors, extra):
    if not tensors[0].shape or tensors[0].shape[-1] % 2:
        _fail(f"rotate_half: the last dimension must be even, got {list(tensors[0].shape)}")


def _check_attention(tensors, extra):
    q, k, v = tensors
    if q.ndim != 3 or k.shape != v.shape or k.ndim != 3 or q.shape[2] != k.shape[2] or q.shape[0] % k.shape[0]:
        _fail(f"attention: expected q [H, T, dh] and k, v [G, S, dh] with H a multiple of G, got "
              f"{list(q.shape)}, {list(k.shape)}, {list(v.shape)}")


_ATTENTION_MASKS = {"none": 0, "causal": 1, "sliding_window": 2, "additive": 3}


def attention(q, k, v, scale, causal=False, window=None, mask=None):
    """softmax(q @ k.mT * scale + mask) @ v as one op. `causal` hides later
    keys; with `window=W` also keys W or more positions back (a sliding
    window); `mask` is a tensor added to the scaled scores (it broadcasts to
    [H, T, S])."""
    trace = _current()
    values = [q, k, v] + ([mask] if mask is not None else [])
    tensors = _operands(trace, values)
    _check_attention(tensors[:3], {})
    if window is not None and (not causal or mask is not None):
        _fail("attention: a window is a causal sliding window: pass causal=True and no mask")
    if causal and mask is not None:
        _fail("attention: causal=True and a mask: add the causal mask to the mask instead")
    kind = ("additive" if mask is not None else
            "sliding_window" if window is not None else
            "causal" if causal else "none")
    attributes = {"scale": F64()(scale, "scale", 0),
                  "mask": f"{_ATTENTION_MASKS[kind]} : i32"}
    if window is not None:
        attributes["window"] = I64()(window, "window", 0)
    return trace.add("attention", tensors, attributes, tensors[0].type)


def constant(array, dtype=None):
    """A numpy array (or number) as a constant of the traced function."""
    trace = _current()
    return trace.constant(array, dtypes.element_type(dtype) if dtype else None)


_rope = SameShape("rope", ("input", "cos", "sin"), check=_check_rope)


class _Functions(dict):
    def __missing__(self, name):
        raise at_user_line(TraceError, f"unknown function '{name}': the cs349 dialect has "
                           + ", ".join(sorted(self)))


FUNCTIONS = _Functions({
    # elementwise
    "add": Binary("add"),
    "sub": Binary("sub"),
    "mul": Binary("mul"),
    "div": Binary("div"),
    "maximum": Binary("max"),
    "pow": Binary("pow"),
    "neg": Unary("neg"),
    "exp": Unary("exp"),
    "rsqrt": Unary("rsqrt"),
    "tanh": Unary("tanh"),
    "silu": Unary("silu"),
    "rotate_half": Unary("rotate_half", check=_check_rotate_half),
    # reductions and row-wise composites
    "sum": Reduce("reduce_sum"),
    "max": Reduce("reduce_max"),
    "softmax": SameShape("softmax", axis=Axis(-1)),
    "rms_norm": SameShape("rms_norm", ("input", "gain"), check=_check_rms_norm, epsilon=F64(1e-5)),
    "rope": rope,
    # contractions
    "matmul": matmul,
    "attention": attention,
    # views
    "reshape": reshape,
    "transpose": transpose,
    "repeat": repeat,
    # constant data
    "causal_mask": causal_mask,
    "rope_table": rope_table,
    "constant": constant,
})


class _Namespace:
    """`F.exp(x)`, `F.softmax(s, axis=-1)`...: every entry of FUNCTIONS."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return api(FUNCTIONS[name])

    def __dir__(self):
        return sorted(FUNCTIONS)


F = _Namespace()

