"""softmax(q kT * 0.5 + mask) v in float64, for Inputs/attention-mask-*.mlir.

    attention_mask_reference.py PRINTED KIND [WINDOW]

Reads the arguments `cs349-run --print-inputs` printed (q [2, 7, 4], k and v
[1, 7, 4], then the mask argument if the kind takes one) and prints the
result in cs349-run's format for `cs349-run --compare`. KIND is none,
causal, window (a causal sliding window of WINDOW keys), additive (a [7, 7]
argument), padding (a [1, 7] argument) or anticausal (-inf before the query).
"""
import math
import sys

from run_text import read_arguments

H, T, D = 2, 7, 4

arguments = read_arguments(sys.argv[1])
kind = sys.argv[2]
window = int(sys.argv[3]) if len(sys.argv) > 3 else None
q, k, v = arguments[:3]
mask_values = arguments[3] if len(arguments) > 3 else None


def mask(i, j):
    if kind == "none":
        return 0.0
    if kind == "causal":
        return 0.0 if j <= i else -math.inf
    if kind == "window":
        return 0.0 if i - window < j <= i else -math.inf
    if kind == "additive":
        return mask_values[i * T + j]
    if kind == "padding":
        return mask_values[j]
    if kind == "anticausal":
        return 0.0 if j >= i else -math.inf
    raise SystemExit(f"unknown kind {kind}")


print(f"result 0: tensor<{H}x{T}x{D}xf32>")
for h in range(H):
    for i in range(T):
        scores = [sum(q[(h * T + i) * D + d] * k[j * D + d] for d in range(D)) * 0.5
                  + mask(i, j) for j in range(T)]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        row = [sum(weights[j] * v[j * D + d] for j in range(T)) / total
               for d in range(D)]
        print("", " ".join("%.9e" % x for x in row))
