"""Reading what cs349-opt prints (generic form, with locations) back into
Python objects: functions, nodes, kernels, the memory plan."""
import re

from .dtypes import TensorType

_TENSOR = re.compile(r"tensor<[0-9x]*(?:bf16|f16|f32)>")
_OP = re.compile(r'^\s*(?:(%[\w]+)(?::(\d+))? = )?"([\w.]+)"\(([^)]*)\)(.*)$')
_NAME = re.compile(r'loc\((?:fused(?:<[^>]*>)?\[)?"((?:[^"\\]|\\.)*)"')
_SOURCE_NODE = re.compile(r'"n"\("[^"]*":(\d+):\d+\)')
_SITE = re.compile(r'\("((?:[^"\\]|\\.)*\.py)":(\d+):(\d+)\)')
_ARENA = re.compile(r"#cs349\.arena<([^>]*)>")
_BUFFER = re.compile(r"#cs349\.buffer<([^>]*)>")
_SYM = re.compile(r'sym_name = "([\w$.]+)"')
_ARG = re.compile(r"(%arg\d+): (tensor<[^>]*>)(?: loc\(\"((?:[^\"\\]|\\.)*)\")?")


def _fields(text):
    fields = {}
    for part in re.findall(r'(\w+) = ("[^"]*"|[-\w.+]+)', text):
        key, value = part
        fields[key] = value.strip('"') if value.startswith('"') else int(value) if value.lstrip("-").isdigit() else value
    return fields


class Node:
    """One op: `op` is its mnemonic ("matmul", "kernel", ...), `shape` and
    `dtype` those of its (first) result, `name` its step name, `inputs` the
    ids of the values it reads (node ids, or "%argN" for arguments),
    `source` where the traced function made it ("file.py:12"), `origin` the
    id of the op before --fuse it comes from (for ops inside kernels)."""

    def __init__(self, id, op, types, inputs, name, attributes, source=None, origin=None):
        self.id = id
        self.op = op
        self.types = types
        self.inputs = inputs
        self.name = name
        self.attributes = attributes
        self.source = source
        self.origin = origin

    @property
    def shape(self):
        return self.types[0].shape if self.types else ()

    @property
    def dtype(self):
        return self.types[0].dtype if self.types else None

    @property
    def bytes(self):
        return sum(t.bytes for t in self.types)

    def __repr__(self):
        shape = "×".join(map(str, self.shape))
        return f"<Node %{self.id} {self.op} {shape} {self.dtype} '{self.name}'>"


class Buffer:
    """A written result placed in the arena."""

    def __init__(self, kernel, result, node, offset, bytes, first, last, function_result):
        self.kernel = kernel
        self.result = result
        self.node = node
        self.offset = offset
        self.bytes = bytes
        self.first = first
        self.last = last
        self.function_result = function_result

    @property
    def name(self):
        return self.node.name if self.node is not None else f"k{self.kernel}#{self.result}"

    def __repr__(self):
        return (f"<Buffer '{self.name}' {self.bytes} B at {self.offset}, kernels [{self.first}, {self.last}]"
                f"{' (result)' if self.function_result else ''}>")


class Plan:
    """The memory plan of one function, as --plan-memory recorded it."""

    def __init__(self, fields, buffers):
        self.arena = fields.get("bytes")
        self.naive = fields.get("naive")
        self.lower_bound = fields.get("lower_bound")
        self.alignment = fields.get("alignment")
        self.kernels = fields.get("kernels")
        self.strategy = fields.get("strategy")
        self.buffers = buffers

    def offsets(self):
        return {b.node.origin if b.node.origin is not None else b.node.id: b.offset for b in self.buffers}

    def __repr__(self):
        return (f"<Plan {self.strategy}: arena {self.arena} B, naive {self.naive} B, "
                f"lower bound {self.lower_bound} B, {len(self.buffers)} buffers>")


class Kernel:
    """One cs349.kernel: the ops of its body, what it reads and what it writes."""

    def __init__(self, index, node, body, yields):
        self.index = index
        self.node = node
        self.ops = body
        self.results = yields  # the body nodes whose values the kernel writes

    @property
    def inputs(self):
        return self.node.inputs

    def __repr__(self):
        return f"<Kernel {self.index}: {' '.join(n.op for n in self.ops)} -> {len(self.results)} written>"


class Function:
    def __init__(self, name):
        self.name = name
        self.arguments = []  # (id, TensorType, name)
        self.nodes = {}  # id -> Node, top-level ops in order
        self.kernels = []
        self.returns = []
        self.attributes = ""
        self.plan = None


def _types(text):
    return [TensorType.parse(t) for t in _TENSOR.findall(text)]


def _split_signature(rest):
    """(attributes text, operand types, result types, location) of the text
    after an op's operand list."""
    loc_at = rest.rfind(" loc(")
    location = rest[loc_at:] if loc_at >= 0 else ""
    head = rest[:loc_at] if loc_at >= 0 else rest
    colon = head.rfind(" : (")
    signature = head[colon + 3:] if colon >= 0 else ""
    attributes = head[:colon] if colon >= 0 else head
    arrow = signature.rfind(") -> ")
    operand_types = _types(signature[:arrow + 1]) if arrow >= 0 else []
    result_types = _types(signature[arrow + 5:]) if arrow >= 0 else []
    return attributes, operand_types, result_types, location


def _node(match, rest, origin_lines):
    result, count, full, operands, _ = match.groups()
    attributes, _, results, location = _split_signature(rest)
    name = _NAME.search(location)
    site = _SITE.search(location)
    origin = _SOURCE_NODE.search(location)
    identifier = result[1:] if result else None
    if identifier is not None and identifier.isdigit():
        identifier = int(identifier)
    inputs, refs = [], []
    for operand in operands.split(","):
        operand = operand.strip()
        if operand:
            value, _, index = operand[1:].partition("#")
            value = int(value) if value.isdigit() else "%" + value
            inputs.append(value)
            refs.append((value, int(index or 0)))
    node = Node(identifier, full.split(".", 1)[1] if full.startswith("cs349.") else full,
                results, inputs, name.group(1) if name else None, attributes.strip(),
                f"{site.group(1)}:{site.group(2)}" if site else None,
                origin_lines.get(int(origin.group(1))) if origin and origin_lines else None)
    node.refs = refs
    return node


def parse(text, origin_lines=None):
    """Functions of a module printed with --mlir-print-op-generic
    --mlir-print-debuginfo --mlir-print-local-scope. `origin_lines` maps a
    line of the snapshot taken before --fuse to the id of the op on it."""
    functions = {}
    stack = []  # open regions: (kind, object)
    function = None
    kernel_body = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith('"func.func"'):
            sym = _SYM.search(line)
            function = Function(sym.group(1) if sym else "?")
            functions[function.name] = function
            stack.append(("func", function))
            continue
        if stripped.startswith("^bb0(") and stack and stack[-1][0] == "func":
            for arg, type_, name in _ARG.findall(stripped):
                function.arguments.append((arg, TensorType.parse(type_), name or arg))
            continue
        if stripped.startswith("})"):
            if not stack:
                continue
            kind, item = stack.pop()
            rest = stripped[2:]
            if kind == "func":
                function.attributes = rest
            elif kind == "kernel":
                node, body = item
                attributes, _, results, location = _split_signature(rest)
                node.types = results
                node.attributes = attributes.strip()
                name = _NAME.search(location)
                node.name = name.group(1) if name else None
                plan = [_fields(b) for b in _BUFFER.findall(attributes)]
                node.plan = plan
                kernel_body = None
            continue
        match = _OP.match(line)
        if not match or function is None:
            continue
        rest = match.group(5)
        if rest.endswith("({"):
            node = _node(match, "", origin_lines)
            if node.op == "kernel" and stack and stack[-1][0] == "func":
                body = []
                stack.append(("kernel", (node, body)))
                function.nodes[node.id] = node
                function.kernels.append((node, body))
                kernel_body = body
            else:
                stack.append(("other", node))
            continue
        node = _node(match, rest, origin_lines)
        if node.op == "func.return" and stack and stack[-1][0] == "func":
            function.returns = node.refs
        elif node.op == "yield":
            if kernel_body is not None:
                kernel_body.append(node)
        elif kernel_body is not None:
            kernel_body.append(node)
        elif stack and stack[-1][0] == "func":
            function.nodes[node.id] = node
    for function in functions.values():
        _finish(function)
    return functions


def _finish(function):
    kernels = []
    for index, (node, body) in enumerate(function.kernels):
        by_id = {n.id: n for n in body}
        yields = next((n for n in body if n.op == "yield"), None)
        written = [by_id.get(i) for i in (yields.inputs if yields else [])]
        ops = [n for n in body if n.op != "yield"]
        kernels.append(Kernel(index, node, ops, written))
    function.kernels = kernels
    arena = _ARENA.search(function.attributes)
    if not arena:
        return
    # A function result is a kernel result the return reads directly or
    # through views.
    returned = set()
    stack = list(function.returns)
    while stack:
        value, index = stack.pop()
        node = function.nodes.get(value)
        if node is None:
            continue
        if node.op == "kernel":
            returned.add((node.id, index))
        else:
            stack.extend(node.refs)
    buffers = []
    for kernel in kernels:
        for result, fields in enumerate(getattr(kernel.node, "plan", [])):
            written = kernel.results[result] if result < len(kernel.results) else None
            buffers.append(Buffer(kernel.index, result, written, fields.get("offset"), fields.get("bytes"),
                                  fields.get("first"), fields.get("last"),
                                  (kernel.node.id, result) in returned))
    function.plan = Plan(_fields(arena.group(1)), buffers)
