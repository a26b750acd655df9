"""Model layers written with the tracer: the Llama decoder layer (as
cs349-gen writes it, op for op and name for name) and the lecture's branches."""
import math
from collections import namedtuple

from .functional import F
from .trace import scope

# d: model width, H: query heads, G: key/value heads, dh: head width, f: MLP width.
LayerConfig = namedtuple("LayerConfig", "d H G dh f")
LLAMA_3_1_8B = LayerConfig(4096, 32, 8, 128, 14336)
TINY = LayerConfig(128, 8, 2, 16, 344)
ROPE_THETA = 500000.0
EPSILON = 1e-5


def llama_param_shapes(cfg):
    """{name: shape} of one layer's weights, in cs349-gen's argument order."""
    d, H, G, dh, f = cfg
    return {"attn_norm": (d,), "wq": (d, H * dh), "wk": (d, G * dh), "wv": (d, G * dh),
            "wo": (H * dh, d), "mlp_norm": (d,), "w_gate": (d, f), "w_up": (d, f), "w_down": (f, d)}


def llama_layer(cfg, T, layer="layer0"):
    """f(x, p): a Llama decoder layer over T tokens, x [T, d], p the weights
    of llama_param_shapes(cfg). Its steps are named like cs349-gen's
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

    def layer_function(x, p):
        with scope(layer):
            return mlp(attn(x, p), p)

    layer_function.__name__ = "layer"
    return layer_function


def branches(depth_first, k=4):
    """f(x, p): k branches y_i = tanh(x @ p["W<i>"]), each row-summed, the
    sums added; depth_first computes each branch to its sum before the next."""
    def branches(x, p):
        if depth_first:
            total = None
            for i in range(k):
                with scope(f"branch{i}"):
                    y = F.tanh(x @ p[f"W{i}"])
                    s = y.sum(axis=-1, keepdims=True)
                    total = s if total is None else total + s
            return total
        ys = []
        for i in range(k):
            with scope(f"branch{i}"):
                y = F.tanh(x @ p[f"W{i}"])
                ys.append(y)
        sums = []
        for i, y in enumerate(ys):
            with scope(f"branch{i}"):
                s = y.sum(axis=-1, keepdims=True)
                sums.append(s)
        total = sums[0]
        for s in sums[1:]:
            total = total + s
        return total
    return branches
