"""@activations of Inputs/activations.mlir in float64 with Python's math module.

Reads the arguments `cs349-run --print-inputs` printed (x [4, 8], r [4, 1])
and prints the six results in cs349-run's format for `cs349-run --compare`.
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
    print("result %d: tensor<4x8xf32>" % index)
    for row in range(4):
        print("", " ".join("%.9e" % v for v in values[row * 8:row * 8 + 8]))
