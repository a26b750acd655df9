#!/usr/bin/env python3
"""Writes a LLaMA-style decoder of N layers in TOSA, as a Dynamo-style front
end exports it: a batch of one everywhere, RMSNorm as pow -> reduce_sum ->
mul 1/d -> add eps -> rsqrt -> mul -> mul gamma, projections as reshape +
tosa.matmul, attention in 4-D with kᵀ as a 4-D transpose, the matmuls in 3-D
between reshapes, 1/sqrt(dh) as a splat, an additive mask argument, softmax
divided by reciprocal · mul, GQA as reshape to 5-D + add of zeros + reshape
back, SwiGLU as sigmoid · x. Weights are function arguments.

The mask is an argument (`--mask argument`, the default) or built in the
graph from constants as front ends build the causal one (`--mask causal`:
an iota of keys greater than an iota of queries selects -3.4e38, else 0).

With `--rope`, q and k get rotary embeddings as BuddyNext's LLaMA writes
them: cos/sin caches of `--max-pos` rows are arguments, sliced to the first
T rows and looked up by an i64 position argument in a linalg.generic
(tensor.extract), and rotate-half is two extract_slices, a negate and two
insert_slices into an empty tensor.

    make-decoder.py LAYERS [--seq T] [--dim D] [--heads H] [--kv-heads G] [--ffn F]
                           [--mask argument|causal] [--rope [--max-pos P]]
"""
import argparse

p = argparse.ArgumentParser()
p.add_argument("layers", type=int)
p.add_argument("--seq", type=int, default=128)
p.add_argument("--dim", type=int, default=512)
p.add_argument("--heads", type=int, default=8)
p.add_argument("--kv-heads", type=int, default=2)
p.add_argument("--ffn", type=int, default=1408)
p.add_argument("--mask", choices=["argument", "causal"], default="argument")
p.add_argument("--rope", action="store_true")
p.add_argument("--max-pos", type=int, default=2048)
a = p.parse_args()
T, D, H, G, F = a.seq, a.dim, a.heads, a.kv_heads, a.ffn
dh = D // H
R = H // G

def t(*shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"

lines, counter = [], [0]

def v():
    counter[0] += 1
    return f"%v{counter[0]}"

def emit(text):
    lines.append("  " + text)

def shape(*dims):
    s = v()
    emit(f"{s} = tosa.const_shape {{values = dense<[{', '.join(map(str, dims))}]> : tensor<{len(dims)}xindex>}} : () -> !tosa.shape<{len(dims)}>")
    return s

def reshape(x, src, dims, element="f32"):
    r = v()
    result = t(*dims).replace("xf32>", "x" + element + ">")
    emit(f"{r} = tosa.reshape {x}, {shape(*dims)} : ({src}, !tosa.shape<{len(dims)}>) -> {result}")
    return r

def const(value, *dims):
    r = v()
    emit(f'{r} = "tosa.const"() <{{values = dense<{value:.9e}> : {t(*dims)}}}> : () -> {t(*dims)}')
    return r

def binary(op, x, y, tx, ty, tr, shift=False):
    r = v()
    extra = ", %shift" if shift else ""
    types = f"{tx}, {ty}" + (", tensor<1xi8>" if shift else "")
    emit(f"{r} = tosa.{op} {x}, {y}{extra} : ({types}) -> {tr}")
    return r

def unary(op, x, tx, tr=None):
    r = v()
    emit(f"{r} = tosa.{op} {x} : ({tx}) -> {tr or tx}")
    return r

def reduce(op, x, axis, tx, tr):
    r = v()
    emit(f"{r} = tosa.{op} {x} {{axis = {axis} : i32}} : ({tx}) -> {tr}")
    return r

def matmul(x, w, tx, tw, tr):
    r = v()
    emit(f"{r} = tosa.matmul {x}, {w}, %zp, %zp : ({tx}, {tw}, tensor<1xf32>, tensor<1xf32>) -> {tr}")
    return r

def transpose(x, perm, tx, tr):
    r = v()
    emit(f"{r} = tosa.transpose {x} {{perms = array<i32: {', '.join(map(str, perm))}>}} : ({tx}) -> {tr}")
    return r

def rms_norm(x, gamma):
    sq = binary("mul", x, x, t(1, T, D), t(1, T, D), t(1, T, D), shift=True)
    s = reduce("reduce_sum", sq, 2, t(1, T, D), t(1, T, 1))
    mean = binary("mul", s, const(1.0 / D, 1, 1, 1), t(1, T, 1), t(1, 1, 1), t(1, T, 1), shift=True)
    eps = binary("add", mean, const(1e-5, 1, 1, 1), t(1, T, 1), t(1, 1, 1), t(1, T, 1))
    r = unary("rsqrt", eps, t(1, T, 1))
    n = binary("mul", x, r, t(1, T, D), t(1, T, 1), t(1, T, D), shift=True)
    g = reshape(gamma, t(D), [1, 1, D])
    return binary("mul", g, n, t(1, 1, D), t(1, T, D), t(1, T, D), shift=True)

def project(x, w, n_in, n_out):
    x3 = reshape(x, t(1, T, n_in), [1, T, n_in])
    w3 = reshape(w, t(n_in, n_out), [1, n_in, n_out])
    return matmul(x3, w3, t(1, T, n_in), t(1, n_in, n_out), t(1, T, n_out))

def heads(x, n):
    x4 = reshape(x, t(1, T, n * dh), [1, T, n, dh])
    return transpose(x4, [0, 2, 1, 3], t(1, T, n, dh), t(1, n, T, dh))

def repeat_kv(x):
    x5 = reshape(x, t(1, G, T, dh), [1, G, 1, T, dh])
    b = binary("add", x5, const(0.0, 1, G, R, T, dh), t(1, G, 1, T, dh), t(1, G, R, T, dh), t(1, G, R, T, dh))
    return reshape(b, t(1, G, R, T, dh), [1, H, T, dh])

def causal_mask():
    def iota(*dims):
        r = v()
        values = ", ".join(str(i) for i in range(T))
        emit(f'{r} = "tosa.const"() <{{values = dense<[{values}]> : tensor<{T}xi32>}}> : () -> tensor<{T}xi32>')
        return reshape(r, f"tensor<{T}xi32>", list(dims), "i32")
    rows, cols = iota(T, 1), iota(1, T)
    later = v()
    emit(f"{later} = tosa.greater {cols}, {rows} : (tensor<1x{T}xi32>, tensor<{T}x1xi32>) -> tensor<{T}x{T}xi1>")
    hidden, shown = const(-3.4028234663852886e38, T, T), const(0.0, T, T)
    m = v()
    emit(f"{m} = tosa.select {later}, {hidden}, {shown} : (tensor<{T}x{T}xi1>, {t(T, T)}, {t(T, T)}) -> {t(T, T)}")
    return reshape(m, t(T, T), [1, 1, T, T])

def rope_table(cache):
    """Rows 0..T-1 of a [1, 1, P, dh] cache, looked up by position: [1, 1, T, dh]."""
    P = a.max_pos
    rows = v()
    emit(f"{rows} = tensor.extract_slice {cache}[0, 0, 0, 0] [1, 1, {T}, {dh}] [1, 1, 1, 1] : {t(1, 1, P, dh)} to {t(T, dh)}")
    empty, table = v(), v()
    emit(f"{empty} = tensor.empty() : {t(1, T, dh)}")
    emit(f"{table} = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], "
         f"iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins(%pos : tensor<1x{T}xi64>) outs({empty} : {t(1, T, dh)}) {{")
    lines.append("  ^bb0(%in: i64, %out: f32):")
    i, j, e = v(), v(), v()
    emit(f"  {i} = arith.index_cast %in : i64 to index")
    emit(f"  {j} = linalg.index 2 : index")
    emit(f"  {e} = tensor.extract {rows}[{i}, {j}] : {t(T, dh)}")
    emit(f"  linalg.yield {e} : f32")
    emit(f"}} -> {t(1, T, dh)}")
    return reshape(table, t(1, T, dh), [1, 1, T, dh])

def rope(x, n):
    """x * cos + rotate_half(x) * sin on [1, n, T, dh]."""
    h = dh // 2
    lo, hi, neg, empty, first, rotated = v(), v(), v(), v(), v(), v()
    emit(f"{lo} = tensor.extract_slice {x}[0, 0, 0, 0] [1, {n}, {T}, {h}] [1, 1, 1, 1] : {t(1, n, T, dh)} to {t(1, n, T, h)}")
    emit(f"{hi} = tensor.extract_slice {x}[0, 0, 0, {h}] [1, {n}, {T}, {h}] [1, 1, 1, 1] : {t(1, n, T, dh)} to {t(1, n, T, h)}")
    emit(f"{neg} = tosa.negate {hi}, %zp, %zp : ({t(1, n, T, h)}, tensor<1xf32>, tensor<1xf32>) -> {t(1, n, T, h)}")
    emit(f"{empty} = tensor.empty() : {t(1, n, T, dh)}")
    emit(f"{first} = tensor.insert_slice {neg} into {empty}[0, 0, 0, 0] [1, {n}, {T}, {h}] [1, 1, 1, 1] : {t(1, n, T, h)} into {t(1, n, T, dh)}")
    emit(f"{rotated} = tensor.insert_slice {lo} into {first}[0, 0, 0, {h}] [1, {n}, {T}, {h}] [1, 1, 1, 1] : {t(1, n, T, h)} into {t(1, n, T, dh)}")
    xc = binary("mul", x, cos, t(1, n, T, dh), t(1, 1, T, dh), t(1, n, T, dh), shift=True)
    rs = binary("mul", rotated, sin, t(1, n, T, dh), t(1, 1, T, dh), t(1, n, T, dh), shift=True)
    return binary("add", xc, rs, t(1, n, T, dh), t(1, n, T, dh), t(1, n, T, dh))

def attention(x, wq, wk, wv, wo):
    q = heads(project(x, wq, D, D), H)
    k = heads(project(x, wk, D, G * dh), G)
    if a.rope:
        q, k = rope(q, H), rope(k, G)
    k = repeat_kv(k)
    vv = repeat_kv(heads(project(x, wv, D, G * dh), G))
    kt = transpose(k, [0, 1, 3, 2], t(1, H, T, dh), t(1, H, dh, T))
    s = matmul(reshape(q, t(1, H, T, dh), [H, T, dh]), reshape(kt, t(1, H, dh, T), [H, dh, T]),
               t(H, T, dh), t(H, dh, T), t(H, T, T))
    s4 = reshape(s, t(H, T, T), [1, H, T, T])
    scaled = binary("mul", s4, const(1.0 / dh ** 0.5, 1, H, T, T), t(1, H, T, T), t(1, H, T, T), t(1, H, T, T), shift=True)
    masked = binary("add", scaled, mask, t(1, H, T, T), t(1, 1, T, T), t(1, H, T, T))
    m = reduce("reduce_max", masked, 3, t(1, H, T, T), t(1, H, T, 1))
    e = unary("exp", binary("sub", masked, m, t(1, H, T, T), t(1, H, T, 1), t(1, H, T, T)), t(1, H, T, T))
    rs = unary("reciprocal", reduce("reduce_sum", e, 3, t(1, H, T, T), t(1, H, T, 1)), t(1, H, T, 1))
    pr = binary("mul", e, rs, t(1, H, T, T), t(1, H, T, 1), t(1, H, T, T), shift=True)
    o = matmul(reshape(pr, t(1, H, T, T), [H, T, T]), reshape(vv, t(1, H, T, dh), [H, T, dh]),
               t(H, T, T), t(H, T, dh), t(H, T, dh))
    o4 = transpose(reshape(o, t(H, T, dh), [1, H, T, dh]), [0, 2, 1, 3], t(1, H, T, dh), t(1, T, H, dh))
    return project(reshape(o4, t(1, T, H, dh), [1, T, D]), wo, D, D)

def ffn(x, w1, w3, w2):
    gate = project(x, w1, D, F)
    act = binary("mul", unary("sigmoid", gate, t(1, T, F)), gate, t(1, T, F), t(1, T, F), t(1, T, F), shift=True)
    up = project(x, w3, D, F)
    return project(binary("mul", act, up, t(1, T, F), t(1, T, F), t(1, T, F), shift=True), w2, F, D)

args = [f"%x: {t(1, T, D)}"]
emit('%zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>')
emit('%shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>')
if a.mask == "argument":
    args.append(f"%mask: {t(1, 1, T, T)}")
    mask = "%mask"
else:
    mask = causal_mask()
if a.rope:
    args += [f"%cos_cache: {t(1, 1, a.max_pos, dh)}", f"%sin_cache: {t(1, 1, a.max_pos, dh)}",
             f"%pos: tensor<1x{T}xi64>"]
    cos, sin = rope_table("%cos_cache"), rope_table("%sin_cache")
h = "%x"
for layer in range(a.layers):
    w = {n: f"%l{layer}_{n}" for n in ["attn_norm", "wq", "wk", "wv", "wo", "ffn_norm", "w1", "w3", "w2"]}
    args += [f"{w['attn_norm']}: {t(D)}", f"{w['wq']}: {t(D, D)}", f"{w['wk']}: {t(D, G * dh)}",
             f"{w['wv']}: {t(D, G * dh)}", f"{w['wo']}: {t(D, D)}", f"{w['ffn_norm']}: {t(D)}",
             f"{w['w1']}: {t(D, F)}", f"{w['w3']}: {t(D, F)}", f"{w['w2']}: {t(F, D)}"]
    a1 = attention(rms_norm(h, w["attn_norm"]), w["wq"], w["wk"], w["wv"], w["wo"])
    h = binary("add", h, a1, t(1, T, D), t(1, T, D), t(1, T, D))
    f1 = ffn(rms_norm(h, w["ffn_norm"]), w["w1"], w["w3"], w["w2"])
    h = binary("add", h, f1, t(1, T, D), t(1, T, D), t(1, T, D))
print(f"func.func @decoder({', '.join(args)}) -> {t(1, T, D)} {{")
print("\n".join(lines))
print(f"  return {h} : {t(1, T, D)}")
print("}")
