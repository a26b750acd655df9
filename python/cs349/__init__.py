"""cs349 from Python: trace a function over tensors into cs349 IR, run the
compiler's steps on it, look at the graph, kernels and memory plan after
each, and run it.

    import cs349
    from cs349 import F

    def block(x, p):
        h = F.rms_norm(x, p["norm"])
        return x + F.silu(h @ p["w"])

    program = cs349.trace(block, {"x": (16, 64)}, {"norm": (64,), "w": (64, 64)})
    planned = program.optimize().fuse().plan_memory()
    print(planned.plan.arena, planned.plan.lower_bound)
"""
from .errors import Cs349Error, ToolError, ToolsNotFound, TraceError
from .functional import FUNCTIONS, F, constant
from .program import Lifetime, Program, from_mlir
from .trace import Tensor, scope, trace
from . import tools

__all__ = ["F", "FUNCTIONS", "Program", "Tensor", "Lifetime", "trace", "scope", "constant",
           "from_mlir", "tools", "Cs349Error", "TraceError", "ToolError", "ToolsNotFound"]
