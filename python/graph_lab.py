"""The lecture's graph library, on the cs349 compiler.

Same names, call signatures and return shapes as the lecture scripts use
(`trace`, `decompose`, `fuse(g, enable=...)`, `lifetimes(g, ks)` ->
[(nid, size, start, end)], `plan_memory(lts, strategy)` -> (peak, {nid:
offset}), ...); every number comes from cs349-opt. A graph is a
cs349.Program; its steps run lazily, so a chain of steps is one cs349-opt
call when its result is first looked at.
"""
import math
from collections import namedtuple

import cs349
from cs349 import F, scope
from cs349.errors import api

__all__ = ["F", "LayerCfg", "LLAMA8B", "prefill_layer", "layer_params", "trace", "decompose", "cse",
           "constant_fold", "simplify", "fold_norm_weight", "match_attention", "fuse", "lifetimes",
           "plan_memory", "lower_bound"]

# d: model width, H: query heads, G: key/value heads, dh: head width, f: MLP width.
LayerCfg = namedtuple("LayerCfg", "d H G dh f")
LLAMA8B = LayerCfg(4096, 32, 8, 128, 14336)
ROPE_THETA = 500000.0
EPSILON = 1e-5


def prefill_layer(cfg, T):
    """A Llama decoder layer over T tokens: f(x, p) with x [T, d] and the
    weights of layer_params(cfg). The step names are cs349-gen's
    ("layer0.attn.q_proj", ...)."""
    def attn(x, p):
        H, G, dh = cfg.H, cfg.G, cfg.dh
        norm = F.rms_norm(x, p["attn_norm"], epsilon=EPSILON)
        q_proj = norm @ p["wq"]
        k_proj = norm @ p["wk"]
        v_proj = norm @ p["wv"]
        q_split = q_proj.reshape(T, H, dh)
        q_heads = q_split.transpose(1, 0, 2)
        k_split = k_proj.reshape(T, G, dh)
        k_heads = k_split.transpose(1, 0, 2)
        v_split = v_proj.reshape(T, G, dh)
        v_heads = v_split.transpose(1, 0, 2)
        rope_cos = F.rope_table("cos", T, dh, theta=ROPE_THETA)
        rope_sin = F.rope_table("sin", T, dh, theta=ROPE_THETA)
        q_rope = F.rope(q_heads, rope_cos, rope_sin)
        k_rope = F.rope(k_heads, rope_cos, rope_sin)
        k_repeat = k_rope.repeat(H // G, axis=0)
        v_repeat = v_heads.repeat(H // G, axis=0)
        scores = q_rope @ k_repeat.mT
        scaled_scores = scores * (1.0 / math.sqrt(dh))
        causal_mask = F.causal_mask(T)
        masked_scores = scaled_scores + causal_mask
        softmax = F.softmax(masked_scores, axis=-1)
        context = softmax @ v_repeat
        context_transpose = context.transpose(1, 0, 2)
        context_merge = context_transpose.reshape(T, H * dh)
        o_proj = context_merge @ p["wo"]
        residual = x + o_proj
        return residual

    def mlp(x, p):
        norm = F.rms_norm(x, p["mlp_norm"], epsilon=EPSILON)
        gate_proj = norm @ p["w_gate"]
        up_proj = norm @ p["w_up"]
        silu = F.silu(gate_proj)
        gated = silu * up_proj
        down_proj = gated @ p["w_down"]
        residual = x + down_proj
        return residual

    def layer(x, p):
        with scope("layer0"):
            return mlp(attn(x, p), p)

    return layer


def layer_params(cfg, seed=0):
    """Concrete weights (numpy, float32): they become constants of the
    traced layer. Norm gains near 1, matrices scaled by 1/sqrt(fan-in)."""
    import numpy as np
    rng = np.random.default_rng(seed)

    def matrix(rows, columns):
        return (rng.standard_normal((rows, columns)) / math.sqrt(rows)).astype(np.float32)

    d, H, G, dh, f = cfg
    return {"attn_norm": (1 + 0.1 * rng.standard_normal(d)).astype(np.float32),
            "wq": matrix(d, H * dh), "wk": matrix(d, G * dh), "wv": matrix(d, G * dh),
            "wo": matrix(H * dh, d),
            "mlp_norm": (1 + 0.1 * rng.standard_normal(d)).astype(np.float32),
            "w_gate": matrix(d, f), "w_up": matrix(d, f), "w_down": matrix(f, d)}


@api
def trace(f, inputs, params=None, dtype="bf16"):
    """The graph of f(*inputs, params): shapes become arguments, numpy
    arrays constants."""
    return cs349.trace(f, inputs, params, dtype=dtype, name=getattr(f, "__name__", None))


class StepInfo:
    """What a step did, counted by the compiler when first asked."""

    def __init__(self, before, after, step):
        self._before, self._after, self.step = before, after, step

    @property
    def ops_before(self):
        return len(self._before.nodes)

    @property
    def ops_after(self):
        return len(self._after.nodes)

    @property
    def attention_ops(self):
        return sum(1 for n in self._after.nodes.values() if n.op == "attention")

    def __repr__(self):
        return f"<{self.step}: {self.ops_before} -> {self.ops_after} ops>"


def decompose(g):
    return g.decompose()


def cse(g):
    return g.cse()


def constant_fold(g):
    after = g.constant_fold()
    return after, StepInfo(g, after, "constant_fold")


def simplify(g):
    after = g.simplify()
    return after, StepInfo(g, after, "simplify")


def fold_norm_weight(g):
    # As cs349-opt --optimize: the folded weights are simplified right away.
    after = g.fold_norm_weight().canonicalize().cse()
    return after, StepInfo(g, after, "fold_norm_weight")


def match_attention(g):
    after = g.match_attention()
    return after, StepInfo(g, after, "match_attention")


class Kernels(list):
    """The kernels of a fused graph (a list: len(ks) is the kernel count).
    The graph is planned in the same compiler call (greedy-by-size, no
    alignment, as the lecture plans), so lifetimes need no further call."""

    def __init__(self, g, enable):
        self.graph = g
        self.planned = g.fuse(enable).plan_memory("greedy-by-size", alignment=1)
        super().__init__(self.planned.kernels)


@api
def fuse(g, enable=True):
    return Kernels(g, enable)


class Lifetimes(list):
    """[(nid, size, start, end)]: end == len(ks) means 'live to the end'
    (a function result); nid is the id of the node in g."""

    def __init__(self, kernels):
        self.kernels = kernels
        count = len(kernels)
        super().__init__((l.id, l.bytes, l.first, count if l.function_result else l.last)
                         for l in kernels.planned.lifetimes)


@api
def lifetimes(g, ks):
    return Lifetimes(ks)


STRATEGIES = {"greedy": "greedy-by-size", "greedy-by-size": "greedy-by-size", "naive": "naive",
              "best-fit": "best-fit", "search": "search", "best": "best"}


@api
def plan_memory(lts, strategy="greedy"):
    """(arena bytes, {nid: offset}) of the compiler's plan."""
    if strategy not in STRATEGIES:
        raise cs349.errors.at_user_line(cs349.TraceError, f"unknown strategy {strategy!r}: expected one of "
                                        + ", ".join(STRATEGIES))
    planned = lts.kernels.planned
    if STRATEGIES[strategy] != "greedy-by-size":
        planned = planned.parent.plan_memory(STRATEGIES[strategy], alignment=1)
    plan = planned.plan
    return plan.arena, plan.offsets()


@api
def lower_bound(lts):
    """The largest number of bytes live at one kernel: no plan is smaller."""
    return lts.kernels.planned.plan.lower_bound
