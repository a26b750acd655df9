"""Writes the argument values cs349-run --print-inputs printed as the raw
little-endian float32 file --inputs reads (every argument, in order).

    printed_inputs.py PRINTED OUT
"""
import struct
import sys

values, reading = [], False
with open(sys.argv[1]) as printed:
    for line in printed:
        if line.startswith("argument "):
            reading = True
        elif line.startswith(("result ", "//", "memory:")):
            reading = False
        elif reading:
            values.extend(float(v) for v in line.split())
with open(sys.argv[2], "wb") as out:
    out.write(struct.pack(f"<{len(values)}f", *values))
