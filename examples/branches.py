"""The branches demo traced from Python: k branches y_i = tanh(x @ W_i),
row-summed and added, written breadth-first or depth-first.

    python3 examples/branches.py [k]

The traced program is op for op what `cs349-gen branches` emits; the plans
show that the order in the code sets the peak, and that
--schedule-memory finds the depth-first order on its own.
"""
import sys

import _path  # noqa: F401
import cs349
from cs349.models import branches
from console import fmt_bytes, print_header, print_table

T, D, WIDTH = 2048, 4096, 16384


def main():
    k = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    weights = {f"W{i}": (D, WIDTH) for i in range(k)}
    print_header(f"{k} branches tanh(x @ W_i), x [{T}, {D}], W_i [{D}, {WIDTH}] (bf16)")
    rows = []
    for order, depth_first in (("breadth-first", False), ("depth-first", True)):
        program = cs349.trace(branches(depth_first, k), {"x": (T, D)}, weights)
        for name, steps in (("fused", program.fuse()),
                            ("scheduled, fused", program.schedule_memory().fuse())):
            plan = steps.plan_memory().plan
            live = [b.name for b in plan.buffers if b.bytes == max(x.bytes for x in plan.buffers)]
            rows.append([order, name, plan.kernels, fmt_bytes(plan.arena), plan.arena, fmt_bytes(plan.lower_bound),
                         ", ".join(live)])
    print_table(["order in the code", "steps", "kernels", "greedy", "(bytes)", "lower bound", "largest results"], rows)


if __name__ == "__main__":
    main()
