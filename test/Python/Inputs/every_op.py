"""Traces one function that uses every entry of cs349.FUNCTIONS and every
Tensor operator, and has cs349-opt parse and verify the result: the table
emits valid IR for each op. Prints the op counts of the module."""
import collections
import math

import cs349
from cs349 import F, FUNCTIONS

used = set()


def use(name):
    used.add(name)
    return getattr(F, name)


def every_op(x, g, w, q, k, v):
    a = use("add")(x, 1.0)
    a = use("sub")(a, x)
    a = use("mul")(a, 2.0)
    a = use("div")(a, 3.0)
    a = use("maximum")(a, x) * use("constant")(0.5, "f32")
    a = use("neg")(use("exp")(use("tanh")(use("silu")(a))))
    a = use("rsqrt")(use("pow")(a, 2.0) + a ** 3 + 2.0 ** a + 1.0)
    r = use("rotate_half")(a)
    s = use("sum")(r, axis=-1, keepdims=True) + use("max")(r, axis=1, keepdims=True)
    n = use("rms_norm")(use("softmax")(a - s, axis=-1), g, epsilon=1e-6)
    m = use("matmul")(n, w) + use("matmul")(n, w.mT, transpose_b=False)
    m = use("transpose")(use("reshape")(m, 4, 2, 8), 1, 0, 2)
    cos, sin = use("rope_table")("cos", 4, 8), use("rope_table")("sin", 4, 8, theta=10000.0)
    qr = use("rope")(q, cos, sin) + F.rope(q, theta=10000.0)
    kr = use("repeat")(k, 2, axis=0)
    o = use("attention")(qr, k, v, scale=1 / math.sqrt(8), causal=True)
    scores = qr @ kr.mT * (1 / math.sqrt(8)) + use("causal_mask")(4)
    p = F.softmax(scores, axis=-1) @ use("repeat")(v, 2, axis=0)
    return (-m).reshape(4, 16) @ w, (o + p).T, x.mean(axis=-1) / 2 - 1 * x.sum()


program = cs349.trace(every_op, {"x": (4, 16), "g": (16,), "w": (16, 16), "q": (4, 4, 8), "k": (2, 4, 8),
                                 "v": (2, 4, 8)}, dtype="f32")
missing = sorted(set(FUNCTIONS) - used)
print("functions not used:", missing or "none")
counts = collections.Counter(line.split("cs349.")[1].split()[0]
                             for line in program.mlir.splitlines() if "= cs349." in line)
print(" ".join(f"{op}={counts[op]}" for op in sorted(counts)))
