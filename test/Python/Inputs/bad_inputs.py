"""Bad input to the package: every case must be a Cs349Error whose message
names the line of this file that made the mistake, never another exception."""
import cs349, graph_lab
from cs349 import F
import traceback
cases = {
 "inputs not a dict": lambda: cs349.trace(lambda x: x, [(4, 4)]),
 "bad shape": lambda: cs349.trace(lambda x: x, {"x": "abc"}),
 "bad dtype": lambda: cs349.trace(lambda x: x, {"x": (4,)}, dtype="int8"),
 "axis": lambda: cs349.trace(lambda x: F.softmax(x, axis=5), {"x": (4, 4)}),
 "reshape": lambda: cs349.trace(lambda x: x.reshape(3, 5), {"x": (4, 4)}),
 "rank1 matmul": lambda: cs349.trace(lambda x: x @ x, {"x": (4,)}),
 "no result": lambda: cs349.trace(lambda x: None, {"x": (4,)}),
 "outside": lambda: F.exp(cs349.trace(lambda x: x, {"x": (4,)})),
 "strategy": lambda: graph_lab.plan_memory(graph_lab.lifetimes(None, graph_lab.fuse(cs349.trace(lambda x: F.exp(x), {"x": (4,)}))), "fastest"),
 "no plan": lambda: cs349.trace(lambda x: F.exp(x), {"x": (4,)}).plan,
 "bad kwarg": lambda: cs349.trace(lambda x: F.softmax(x, axes=1), {"x": (4, 4)}),
 "bool": lambda: cs349.trace(lambda x: 1 if x else 2, {"x": (4, 4)}),
 "run unknown": lambda: cs349.trace(lambda x: F.exp(x), {"x": (4,)}).run(y=1),
 "dtype mix": lambda: cs349.trace(lambda x, p: x + F.constant(1.0, "f32"), {"x": (4,)}, {}),
 "rope bad": lambda: cs349.trace(lambda x: F.rope(x, F.rope_table("cos", 3, 4), F.rope_table("sin", 3, 4)), {"x": (2, 4, 4)}),
 "from_mlir bad": lambda: cs349.from_mlir("garbage"),
 "mlir bad": lambda: cs349.from_mlir("func.func @f() { return }").then("--no-such-pass").nodes,
}
for name, case in cases.items():
    try:
        case(); print(name, "-> no error")
    except cs349.Cs349Error as e:
        print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0].replace(__file__.rsplit('/', 1)[0] + '/', '')[:100]}")
    except Exception as e:
        print(f"{name}: UNEXPECTED {type(e).__name__}: {e}"); traceback.print_exc(limit=3)
