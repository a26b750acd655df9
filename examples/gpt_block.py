"""A GPT-2-style transformer block (LayerNorm, biases, causal multi-head
attention, a plain GELU MLP), written with the ops the cs349 dialect has:
LayerNorm from row sums, GELU from its tanh form.

    python3 examples/gpt_block.py [T]

Prints the block's memory plan with and without FlashAttention.
"""
import math
import sys

import _path  # noqa: F401
import cs349
from cs349 import F
from console import fmt_bytes, print_header, print_table

D, HEADS, FFN = 768, 12, 3072  # GPT-2 small
EPSILON = 1e-5


def layer_norm(x, gain, bias):
    mean = x.sum(axis=-1, keepdims=True) / float(x.shape[-1])
    centered = x - mean
    variance = (centered * centered).sum(axis=-1, keepdims=True) / float(x.shape[-1])
    return centered * F.rsqrt(variance + EPSILON) * gain + bias


def gelu(x):
    inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * (x * x * x))
    return 0.5 * x * (1.0 + F.tanh(inner))


def block(T):
    dh = D // HEADS

    def attention(x, p):
        h = layer_norm(x, p["ln1_g"], p["ln1_b"])
        q = (h @ p["w_q"] + p["b_q"]).reshape(T, HEADS, dh).transpose(1, 0, 2)
        k = (h @ p["w_k"] + p["b_k"]).reshape(T, HEADS, dh).transpose(1, 0, 2)
        v = (h @ p["w_v"] + p["b_v"]).reshape(T, HEADS, dh).transpose(1, 0, 2)
        scores = q @ k.mT
        scaled = scores * (1.0 / math.sqrt(dh))
        masked = scaled + F.causal_mask(T)
        probabilities = F.softmax(masked, axis=-1)
        context = (probabilities @ v).transpose(1, 0, 2).reshape(T, D)
        return x + (context @ p["w_o"] + p["b_o"])

    def mlp(x, p):
        h = layer_norm(x, p["ln2_g"], p["ln2_b"])
        up = gelu(h @ p["w_up"] + p["b_up"])
        return x + (up @ p["w_down"] + p["b_down"])

    def gpt_block(x, p):
        with cs349.scope("block0"):
            return mlp(attention(x, p), p)

    return gpt_block


def params():
    # GPT-2 stores q, k and v as one [D, 3D] projection; the dialect has no
    # slicing op to split its output, so they are three projections here.
    return {"ln1_g": (D,), "ln1_b": (D,), "w_q": (D, D), "b_q": (D,), "w_k": (D, D), "b_k": (D,),
            "w_v": (D, D), "b_v": (D,),
            "w_o": (D, D), "b_o": (D,), "ln2_g": (D,), "ln2_b": (D,),
            "w_up": (D, FFN), "b_up": (FFN,), "w_down": (FFN, D), "b_down": (D,)}


def main():
    T = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    program = cs349.trace(block(T), {"x": (T, D)}, params())
    print_header(f"A GPT-2-style block, T = {T} (bf16)")
    rows = []
    for name, step in (("fused", program.optimize(attention=False)), ("fused + FlashAttention", program.optimize())):
        planned = step.fuse().plan_memory()
        plan = planned.plan
        attention = sum(1 for k in planned.kernels for n in k.ops if n.op == "attention")
        rows.append([name, plan.kernels, attention, len(plan.buffers), fmt_bytes(plan.naive),
                     fmt_bytes(plan.arena), fmt_bytes(plan.lower_bound)])
    print_table(["pipeline", "kernels", "attention ops", "written results", "naive", "greedy", "lower bound"], rows)
    largest = max(planned.plan.buffers, key=lambda b: b.bytes)
    print(f"\nlargest written result with FlashAttention: {largest.name} ({largest.node.op}, "
          f"{'x'.join(map(str, largest.node.shape))}, {fmt_bytes(largest.bytes)}) from {largest.node.source}")


if __name__ == "__main__":
    main()
