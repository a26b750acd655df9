"""Gemma's RMSNorm and projection in float64, for Inputs/gemma_norm.mlir:
x * rsqrt(mean(x^2) + 1e-6) * (1 + gamma) @ W, with gamma and W the
constants of that file.

Reads the argument `cs349-run --print-inputs` printed (x [4, 8]) and prints
the result in cs349-run's format for `cs349-run --compare`.
"""
import math
import sys

from run_text import print_result, read_arguments

gamma = [0.5, -0.25, 0.0, 1.0, -0.5, 0.25, 2.0, -1.0]
w = [[0.5, -1.0, 0.25, 2.0, -0.5, 1.0], [1.0, 0.5, -0.25, 0.0, 0.75, -1.5],
     [-0.5, 0.25, 1.0, -1.0, 0.5, 0.0], [0.25, 0.75, -0.5, 1.5, -1.0, 0.5],
     [1.5, -0.25, 0.5, 0.25, 1.0, -0.75], [-1.0, 1.0, 0.0, 0.5, -0.25, 0.25],
     [0.0, -0.5, 1.5, -0.75, 0.25, 1.0], [0.75, 0.0, -1.0, 0.25, 0.5, -0.5]]

(x,) = read_arguments(sys.argv[1])
values = []
for row in range(4):
    xs = x[row * 8:row * 8 + 8]
    inverse = 1.0 / math.sqrt(math.fsum(v * v for v in xs) / 8 + 1e-6)
    normed = [v * inverse * (1.0 + g) for v, g in zip(xs, gamma)]
    values.extend(math.fsum(normed[k] * w[k][j] for k in range(8)) for j in range(6))
print_result(0, "tensor<4x6xf32>", values, 6)
