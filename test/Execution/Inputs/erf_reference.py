"""erf(x * r) in float64 with Python's math.erf, for Inputs/erf.mlir.

Reads the arguments `cs349-run --print-inputs` printed (x [4, 8], r [4, 1])
and prints the result in cs349-run's format for `cs349-run --compare`.
"""
import math
import sys

from run_text import print_result, read_arguments

arguments = read_arguments(sys.argv[1])
x, r = arguments
values = [math.erf(x[i] * r[i // 8]) for i in range(32)]
print_result(0, "tensor<4x8xf32>", values, 8)
