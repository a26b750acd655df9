"""Writes the arguments of Inputs/nan-forms.mlir, holding NaN, as cs349-run
--inputs files (little-endian float32): DIR/nan.f32 for the 1x2x4 pairs
(a's first row all NaN), DIR/attention.f32 for the attention (one query row
with a NaN)."""

import math
import pathlib
import struct
import sys

nan = math.nan
out = pathlib.Path(sys.argv[1])
a = [nan, nan, nan, nan, 0.5, nan, -1.0, 2.0]
b = [3.0, nan, 1.0, 5.0, 1.0, 2.0, nan, 4.0]
(out / "nan.f32").write_bytes(struct.pack("<16f", *a, *b))
q = [0.5, 0.25, -1.0, 2.0, nan, 1.0, 0.0, 0.0,
     1.0, 0.0, 0.5, -0.5, 0.25, 0.75, -1.0, 1.0]
k = [1.0, -1.0, 0.5, 0.25, 2.0, 0.0, 1.0, -1.0,
     -0.5, 1.0, 1.0, 0.0, 0.0, 0.5, -1.0, 2.0]
(out / "attention.f32").write_bytes(struct.pack("<32f", *q, *k))
