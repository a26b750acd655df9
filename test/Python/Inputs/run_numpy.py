"""Runs traced programs with cs349-run (Program.run) and compares them with
numpy implementations of the same functions (float64), f32 to 1e-5."""
import math

import numpy as np

import cs349
from cs349 import F
from cs349.models import TINY, llama_layer, llama_param_shapes

T = 16
rng = np.random.default_rng(7)


def llama_reference(x, p, cfg, theta=500000.0, eps=1e-5):
    d, H, G, dh, f = cfg

    def rms_norm(v, g):
        return v / np.sqrt((v * v).mean(axis=-1, keepdims=True) + eps) * g

    half = dh // 2
    inverse = theta ** (-2.0 * (np.arange(dh) % half) / dh)
    angles = np.arange(T)[:, None] * inverse[None, :]
    cos, sin = np.cos(angles), np.sin(angles)

    def rope(v):
        rotated = np.concatenate([-v[..., half:], v[..., :half]], axis=-1)
        return v * cos + rotated * sin

    h = rms_norm(x, p["attn_norm"])
    q = rope((h @ p["wq"]).reshape(T, H, dh).transpose(1, 0, 2))
    k = rope((h @ p["wk"]).reshape(T, G, dh).transpose(1, 0, 2)).repeat(H // G, axis=0)
    v = (h @ p["wv"]).reshape(T, G, dh).transpose(1, 0, 2).repeat(H // G, axis=0)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(dh) + np.triu(np.full((T, T), -np.inf), 1)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    o = (e / e.sum(axis=-1, keepdims=True)) @ v
    x2 = x + o.transpose(1, 0, 2).reshape(T, H * dh) @ p["wo"]
    h2 = rms_norm(x2, p["mlp_norm"])
    gate = h2 @ p["w_gate"]
    return x2 + (gate / (1 + np.exp(-gate)) * (h2 @ p["w_up"])) @ p["w_down"]


def close(name, got, want):
    diff = np.abs(got.astype(np.float64) - want)
    bad = int((diff > 1e-5 + 1e-5 * np.abs(want)).sum())
    print(f"{name}: {got.size} values, max abs diff {diff.max():.1e}, {bad} outside rtol 1e-5 atol 1e-5")


shapes = llama_param_shapes(TINY)
x = rng.uniform(-1, 1, (T, TINY.d))
params = {k: (1 + 0.1 * rng.standard_normal(s)) if len(s) == 1 else rng.uniform(-1, 1, s) / math.sqrt(s[0])
          for k, s in shapes.items()}
params = {k: v.astype(np.float32) for k, v in params.items()}
x = x.astype(np.float32)
want = llama_reference(x.astype(np.float64), {k: v.astype(np.float64) for k, v in params.items()}, TINY)

layer = cs349.trace(llama_layer(TINY, T), {"x": (T, TINY.d)}, shapes, dtype="f32")
close("traced layer", layer.run(x, **params), want)
planned = layer.optimize().fuse().plan_memory()
close("optimized, fused, planned", planned.run(x=x, **params), want)
unfused = layer.decompose().fuse(enable=False).plan_memory()
close("decomposed, unfused, planned", unfused.run(x, **params), want)

# Weights given as arrays are constants: only x is an argument.
constants = cs349.trace(llama_layer(TINY, T), {"x": (T, TINY.d)}, params, dtype="f32")
print("arguments with constant weights:", [name for name, _ in constants.arguments])
close("constant weights, optimized", constants.optimize().fuse().plan_memory().run(x), want)


# A function of the user's own, with several results.
def gated(a, b):
    mean = a.sum(axis=-1, keepdims=True) / float(a.shape[-1])
    centered = a - mean
    return F.tanh(centered) * F.exp(-b), F.softmax(a @ b.mT, axis=-1)


a = rng.uniform(-1, 1, (4, 8)).astype(np.float32)
b = rng.uniform(-1, 1, (4, 8)).astype(np.float32)
first, second = cs349.trace(gated, {"a": a.shape, "b": b.shape}, dtype="f32").run(a, b)
a64, b64 = a.astype(np.float64), b.astype(np.float64)
close("gated[0]", first, np.tanh(a64 - a64.mean(axis=-1, keepdims=True)) * np.exp(-b64))
scores = a64 @ b64.T
e = np.exp(scores - scores.max(axis=-1, keepdims=True))
close("gated[1]", second, e / e.sum(axis=-1, keepdims=True))

# A wrong value is reported at the user's line.
try:
    layer.run(x[:8], **params)
except cs349.TraceError as error:
    print("error:", str(error).rsplit("/", 1)[-1])
