#!/usr/bin/env python3
"""An independent reference for a GPT-2 model as `cs349-gen model --preset
gpt2` writes it (docs/generator.md), in float64 with the standard library.

Reads the arguments that `cs349-run --print-inputs` printed: ids [T], the
embedding table [V, d], the position table [T, d], per layer attn_norm,
attn_norm_bias, w_qkv [d, 3d], b_qkv, wo, bo, mlp_norm, mlp_norm_bias, w_up,
b_up, w_down, b_down, then final_norm and final_norm_bias. Prints the logits
[T, V] (the head is the embedding table, tied) in cs349-run's format.

    reference_gpt2.py RUN_OUTPUT --heads H --layers N [--eps 1e-5] [--padding]

With --padding (`--mask padding`) the second argument is key_valid [T]
(0 or 1) and every query sees exactly the keys it marks 1; otherwise the
mask is causal.
"""
import argparse
import math

from reference_any_layer import add_bias, gelu_tanh, layer_norm, matmul, rows
from run_text import print_result, read_arguments


def attention(q, k, v, heads, key_valid):
    t, width = len(q), len(q[0])
    dh = width // heads
    out = [[0.0] * width for _ in range(t)]
    for h in range(heads):
        cols = range(h * dh, (h + 1) * dh)
        for i in range(t):
            keys = ([j for j in range(t) if key_valid[j]] if key_valid
                    else list(range(i + 1)))
            if not keys:  # every score -inf: the softmax is NaN
                for c in cols:
                    out[i][c] = math.nan
                continue
            scores = [math.fsum(q[i][c] * k[j][c] for c in cols) / math.sqrt(dh)
                      for j in keys]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = math.fsum(weights)
            for c in cols:
                out[i][c] = math.fsum(w * v[j][c]
                                      for j, w in zip(keys, weights)) / total
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run_output")
    parser.add_argument("--heads", type=int, required=True)
    parser.add_argument("--layers", type=int, required=True)
    parser.add_argument("--eps", type=float, default=1e-5)
    parser.add_argument("--padding", action="store_true")
    args = parser.parse_args()
    arguments = read_arguments(args.run_output)
    key_valid = None
    if args.padding:
        key_valid = [v != 0.0 for v in arguments.pop(1)]
    ids, embed, positions = arguments[0], arguments[1], arguments[2]
    t = len(ids)
    d = len(positions) // t
    table = rows(embed, d)
    x = [[a + b for a, b in zip(table[int(i)], p)]
         for i, p in zip(ids, rows(positions, d))]
    at = 3
    for _ in range(args.layers):
        (ln1, ln1b, w_qkv, b_qkv, wo, bo, ln2, ln2b, w_up, b_up, w_down,
         b_down) = arguments[at:at + 12]
        at += 12
        h = layer_norm(x, ln1, ln1b, args.eps)
        qkv = add_bias(matmul(h, w_qkv, len(b_qkv)), b_qkv)
        q = [row[:d] for row in qkv]
        k = [row[d:2 * d] for row in qkv]
        v = [row[2 * d:] for row in qkv]
        context = attention(q, k, v, args.heads, key_valid)
        attended = add_bias(matmul(context, wo, d), bo)
        x = [[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(x, attended)]
        h = layer_norm(x, ln2, ln2b, args.eps)
        up = add_bias(matmul(h, w_up, len(b_up)), b_up)
        down = add_bias(matmul([[gelu_tanh(u) for u in row] for row in up],
                               w_down, d), b_down)
        x = [[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(x, down)]
    final_norm, final_bias = arguments[at:at + 2]
    h = layer_norm(x, final_norm, final_bias, args.eps)
    logits = [[math.fsum(a * b for a, b in zip(row, entry)) for entry in table]
              for row in h]
    vocab = len(table)
    print_result(0, "tensor<%dx%dxf32>" % (t, vocab),
                 [v for row in logits for v in row], vocab)


if __name__ == "__main__":
    main()
