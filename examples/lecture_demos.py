"""The memory-planning lecture's four demos, on the cs349 package's own API.

    python3 examples/lecture_demos.py [1 2 3 4]

Every byte count is the compiler's: the plans come from cs349-opt
--plan-memory, read back as Program.plan.
"""
import sys

import _path  # noqa: F401
import cs349
from cs349.models import LLAMA_3_1_8B, TINY, branches, llama_layer, llama_param_shapes
from console import fmt_bytes, print_header, print_table


def layer(cfg, T):
    return cs349.trace(llama_layer(cfg, T), {"x": (T, cfg.d)}, llama_param_shapes(cfg))


def demo1():
    print_header("Demo 1: the written results of a small layer (d = 128, T = 16, fused + FlashAttention)")
    planned = layer(TINY, 16).optimize().fuse().plan_memory(alignment=1)
    plan = planned.plan
    rows = []
    for b in sorted(plan.buffers, key=lambda b: b.first):
        rows.append([b.name, b.node.op, "x".join(map(str, b.node.shape)), b.bytes, b.first,
                     "result" if b.function_result else b.last, b.offset])
    print_table(["result", "op", "shape", "bytes", "first kernel", "last kernel", "offset"], rows)
    print(f"\nnaive {plan.naive} B, greedy {plan.arena} B, lower bound {plan.lower_bound} B")


def demo2():
    print_header("Demo 2: one Llama-3.1-8B layer, prefill activations (bf16)")
    rows = []
    for T in (512, 2048, 8192):
        program = layer(LLAMA_3_1_8B, T)
        for name, kernels in (("unfused", program.decompose().fuse(enable=False)),
                              ("fused", program.optimize(attention=False).fuse()),
                              ("fused + FlashAttention", program.optimize().fuse())):
            plan = kernels.plan_memory().plan
            rows.append([T, name, len(plan.buffers), fmt_bytes(plan.naive), fmt_bytes(plan.arena),
                         fmt_bytes(plan.lower_bound)])
    print_table(["T", "partition", "written results", "naive", "greedy", "lower bound"], rows)


def demo3():
    print_header("Demo 3: op order changes the peak (4 branches tanh(x @ W_i), [2048, 16384] each)")
    T, d, k = 2048, 4096, 4
    weights = {f"W{i}": (d, 4 * d) for i in range(k)}
    rows = []
    for order, depth_first in (("breadth-first", False), ("depth-first", True)):
        program = cs349.trace(branches(depth_first, k), {"x": (T, d)}, weights)
        for fused in (False, True):
            plan = program.decompose().fuse(enable=fused).plan_memory().plan
            rows.append([order, "fused" if fused else "unfused", plan.kernels, fmt_bytes(plan.arena),
                         fmt_bytes(plan.lower_bound)])
        # The compiler can find the better order itself.
        plan = program.decompose().schedule_memory().fuse().plan_memory().plan
        rows.append([order, "scheduled, fused", plan.kernels, fmt_bytes(plan.arena), fmt_bytes(plan.lower_bound)])
    print_table(["order in the code", "partition", "kernels", "greedy", "lower bound"], rows)


def demo4():
    print_header("Demo 4: the memory budget of one layer (Llama-3.1-8B, bf16, batch 1)")
    for T in (2048, 8192, 32768):
        print(layer(LLAMA_3_1_8B, T).memory_budget(layers=32))


if __name__ == "__main__":
    chosen = sys.argv[1:] or ["1", "2", "3", "4"]
    for number in chosen:
        {"1": demo1, "2": demo2, "3": demo3, "4": demo4}[number]()
