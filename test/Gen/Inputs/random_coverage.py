"""Checks that `cs349-gen random` emits every op of the cs349 dialect.

Reads the op mnemonics from the dialect's ODS file and the programs from
stdin; prints the ops that never appear and exits 1 if there are any. An op
added to the dialect fails this until the random generator emits it.
"""
import re
import sys

# Made by --fuse, not written by users: the generator's programs are inputs
# to the pipelines, which create these themselves.
STRUCTURAL = {"kernel", "yield"}

ods = open(sys.argv[1]).read()
ops = set(re.findall(r'^def CS349_\w+ : CS349_\w*Op<"(\w+)"', ods, re.M))
if len(ops) < 10:
    sys.exit("found only %d ops in %s" % (len(ops), sys.argv[1]))
programs = sys.stdin.read()
seen = set(re.findall(r"\bcs349\.(\w+)\b", programs))
missing = sorted(ops - STRUCTURAL - seen)
if missing:
    print("ops cs349-gen random never emitted: " + ", ".join(missing))
    sys.exit(1)
print("all %d ops emitted" % len(ops - STRUCTURAL))
