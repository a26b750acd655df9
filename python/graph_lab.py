"""The lecture's graph library, on the cs349 compiler.

Same names, call signatures and return shapes as the lecture scripts use
(`trace`, `decompose`, `fuse(g, enable=...)`, `lifetimes(g, ks)` ->
[(nid, size, start, end)], `plan_memory(lts, strategy)` -> (peak, {nid:
offset}), ...); every number comes from cs349-opt. A graph is a
cs349.Program; its steps run lazily, so a chain of steps is one cs349-opt
call when its result is first looked at.
"""
import math

import cs349
from cs349 import F, models
from cs349.errors import FRONT_ENDS, api

FRONT_ENDS.add(__file__ if __file__.startswith("/") else __import__("os").path.abspath(__file__))

__all__ = ["F", "LayerCfg", "LLAMA8B", "prefill_layer", "layer_params", "trace", "decompose", "cse",
           "constant_fold", "simplify", "fold_norm_weight", "match_attention", "fuse", "lifetimes",
           "plan_memory", "lower_bound"]

LayerCfg = models.LayerConfig
LLAMA8B = models.LLAMA_3_1_8B


def prefill_layer(cfg, T):
    """A Llama decoder layer over T tokens: f(x, p) with x [T, d] and the
    weights of layer_params(cfg); its steps are named like cs349-gen's."""
    return models.llama_layer(cfg, T)


@api
def layer_params(cfg, seed=0):
    """Concrete weights (numpy, float32): they become constants of the
    traced layer. Norm gains near 1, matrices scaled by 1/sqrt(fan-in)."""
    try:
        import numpy as np
    except ImportError:
        raise cs349.errors.at_user_line(cs349.Cs349Error, "layer_params makes numpy arrays: install python3-numpy "
                                        "(scripts/setup.sh does), or trace with shapes") from None
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
    # The lecture runs cse before simplify; what simplify made equal is
    # merged here, as the cse after canonicalize does in --optimize.
    after = g.fold_norm_weight().cse()
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
