#!/usr/bin/env python3
"""An independent reference for one Llama decoder layer, in float64 with no
rounding, written from docs/generator.md with the standard library only.

Reads the arguments that `cs349-run --print-inputs` printed (x, attn_norm,
wq, wk, wv, wo, mlp_norm, w_gate, w_up, w_down), computes the layer and prints
the result in cs349-run's format, so that `cs349-run --compare` can check a
compiled layer against it.

    reference_layer.py RUN_OUTPUT --heads H --kv-heads G [--theta 500000]
"""
import argparse
import math
import re
import sys


def parse_arguments(path):
    tensors, current = [], None
    for line in open(path):
        if not line.strip():
            continue
        if not line.startswith(" "):
            match = re.match(r"argument \d+: tensor<([0-9x]+)x(\w+)>", line)
            current = None
            if match:
                shape = [int(d) for d in match.group(1).split("x")]
                current = (shape, [])
                tensors.append(current)
            continue
        if current is not None:
            current[1].extend(float(v) for v in line.split())
    return tensors


def matrix(shape_values):
    shape, values = shape_values
    rows, cols = shape
    return [values[r * cols:(r + 1) * cols] for r in range(rows)]


def matmul(a, b):
    bt = list(zip(*b))
    return [[sum(x * y for x, y in zip(row, col)) for col in bt] for row in a]


def rms_norm(x, gain, eps=1e-5):
    out = []
    for row in x:
        r = 1.0 / math.sqrt(sum(v * v for v in row) / len(row) + eps)
        out.append([v * r * g for v, g in zip(row, gain)])
    return out


def rope(head_rows, theta):
    # head_rows[t] is a [dh] vector at position t.
    dh = len(head_rows[0])
    half = dh // 2
    out = []
    for t, row in enumerate(head_rows):
        new = []
        for j in range(dh):
            angle = t * theta ** (-2.0 * (j % half) / dh)
            partner = -row[j + half] if j < half else row[j - half]
            new.append(row[j] * math.cos(angle) + partner * math.sin(angle))
        out.append(new)
    return out


def heads_of(m, count, dh):
    # [T, count*dh] -> count lists of [T, dh]
    return [[row[h * dh:(h + 1) * dh] for row in m] for h in range(count)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run_output")
    parser.add_argument("--heads", type=int, required=True)
    parser.add_argument("--kv-heads", type=int, required=True)
    parser.add_argument("--theta", type=float, default=500000.0)
    args = parser.parse_args()

    tensors = parse_arguments(args.run_output)
    if len(tensors) != 10:
        sys.exit("expected the 10 arguments of a layer, got %d" % len(tensors))
    x = matrix(tensors[0])
    attn_norm, mlp_norm = tensors[1][1], tensors[6][1]
    wq, wk, wv, wo, w_gate, w_up, w_down = (
        matrix(tensors[i]) for i in (2, 3, 4, 5, 7, 8, 9))
    T, d = tensors[0][0]
    H, G = args.heads, args.kv_heads
    dh = len(wq[0]) // H

    h = rms_norm(x, attn_norm)
    q = [rope(head, args.theta) for head in heads_of(matmul(h, wq), H, dh)]
    k = [rope(head, args.theta) for head in heads_of(matmul(h, wk), G, dh)]
    v = heads_of(matmul(h, wv), G, dh)
    scale = 1.0 / math.sqrt(dh)
    o = [[0.0] * (H * dh) for _ in range(T)]
    for head in range(H):
        kv = head // (H // G)
        for t in range(T):
            scores = [scale * sum(a * b for a, b in zip(q[head][t], k[kv][s]))
                      for s in range(t + 1)]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = sum(weights)
            for j in range(dh):
                o[t][head * dh + j] = sum(
                    w * v[kv][s][j] for s, w in enumerate(weights)) / total
    x2 = [[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(x, matmul(o, wo))]
    h2 = rms_norm(x2, mlp_norm)
    gate, up = matmul(h2, w_gate), matmul(h2, w_up)
    act = [[g / (1.0 + math.exp(-g)) * u for g, u in zip(gr, ur)]
           for gr, ur in zip(gate, up)]
    out = [[a + b for a, b in zip(r1, r2)]
           for r1, r2 in zip(x2, matmul(act, w_down))]

    element = re.search(r"argument 0: tensor<[0-9x]+x(\w+)>",
                        open(args.run_output).read()).group(1)
    print("result 0: tensor<%dx%dx%s>" % (T, d, element))
    flat = [value for row in out for value in row]
    for i in range(0, len(flat), 8):
        print("", " ".join("%.6e" % value for value in flat[i:i + 8]))


if __name__ == "__main__":
    main()
