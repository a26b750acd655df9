"""Writes the argument values cs349-run --print-inputs printed as the raw
little-endian float32 file --inputs reads (every argument, in order).

    printed_inputs.py PRINTED OUT
"""
import struct
import sys

from run_text import read_arguments

values = [v for argument in read_arguments(sys.argv[1]) for v in argument]
with open(sys.argv[2], "wb") as out:
    out.write(struct.pack(f"<{len(values)}f", *values))
