"""slice, concat and cast in float64, for Inputs/data_movement.mlir.

Reads the arguments `cs349-run --print-inputs` printed (x [4, 10], y [4, 3],
w [10, 6]) and prints the five results in cs349-run's format for
`cs349-run --compare`. bf16 rounding is done on the float32 bit pattern:
round to nearest, ties to even, at bit 16.
"""
import math
import struct
import sys

from run_text import print_result, read_arguments

x, y, w = read_arguments(sys.argv[1])


def at(values, columns, i, j):
    return values[i * columns + j]


def to_bf16(value):
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


box = [at(x, 10, 1 + 2 * i, 1 + 3 * j) for i in range(2) for j in range(3)]
concat = []
for i in range(4):
    concat.extend(at(x, 10, i, j) for j in range(4))
    concat.extend(math.exp(at(x, 10, i, 4 + j)) for j in range(3))
    concat.extend(at(y, 3, i, j) for j in range(3))
tanh = [math.tanh(v) for v in concat]
sums = [math.fsum(concat[i * 10:(i + 1) * 10]) for i in range(4)]
back = [to_bf16(v) for v in x]
product = [math.fsum(at(x, 10, i, l) * at(w, 6, l, j) for l in range(10))
           for i in range(4) for j in range(6)]
maxima = [max(at(product, 6, i, 3 + j) for j in range(3)) for i in range(4)]

print_result(0, "tensor<2x3xf32>", box, 3)
print_result(1, "tensor<4x10xf32>", tanh, 10)
print_result(2, "tensor<4x1xf32>", sums, 1)
print_result(3, "tensor<4x10xf32>", back, 10)
print_result(4, "tensor<4x1xf32>", maxima, 1)
