#!/usr/bin/env python3
"""An independent float64 reference for `cs349-gen layer` with any
combination of the architecture flags, written from docs/generator.md
("`layer`: transformer layers") with the standard library only.

Reads the arguments that `cs349-run --print-inputs` printed, in the order
docs/generator.md gives (x, key_valid with --mask padding, pos_embed with
--pos learned, then per layer attn_norm, attn_norm_bias, w_qkv, b_qkv or
wq, bq, wk, bk, wv, bv, then wo, bo, mlp_norm, mlp_norm_bias, w_gate,
b_gate, w_up, b_up, w_down, b_down, each only when the flags use it),
computes the N layers and prints the result in cs349-run's format, so that
`cs349-run --compare` can check a compiled layer against it.

    reference_any_layer.py RUN_OUTPUT --heads H --kv-heads G [--norm rms]
        [--act silu] [--mlp gated] [--bias none] [--mask causal]
        [--pos rope] [--norm-placement pre] [--qkv separate] [--eps 1e-5]
        [--theta 500000] [--layers 1]

Pass the flags the preset sets (docs/generator.md's preset table) as well as
those given after it: the script knows no presets.
"""
import argparse
import math
import re
import sys

from reference_layer import heads_of, rope
from run_text import print_result, read_arguments


def rows(values, width):
    return [values[i:i + width] for i in range(0, len(values), width)]


def matmul(a, b_flat, n):
    b = rows(b_flat, n)
    return [[math.fsum(x * b[k][j] for k, x in enumerate(row))
             for j in range(n)] for row in a]


def add(a, b):
    return [[u + v for u, v in zip(r1, r2)] for r1, r2 in zip(a, b)]


def add_bias(x, bias):
    return [[v + b for v, b in zip(row, bias)] for row in x]


def rms_norm(x, gain, eps):
    out = []
    for row in x:
        r = 1.0 / math.sqrt(math.fsum(v * v for v in row) / len(row) + eps)
        out.append([v * r * g for v, g in zip(row, gain)])
    return out


def layer_norm(x, gain, bias, eps):
    out = []
    for row in x:
        mean = math.fsum(row) / len(row)
        var = math.fsum((v - mean) ** 2 for v in row) / len(row)
        r = 1.0 / math.sqrt(var + eps)
        out.append([(v - mean) * r * g + b
                    for v, g, b in zip(row, gain, bias)])
    return out


def silu(v):
    return v / (1.0 + math.exp(-v))


def gelu(v):
    return 0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0)))


def gelu_tanh(v):
    return 0.5 * v * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) *
                                      (v + 0.044715 * v ** 3)))


ACTIVATIONS = {"silu": silu, "gelu": gelu, "gelu-tanh": gelu_tanh}


def visible_keys(i, t, mask, key_valid):
    if mask == "padding":
        return [j for j in range(t) if key_valid[j]]
    if mask == "none":
        return list(range(t))
    if mask == "causal":
        return list(range(i + 1))
    window = int(mask.split("=", 1)[1])  # sliding=W: i - W < j <= i
    return list(range(max(0, i - window + 1), i + 1))


def attention(q, k, v, heads, kv_heads, dh, mask, key_valid):
    t = len(q[0])
    scale = 1.0 / math.sqrt(dh)
    out = [[0.0] * (heads * dh) for _ in range(t)]
    for h in range(heads):
        g = h // (heads // kv_heads)
        for i in range(t):
            keys = visible_keys(i, t, mask, key_valid)
            if not keys:  # every score -inf: the softmax is NaN
                for c in range(dh):
                    out[i][h * dh + c] = math.nan
                continue
            scores = [scale * math.fsum(a * b for a, b in zip(q[h][i], k[g][j]))
                      for j in keys]
            top = max(scores)
            weights = [math.exp(s - top) for s in scores]
            total = math.fsum(weights)
            for c in range(dh):
                out[i][h * dh + c] = math.fsum(
                    w * v[g][j][c] for j, w in zip(keys, weights)) / total
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run_output")
    parser.add_argument("--heads", type=int, required=True)
    parser.add_argument("--kv-heads", type=int, required=True)
    parser.add_argument("--norm", choices=["rms", "rms1p", "layer"],
                        default="rms")
    parser.add_argument("--act", choices=sorted(ACTIVATIONS), default="silu")
    parser.add_argument("--mlp", choices=["gated", "plain"], default="gated")
    parser.add_argument("--bias", choices=["none", "qkv", "all"],
                        default="none")
    parser.add_argument("--mask", default="causal")
    parser.add_argument("--pos", choices=["rope", "learned", "none"],
                        default="rope")
    parser.add_argument("--norm-placement", choices=["pre", "post"],
                        default="pre")
    parser.add_argument("--qkv", choices=["separate", "fused"],
                        default="separate")
    parser.add_argument("--eps", type=float, default=1e-5)
    parser.add_argument("--theta", type=float, default=500000.0)
    parser.add_argument("--layers", type=int, default=1)
    args = parser.parse_args()
    if not (args.mask in ("causal", "none", "padding") or
            re.fullmatch(r"sliding=[1-9][0-9]*", args.mask)):
        sys.exit("--mask: causal, none, padding or sliding=W")

    arguments = read_arguments(args.run_output)
    H, G = args.heads, args.kv_heads
    has_qkv_bias = args.bias in ("qkv", "all")
    has_bias = args.bias == "all"
    has_norm_bias = args.norm == "layer" and has_bias

    at = 0

    def take():
        nonlocal at
        if at >= len(arguments):
            sys.exit("too few arguments for these flags (%d)" % len(arguments))
        at += 1
        return arguments[at - 1]

    x_flat = take()
    key_valid = ([v != 0.0 for v in take()] if args.mask == "padding"
                 else None)
    pos_embed = take() if args.pos == "learned" else None
    # d is the length of the first norm gain (an argument after them).
    d = len(arguments[at])
    x = rows(x_flat, d)
    t = len(x)
    if pos_embed is not None:
        x = add(x, rows(pos_embed, d))

    def norm(y, gain, bias):
        if args.norm == "layer":
            return layer_norm(y, gain, bias or [0.0] * d, args.eps)
        if args.norm == "rms1p":
            gain = [1.0 + g for g in gain]
        return rms_norm(y, gain, args.eps)

    def project(y, w, b, n):
        out = matmul(y, w, n)
        return add_bias(out, b) if b is not None else out

    act = ACTIVATIONS[args.act]
    for _ in range(args.layers):
        attn_norm = take()
        attn_norm_bias = take() if has_norm_bias else None
        if args.qkv == "fused":
            w_qkv = take()
            b_qkv = take() if has_qkv_bias else None
            dh = len(w_qkv) // d // (H + 2 * G)
            weights = [w_qkv, b_qkv]
        else:
            wq = take()
            bq = take() if has_qkv_bias else None
            wk = take()
            bk = take() if has_qkv_bias else None
            wv = take()
            bv = take() if has_qkv_bias else None
            dh = len(wq) // d // H
        wo = take()
        bo = take() if has_bias else None
        mlp_norm = take()
        mlp_norm_bias = take() if has_norm_bias else None
        if args.mlp == "gated":
            w_gate = take()
            b_gate = take() if has_bias else None
        w_up = take()
        b_up = take() if has_bias else None
        w_down = take()
        b_down = take() if has_bias else None
        f = len(w_up) // d

        # Attention block: pre: x + attn(norm(x)); post: norm(x + attn(x)).
        h = norm(x, attn_norm, attn_norm_bias) \
            if args.norm_placement == "pre" else x
        if args.qkv == "fused":
            qkv = project(h, w_qkv, b_qkv, (H + 2 * G) * dh)
            q = [row[:H * dh] for row in qkv]
            k = [row[H * dh:(H + G) * dh] for row in qkv]
            v = [row[(H + G) * dh:] for row in qkv]
        else:
            q = project(h, wq, bq, H * dh)
            k = project(h, wk, bk, G * dh)
            v = project(h, wv, bv, G * dh)
        q, k, v = (heads_of(q, H, dh), heads_of(k, G, dh),
                   heads_of(v, G, dh))
        if args.pos == "rope":
            q = [rope(head, args.theta) for head in q]
            k = [rope(head, args.theta) for head in k]
        context = attention(q, k, v, H, G, dh, args.mask, key_valid)
        x = add(x, project(context, wo, bo, d))
        if args.norm_placement == "post":
            x = norm(x, attn_norm, attn_norm_bias)

        # MLP block.
        h = norm(x, mlp_norm, mlp_norm_bias) \
            if args.norm_placement == "pre" else x
        up = project(h, w_up, b_up, f)
        if args.mlp == "gated":
            gate = project(h, w_gate, b_gate, f)
            hidden = [[act(g) * u for g, u in zip(gr, ur)]
                      for gr, ur in zip(gate, up)]
        else:
            hidden = [[act(u) for u in row] for row in up]
        x = add(x, project(hidden, w_down, b_down, d))
        if args.norm_placement == "post":
            x = norm(x, mlp_norm, mlp_norm_bias)

    if at != len(arguments):
        sys.exit("%d arguments left over: do the flags match the layer?"
                 % (len(arguments) - at))
    element = re.search(r"argument 0: tensor<[0-9x]+x(\w+)>",
                        open(args.run_output).read()).group(1)
    print_result(0, "tensor<%dx%dx%s>" % (t, d, element),
                 [value for row in x for value in row], d)


if __name__ == "__main__":
    main()
