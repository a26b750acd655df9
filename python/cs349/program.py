"""A cs349 program and the compiler's steps on it.

A Program is MLIR text plus the cs349-opt passes still to run on it. Steps
(`decompose()`, `fuse()`, `plan_memory()`, ...) return a new Program and
run nothing; the passes run, in one cs349-opt call, when a result is looked
at (`nodes`, `kernels`, `plan`, `mlir`, `run`). Every number comes from
the compiler: the Python side only reads what cs349-opt prints.
"""
import os
import re
import tempfile

from . import ir, tools
from .dtypes import TensorType
from .errors import Cs349Error, TraceError, api, at_user_line

_PRINT = ["--mlir-print-op-generic", "--mlir-print-debuginfo", "--mlir-print-local-scope"]
# Values are printed as numbers, not under their step names: a traced op's
# location joins its step name with the Python line, so the names would
# differ from the same layer read from a file, and ir.py reads numbers.
_NUMBERED = "--mlir-use-nameloc-as-prefix=false"
_ELIDE = "--mlir-elide-elementsattrs-if-larger=16"


class Lifetime:
    """A written result: its node (the op before --fuse that computes it),
    size in bytes, the kernels that produce it and read it last."""

    def __init__(self, buffer):
        self.node = buffer.node
        self.id = buffer.node.origin if buffer.node.origin is not None else buffer.node.id
        self.bytes = buffer.bytes
        self.first = buffer.first
        self.last = buffer.last
        self.function_result = buffer.function_result
        self.name = buffer.name

    def __repr__(self):
        return (f"<Lifetime %{self.id} '{self.name}' {self.bytes} B kernels [{self.first}, {self.last}]"
                f"{' (result)' if self.function_result else ''}>")


class Program:
    def __init__(self, text, function, arguments=None, passes=(), parent=None):
        self.source = text
        self.function = function
        self.passes = tuple(passes)
        self.parent = parent
        self._arguments = arguments
        self._functions = None
        self._text = None

    # ------------------------------------------------------------------
    # Steps

    def then(self, *passes):
        """This program with more cs349-opt passes, e.g.
        then("--schedule-memory=algorithm=best")."""
        return Program(self.source, self.function, self._arguments, self.passes + tuple(passes), self)

    def match_attention(self):
        return self.then("--match-attention")

    def decompose(self):
        return self.then("--decompose")

    def cse(self):
        return self.then("--cse")

    def canonicalize(self):
        """Constant folding (within the folders' size limit) and the
        algebraic simplifications, to a fixed point."""
        return self.then("--canonicalize")

    constant_fold = canonicalize
    simplify = canonicalize

    def fold_norm_weight(self):
        return self.then("--fold-norm-weight")

    def optimize(self, attention=True):
        """match-attention (when attention), decompose, canonicalize, cse,
        fold-norm-weight: cs349-opt's --optimize."""
        return self.then(f"--optimize=attention={'true' if attention else 'false'}")

    def fuse(self, enable=True):
        return self.then(f"--fuse=enable={'true' if enable else 'false'}")

    def schedule_memory(self, algorithm="best"):
        return self.then(f"--schedule-memory=algorithm={algorithm}")

    def plan_memory(self, strategy="greedy-by-size", alignment=64):
        return self.then(f"--plan-memory=strategy={strategy} alignment={int(alignment)}")

    # ------------------------------------------------------------------
    # Results

    def _run_opt(self, extra, elide):
        """Runs the passes (and `extra` arguments) in one cs349-opt call:
        (output, the snapshot before --fuse or None, index of --fuse)."""
        with tempfile.TemporaryDirectory(prefix="cs349-") as folder:
            source = os.path.join(folder, "input.mlir")
            with open(source, "w") as f:
                f.write(self.source)
            passes = list(self.passes)
            snapshot = None
            fuse_at = next((i for i, p in enumerate(passes) if p.startswith("--fuse")), None)
            if extra and fuse_at is not None:
                snapshot = os.path.join(folder, "before-fuse.mlir")
                passes.insert(fuse_at, "--snapshot-op-locations=filename=" + snapshot +
                              " tag=n print-op-generic=true print-debuginfo=true print-local-scope=true")
            arguments = [source] + passes + (extra or []) + [_NUMBERED] + ([_ELIDE] if elide else [])
            what = "cs349-opt " + " ".join(self.passes) if self.passes else "cs349-opt"
            text = tools.run("cs349-opt", arguments, what=what)
            before = None
            if snapshot:
                with open(snapshot) as f:
                    before = f.read()
            return text, before, fuse_at

    def _materialize(self):
        if self._functions is not None:
            return self._functions
        text, before, fuse_at = self._run_opt(_PRINT, elide=True)
        origin_lines = None
        if before is not None:
            origin_lines = {}
            for number, line in enumerate(before.splitlines(), start=1):
                match = re.match(r'\s*%(\d+)(?::\d+)? = "', line)
                if match:
                    origin_lines[number] = int(match.group(1))
            # The snapshot is the program before --fuse: give it to that
            # step's Program, so that its node ids are the ones the kernels
            # point back to.
            ancestor = self.parent
            while ancestor is not None and len(ancestor.passes) > fuse_at:
                ancestor = ancestor.parent
            if ancestor is not None and ancestor._functions is None and len(ancestor.passes) == fuse_at:
                ancestor._functions = ir.parse(before)
        self._functions = ir.parse(text, origin_lines)
        return self._functions

    @property
    def functions(self):
        """Every function of the module, by name (after fold-norm-weight,
        the layer's initializer too)."""
        return self._materialize()

    @property
    def main(self):
        functions = self._materialize()
        if self.function not in functions:
            raise at_user_line(Cs349Error, f"the program has no function @{self.function}")
        return functions[self.function]

    @property
    def nodes(self):
        """The function's top-level ops by id: {id: Node(op, shape, dtype, name, ...)}."""
        return self.main.nodes

    @property
    def kernels(self):
        """The kernels (after fuse), in order."""
        return self.main.kernels

    @property
    def plan(self):
        """The memory plan (after plan_memory): arena, naive, lower_bound,
        buffers with offsets."""
        plan = self.main.plan
        if plan is None:
            raise at_user_line(Cs349Error, "this program has no memory plan: call plan_memory() first")
        return plan

    @property
    def lifetimes(self):
        """The written results, from the plan (after plan_memory)."""
        return [Lifetime(b) for b in self.plan.buffers]

    @property
    def arguments(self):
        """[(name, TensorType)] of the function as traced."""
        if self._arguments is None:
            base = Program(self.source, self.function)
            self._arguments = [(name, type_) for _, type_, name in base.main.arguments]
        return self._arguments

    def _report(self, flag, options=""):
        with tempfile.TemporaryDirectory(prefix="cs349-") as folder:
            output = os.path.join(folder, "report")
            self._run_opt([f"{flag}={options}output={output}", "-o", os.devnull], elide=True)
            with open(output) as f:
                return f.read()

    def memory_budget(self, batch=1, layers=0):
        """cs349-opt --memory-budget's text: weights, KV cache and
        activations (fused, and fused + FlashAttention) of a layer."""
        return self._report("--memory-budget", f"batch={int(batch)} layers={int(layers)} ")

    def memory_report(self, format="table"):
        """cs349-opt --memory-report of a planned program (table or json)."""
        return self._report("--memory-report", f"format={format} ")

    def plan_svg(self):
        """cs349-opt --plan-svg of a planned program: one rectangle per buffer."""
        return self._report("--plan-svg", f"functions={self.function} ")

    @property
    def mlir(self):
        """The module as MLIR text (the tool's custom form, constants in full)."""
        if self._text is None:
            self._text = self._run_opt(None, elide=False)[0]
        return self._text

    def __str__(self):
        return self.mlir

    def __repr__(self):
        steps = " ".join(self.passes) or "as traced"
        return f"<cs349 Program @{self.function}: {steps}>"

    # ------------------------------------------------------------------
    # Execution

    @api
    def run(self, *values, seed=None, mode="auto", **named):
        """Runs the function on the CPU (cs349-run) and returns its results
        as numpy float32 arrays (one array, or a tuple for several).

        Values are given in the order of the traced arguments, by name, or
        not at all with `seed=N` (cs349-run's deterministic values)."""
        try:
            import numpy as np
        except ImportError:
            raise at_user_line(Cs349Error, "run takes and returns numpy arrays: install python3-numpy "
                               "(scripts/setup.sh does)") from None
        names = [name for name, _ in self.arguments]
        options = [f"--mode={mode}"]
        with tempfile.TemporaryDirectory(prefix="cs349-run-") as folder:
            program = os.path.join(folder, "program.mlir")
            with open(program, "w") as f:
                f.write(self.mlir)
            if seed is not None:
                if values or named:
                    raise at_user_line(TraceError, "run: give either values or seed, not both")
                options.append(f"--seed={int(seed)}")
            else:
                given = dict(zip(names, values))
                if len(values) > len(names):
                    raise at_user_line(TraceError, f"run: @{self.function} takes {len(names)} arguments "
                                       f"({', '.join(names)}), got {len(values)}")
                for key, value in named.items():
                    if key not in names:
                        raise at_user_line(TraceError, f"run: @{self.function} has no argument '{key}' "
                                           f"(it has {', '.join(names) or 'none'})")
                    given[key] = value
                missing = [n for n in names if n not in given]
                if missing:
                    raise at_user_line(TraceError, f"run: no value for {', '.join(missing)} "
                                       "(or pass seed=N for deterministic values)")
                packed = []
                for name, type_ in self.arguments:
                    array = np.asarray(given[name], dtype=np.float32)
                    if tuple(array.shape) != type_.shape:
                        raise at_user_line(TraceError, f"run: '{name}' must have shape {list(type_.shape)}, "
                                           f"got {list(array.shape)}")
                    packed.append(array.astype("<f4").reshape(-1))
                inputs = os.path.join(folder, "inputs.f32")
                with open(inputs, "wb") as f:
                    for array in packed:
                        f.write(array.tobytes())
                options.append(f"--inputs={inputs}")
            options.append(f"--function={self.function}")
            output = tools.run("cs349-run", [program] + options, what=f"cs349-run @{self.function}")
        return _results(output)


# Every public step and result reports a mistake at the user's line.
for _name, _member in list(vars(Program).items()):
    if _name.startswith("_"):
        continue
    if isinstance(_member, property):
        setattr(Program, _name, property(api(_member.fget)))
    elif callable(_member) and _name != "run":
        setattr(Program, _name, api(_member))


def _results(output):
    import numpy as np
    results, current, values = [], None, []
    for line in output.splitlines():
        header = re.match(r"result \d+: (tensor<[^>]*>)", line)
        if header:
            if current is not None:
                results.append(np.array(values, dtype=np.float32).reshape(current.shape))
            current, values = TensorType.parse(header.group(1)), []
        elif current is not None and line.startswith(" "):
            values.extend(float(v) for v in line.split())
    if current is not None:
        results.append(np.array(values, dtype=np.float32).reshape(current.shape))
    return results[0] if len(results) == 1 else tuple(results)


@api
def from_mlir(text, function=None):
    """A Program from MLIR text (e.g. cs349-gen's output)."""
    if function is None:
        match = re.search(r"func\.func @([\w$.]+)", text) or re.search(r'sym_name = "([\w$.]+)"', text)
        if not match:
            raise at_user_line(Cs349Error, "from_mlir: the text has no func.func")
        function = match.group(1)
    return Program(text, function)
