"""The README's first example from Python: one Llama-3.1-8B layer at
T = 2048, traced, optimized (with FlashAttention), fused and planned.

    python3 examples/plan_layer.py [T]
"""
import sys

import _path  # noqa: F401
import cs349
from cs349.models import LLAMA_3_1_8B as cfg, llama_layer, llama_param_shapes

T = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
layer = cs349.trace(llama_layer(cfg, T), {"x": (T, cfg.d)}, llama_param_shapes(cfg))
plan = layer.optimize().fuse().plan_memory().plan
print(f"@{layer.function}: arena {plan.arena} B, naive {plan.naive} B, lower bound {plan.lower_bound} B, "
      f"{plan.kernels} kernels")
