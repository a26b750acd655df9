"""@activations of Inputs/activations.mlir in float64 with Python's math module.

Reads the arguments `cs349-run --print-inputs` printed (x [4, 8], r [4, 1])
and prints the six results in cs349-run's format for `cs349-run --compare`.
"""
import math
import sys

from run_text import print_result, read_arguments

arguments = read_arguments(sys.argv[1])
x, r = arguments
s = [x[i] * r[i // 8] for i in range(32)]
positive = [v * v + 1.0 for v in x]
results = [
    [1.0 / (1.0 + math.exp(-v)) for v in s],
    [max(v, 0.0) for v in s],
    [math.cos(6.0 * v) for v in s],
    [math.sin(6.0 * v) for v in s],
    [math.sqrt(v) for v in positive],
    [math.log(v) for v in positive],
]
for index, values in enumerate(results):
    print_result(index, "tensor<4x8xf32>", values, 8)
