"""erf(x * r) in float64 with Python's math.erf, for Inputs/erf.mlir.

Reads the arguments `cs349-run --print-inputs` printed (x [4, 8], r [4, 1])
and prints the result in cs349-run's format for `cs349-run --compare`.
"""
import math
import sys

arguments, current = [], None
for line in open(sys.argv[1]):
    if line.startswith("argument "):
        current = []
        arguments.append(current)
    elif line.startswith(("result ", "//", "memory:")):
        current = None
    elif current is not None:
        current.extend(float(v) for v in line.split())
x, r = arguments
values = [math.erf(x[i] * r[i // 8]) for i in range(32)]
print("result 0: tensor<4x8xf32>")
for row in range(4):
    print("", " ".join("%.9e" % v for v in values[row * 8:row * 8 + 8]))
