"""Mistakes in traced code; each CASE fails at a line the test names.

    errors.py CASE
"""
import sys

import cs349
from cs349 import F

case = sys.argv[1]


def bad_matmul(x, p):
    return x @ p["w"]


def unknown_function(x, p):
    return F.gelu_fast(x)


def no_broadcast(x, p):
    return x + p["w"]


def slicing(x, p):
    return x[0]


def odd_rope(x, p):
    return x * F.rope_table("cos", 4, 7)


functions = {"matmul": bad_matmul, "unknown": unknown_function, "broadcast": no_broadcast,
             "slicing": slicing, "verifier": odd_rope, "tools": lambda x, p: F.exp(x)}
program = cs349.trace(functions[case], {"x": (4, 7 if case == "verifier" else 8)}, {"w": (16, 4)})
print(program.mlir)
