"""Inputs/integer_ops.mlir in float64.

Reads the arguments `cs349-run --print-inputs` printed (ids [6], wte [10, 4],
x [2, 6], length [2], keep [2, 6]; integers print as integers) and prints the
five results in cs349-run's format for `cs349-run --compare`. It also checks
what cs349-run promises about integer arguments: ids within the table, keep
only 0 or 1.
"""
import math
import sys

from run_text import print_result, read_arguments

ids, wte, x, length, keep = read_arguments(sys.argv[1])
assert all(v == int(v) and 0 <= v < 10 for v in ids), ids
assert all(v in (0.0, 1.0) for v in keep), keep

emb = [wte[int(i) * 4 + j] for i in ids for j in range(4)]
probs = []
for row in range(2):
    visible = [j < 4.0 * length[row] for j in range(6)]
    scores = [x[row * 6 + j] for j in range(6)]
    top = max(s for s, v in zip(scores, visible) if v)
    exps = [math.exp(s - top) if v else 0.0 for s, v in zip(scores, visible)]
    total = math.fsum(exps)
    probs.extend(e / total for e in exps)
kept = [v if k else 0.0 for v, k in zip(x, keep)]
ints = [math.trunc(4.0 * v) for v in x]

print_result(0, "tensor<6x4xbf16>", emb, 4)
print_result(1, "tensor<2x6xf32>", probs, 6)
print_result(2, "tensor<2x6xbf16>", kept, 6)
print_result(3, "tensor<2x6xf32>", [float(k) for k in keep], 6)
print_result(4, "tensor<2x6xi32>", [float(v) for v in ints], 6)
