"""cs349.gelu in float64, for Inputs/gelu.mlir.

Reads the arguments `cs349-run --print-inputs` printed (x [4, 8], r [4, 1],
w [8, 6]) and prints the three results in cs349-run's format for
`cs349-run --compare`: the exact GELU x/2 (1 + erf(x / sqrt 2)) and the tanh
form x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), from Python's math module.
"""
import math
import sys

from run_text import print_result, read_arguments

x, r, w = read_arguments(sys.argv[1])


def exact(v):
    return 0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0)))


def approx(v):
    return 0.5 * v * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) *
                                      (v + 0.044715 * v ** 3)))


s = [x[i] * r[i // 8] * 4.0 for i in range(32)]
up = [math.fsum(s[i * 8 + k] * w[k * 6 + j] for k in range(8))
      for i in range(4) for j in range(6)]
print_result(0, "tensor<4x8xf32>", [exact(v) for v in s], 8)
print_result(1, "tensor<4x8xf32>", [approx(v) for v in s], 8)
print_result(2, "tensor<4x6xf32>", [approx(v) for v in up], 6)
