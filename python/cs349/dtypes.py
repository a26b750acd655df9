"""Element types, tensor types, shapes and constants as MLIR text."""
from .errors import TraceError, at_user_line

ELEMENT_TYPES = {"bf16": "bf16", "bfloat16": "bf16", "f16": "f16", "float16": "f16",
                 "f32": "f32", "float32": "f32"}
BYTES = {"bf16": 2, "f16": 2, "f32": 4}


def element_type(name):
    key = getattr(name, "name", name)
    if str(key) not in ELEMENT_TYPES:
        raise at_user_line(TraceError, f"unknown dtype {name!r}: expected one of bf16, f16, f32")
    return ELEMENT_TYPES[str(key)]


class TensorType:
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype

    def __str__(self):
        dims = "".join(f"{s}x" for s in self.shape)
        return f"tensor<{dims}{self.dtype}>"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, TensorType) and (self.shape, self.dtype) == (other.shape, other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    @property
    def bytes(self):
        count = 1
        for s in self.shape:
            count *= s
        return count * BYTES[self.dtype]

    @staticmethod
    def parse(text):
        """'tensor<16x128xbf16>' -> TensorType((16, 128), 'bf16')."""
        inner = text.strip()[len("tensor<"):-1]
        parts = inner.split("x")
        return TensorType([int(p) for p in parts[:-1]], parts[-1])


def is_array(value):
    return type(value).__module__ == "numpy" and hasattr(value, "shape") and hasattr(value, "dtype")


def shape_of(spec, what):
    if isinstance(spec, int):
        spec = (spec,)
    try:
        shape = None if isinstance(spec, (str, bytes)) else tuple(int(s) for s in spec)
    except (TypeError, ValueError):
        shape = None
    if shape is None or any(s <= 0 for s in shape):
        raise at_user_line(TraceError, f"{what}: expected a shape (a tuple of positive ints) or a numpy array, got {spec!r}")
    return shape


def normalize_axis(axis, rank, what="axis"):
    if not isinstance(axis, int) or not -rank <= axis < max(rank, 1):
        raise at_user_line(TraceError, f"{what} {axis!r} is out of range for a tensor of rank {rank}")
    return axis % rank if rank else 0


def normalize_axes(axis, rank):
    if axis is None:
        return list(range(rank))
    axes = [axis] if isinstance(axis, int) else list(axis)
    result = sorted({normalize_axis(a, rank) for a in axes})
    return result


SPECIAL_BITS = {"bf16": ("0x7FC0", "0x7F80", "0xFF80"), "f16": ("0x7E00", "0x7C00", "0xFC00"),
                "f32": ("0x7FC00000", "0x7F800000", "0xFF800000")}


def scalar_literal(value, dtype="f32"):
    nan, inf, minus_inf = SPECIAL_BITS[dtype]
    if value != value:
        return nan
    if value in (float("inf"), float("-inf")):
        return inf if value > 0 else minus_inf
    return f"{value:.9e}"


def to_bits(array, dtype):
    """The raw little-endian bytes of `array` in `dtype` (bf16: float32
    rounded to nearest even)."""
    import numpy as np
    values = np.ascontiguousarray(np.asarray(array, dtype=np.float32))
    if dtype == "f32":
        return values.astype("<f4").tobytes()
    if dtype == "f16":
        return values.astype("<f2").tobytes()
    bits = values.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2")
    nan = np.isnan(values)
    rounded[nan] = 0x7FC0
    return rounded.tobytes()


def dense_literal(array, dtype):
    """dense<"0x..."> text of a numpy array, and its shape."""
    import numpy as np
    values = np.asarray(array)
    shape = tuple(values.shape)
    if values.size == 1:
        return f"dense<{scalar_literal(float(values.reshape(-1)[0]), dtype)}>", shape
    return 'dense<"0x' + to_bits(values, dtype).hex().upper() + '">', shape
