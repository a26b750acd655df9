"""cs349-run's text, for the float64 reference scripts next to this file.

read_arguments: the values `cs349-run --print-inputs` printed, one flat list
per argument, in order. print_result: a result in the form
`cs349-run --compare` reads.
"""


def read_arguments(path):
    arguments, current = [], None
    for line in open(path):
        if line.startswith("argument "):
            current = []
            arguments.append(current)
        elif line.startswith(("result ", "//", "memory:")):
            current = None
        elif current is not None:
            current.extend(float(v) for v in line.split())
    return arguments


def print_result(index, tensor_type, values, row_length):
    print("result %d: %s" % (index, tensor_type))
    for start in range(0, len(values), row_length):
        print("", " ".join("%.9e" % v for v in values[start:start + row_length]))
