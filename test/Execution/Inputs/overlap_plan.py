#!/usr/bin/env python3
"""Breaks a memory plan on purpose: moves the buffer of one kernel result onto
the bytes of another result that is still live when the first is written.

Reads planned IR (after --plan-memory) on stdin, writes it to stdout with one
`offset = ...` changed, and reports the move on stderr. A correct program
must now compute something else, which is what shows that the planned
program really keeps its results in the arena.
"""
import re
import sys

BUFFER = re.compile(r"#cs349\.buffer<offset = (\d+), bytes = (\d+), "
                    r"first = (-?\d+), last = (-?\d+)>")

text = sys.stdin.read()
buffers = [(m.start(1), m.end(1), int(m.group(1)), int(m.group(2)),
            int(m.group(3)), int(m.group(4))) for m in BUFFER.finditer(text)]
arena = int(re.search(r"#cs349\.arena<bytes = (\d+)", text).group(1))

# a: the victim, live across the kernel that writes b; b moves onto a.
for a in buffers:
    for b in buffers:
        _, _, a_off, a_bytes, a_first, a_last = a
        start, end, b_off, b_bytes, b_first, b_last = b
        if not (a_first < b_first < a_last) or b_off == a_off:
            continue
        if a_off + b_bytes > arena:
            continue
        sys.stderr.write("moved the buffer of kernel %d (offset %d) onto the "
                         "buffer of kernel %d (offset %d, live until %d)\n"
                         % (b_first, b_off, a_first, a_off, a_last))
        sys.stdout.write(text[:start] + str(a_off) + text[end:])
        sys.exit(0)
sys.exit("no pair of buffers to overlap")
