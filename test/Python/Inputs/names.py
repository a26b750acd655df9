"""Step names from the traced code: assigned variables, the user's
functions, scopes, loops; printed as name <- op."""
import re

import cs349
from cs349 import F


def mlp(x, p):
    gate = x @ p["w"]
    return F.silu(gate) * gate


def block(x, p):
    with cs349.scope("block0"):
        y = mlp(x, p)
    total = None
    for i in range(3):
        s = F.tanh(y).sum(axis=-1, keepdims=True)
        total = s if total is None else total + s
    a, b = F.exp(y), F.neg(y)
    return (a + b) * total


program = cs349.trace(block, {"x": (4, 8)}, {"w": (8, 8)})
for op, name in re.findall(r'"cs349\.(\w+)".*loc\("([^"]*)"', program.source):
    print(f"{name} <- {op}")
planned = program.fuse().plan_memory()
for buffer in planned.plan.buffers:
    print("written:", buffer.name, buffer.node.source.rsplit("/", 1)[-1])
