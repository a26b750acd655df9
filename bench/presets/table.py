#!/usr/bin/env python3
"""The memory of every layer preset, planned three ways, and of its model.

For each preset of `cs349-gen layer` and each sequence length, one layer in
bf16 is planned

  unfused           --decompose --fuse=enable=false --plan-memory
                    (every op its own kernel: the written results)
  fused             --optimize=attention=false --fuse --plan-memory
  fused + FA        --optimize --fuse --plan-memory (FlashAttention where the
                    mask allows it)

and the table gives, for each, the kernels (= written results), the naive
arena (no reuse), greedy-by-size's arena and the lower bound; then
`--memory-budget` of the whole model (weights, KV cache, activations of its
layers; the embedding and the LM head are not counted).

    bench/presets/table.py [--tools build/bin] [--seq 2048,8192]

Python standard library only. The layer counts below are the models'
published configurations.
"""

import argparse
import os
import re
import subprocess
import sys

# Decoder (or encoder) layers of each preset's model.
MODEL_LAYERS = {
    "llama3.1-8b": 32,
    "gpt2": 12,
    "bert-base": 12,
    "qwen2.5-7b": 28,
    "mistral-7b": 32,
    "gemma-2b": 18,
}

PIPELINES = [
    ("unfused", ["--decompose", "--fuse=enable=false", "--plan-memory"]),
    ("fused", ["--optimize=attention=false", "--fuse", "--plan-memory"]),
    ("fused + FA", ["--optimize", "--fuse", "--plan-memory"]),
]

ARENA = re.compile(r"@layer\([^\n]*?#cs349\.arena<bytes = (\d+), naive = (\d+), "
                   r"lower_bound = (\d+), alignment = \d+, kernels = (\d+)")


def run(argv, stdin=None):
    result = subprocess.run(argv, input=stdin, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("table.py: %s failed:\n%s" % (" ".join(argv), result.stderr))
    return result.stdout


def mb(value):
    return "%.1f" % (value / 1e6)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--tools", default=os.path.join(here, "..", "..", "build", "bin"))
    parser.add_argument("--seq", default="2048,8192")
    parser.add_argument("--presets", default=",".join(MODEL_LAYERS))
    args = parser.parse_args()
    gen = os.path.join(args.tools, "cs349-gen")
    opt = os.path.join(args.tools, "cs349-opt")

    print("One layer, bf16, alignment 64; MB = 10^6 B. Each plan: kernels "
          "(written results), naive / greedy-by-size / lower bound in MB.\n")
    print("| preset | T | unfused | fused | fused + FA | greedy = LB |")
    print("|---|---|---|---|---|---|")
    budgets = []
    for preset in args.presets.split(","):
        for seq in args.seq.split(","):
            layer = run([gen, "layer", "--preset", preset, "--seq", seq])
            cells, all_at_bound = [], True
            for name, flags in PIPELINES:
                planned = run([opt, "-"] + flags, layer)
                match = ARENA.search(planned)
                if not match:
                    sys.exit("table.py: no plan of @layer for %s at T = %s (%s)"
                             % (preset, seq, name))
                greedy, naive, bound, kernels = map(int, match.groups())
                all_at_bound &= greedy == bound
                cells.append("%d: %s / %s / %s" % (kernels, mb(naive), mb(greedy),
                                                     mb(bound)))
            print("| %s | %s | %s | %s |" % (preset, seq, " | ".join(cells),
                                             "yes" if all_at_bound else "no"))
            budget = run([opt, "-", "--memory-budget=layers=%d" % MODEL_LAYERS[preset],
                          "-o", os.devnull], layer)
            budgets.append((preset, seq, budget))

    print("\nThe whole model (`--memory-budget`, its layers only):\n")
    print("| preset | layers | T | weights | KV cache | activations fused | "
          "activations fused + FA | total fused + FA |")
    print("|---|---|---|---|---|---|---|---|")
    for preset, seq, budget in budgets:
        def field(label):
            match = re.search(r"^  %s\s+\S+ \S+\s+\((\d+) B" % re.escape(label), budget,
                              re.MULTILINE)
            return int(match.group(1)) if match else None
        layers = MODEL_LAYERS[preset]
        weights = field("weights per layer")
        kv = field("KV cache for %d layers" % layers)
        fused = field("activations, fused")
        flash = field("activations, fused + FlashAttention")
        if None in (weights, kv, fused, flash):
            sys.exit("table.py: unexpected --memory-budget output:\n" + budget)
        total = weights * layers + kv + flash
        print("| %s | %d | %s | %s | %s | %s | %s | %s |" % (
            preset, layers, seq, mb(weights * layers), mb(kv), mb(fused), mb(flash),
            mb(total)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
