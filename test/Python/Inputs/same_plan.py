"""Traces a layer with cs349.models and reads cs349-gen's layer of the same
configuration; prints whether the IR and the plans agree.

    same_plan.py CS349_GEN d H G dh f T [preset]
"""
import subprocess
import sys

import cs349
from cs349.models import LayerConfig, llama_layer, llama_param_shapes

gen, *sizes = sys.argv[1:]
d, H, G, dh, f, T = (int(s) for s in sizes)
cfg = LayerConfig(d, H, G, dh, f)
traced = cs349.trace(llama_layer(cfg, T), {"x": (T, d)}, llama_param_shapes(cfg))
text = subprocess.run([gen, "layer", "--d", str(d), "--heads", str(H), "--kv-heads", str(G), "--head-dim",
                       str(dh), "--ffn", str(f), "--seq", str(T)], check=True, capture_output=True,
                      text=True).stdout
generated = cs349.from_mlir(text)
print("same IR:", traced.mlir == generated.mlir)
for name, step in (("unfused", lambda p: p.decompose().fuse(enable=False)),
                   ("fused", lambda p: p.optimize(attention=False).fuse()),
                   ("flash", lambda p: p.optimize().fuse())):
    plans = [step(p).plan_memory().plan for p in (traced, generated)]
    rows = [[(b.name, b.node.op, b.bytes, b.first, b.last, b.offset, b.function_result) for b in plan.buffers]
            for plan in plans]
    totals = [(plan.arena, plan.naive, plan.lower_bound, plan.kernels) for plan in plans]
    print(f"{name}: arena {totals[0][0]} naive {totals[0][1]} lower bound {totals[0][2]} "
          f"kernels {totals[0][3]} buffers {len(rows[0])}; same plan: {rows[0] == rows[1] and totals[0] == totals[1]}")
