"""LayerNorm in float64, for Inputs/layer_norm.mlir.

Reads the arguments `cs349-run --print-inputs` printed (x [2, 3, 12], gain
[12], bias [12]) and prints both results (with the bias and epsilon 1e-5,
without it and epsilon 1e-3) in cs349-run's format for `cs349-run --compare`.
"""
import math
import sys

from run_text import print_result, read_arguments

arguments = read_arguments(sys.argv[1])
x, gain, bias = arguments
d = len(gain)


def layer_norm(epsilon, with_bias):
    out = []
    for start in range(0, len(x), d):
        row = x[start:start + d]
        mean = math.fsum(row) / d
        variance = math.fsum((v - mean) ** 2 for v in row) / d
        inverse = 1.0 / math.sqrt(variance + epsilon)
        out.extend((v - mean) * inverse * gain[j] + (bias[j] if with_bias else 0.0)
                   for j, v in enumerate(row))
    return out


for index, values in enumerate([layer_norm(1e-5, True), layer_norm(1e-3, False)]):
    print_result(index, "tensor<2x3x12xf32>", values, d)
