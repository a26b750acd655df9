"""Prints the cs349 ops of every kernel of the first function of a planned
module, a kernel a line in order, so that two plans' kernels can be
compared op by op."""
import re
import sys

text = open(sys.argv[1]).read()
kernels, current = [], None
for line in text[text.index("func.func @"):].splitlines():
    if line.startswith("  func.func @") and kernels:
        break
    if "cs349.kernel" in line:
        current = []
        kernels.append(current)
    elif current is not None:
        if "cs349.yield" in line:
            current = None
            continue
        match = re.search(r"= (cs349\.\w+)", line)
        if match:
            current.append(match.group(1).split(".", 1)[1])
print("%d kernels" % len(kernels))
for ops in kernels:
    print(" ".join(ops))
