#!/usr/bin/env python3
"""The presets' memory table of docs/generator.md, measured.

For each preset at T = 2048 and 8192 (bf16, argument weights): the planned
@layer after three pipelines (unfused: every op its own kernel; fused;
fused + FlashAttention), each as written results, naive bytes, the greedy
(greedy-by-size) arena and the lower bound; then --memory-budget of the
whole model (cs349-gen model with the preset's number of layers): weights,
KV cache and activations (fused + FlashAttention). Prints a Markdown table.

    scripts/preset-table.py --bin build/bin
"""
import argparse
import re
import subprocess

from plan_tables import human

LAYERS = {"gpt2": 12, "bert-base": 12, "qwen2.5-7b": 28, "mistral-7b": 32,
          "gemma-2b": 18, "llama3.1-8b": 32}
PIPELINES = [
    ("unfused", "--optimize=attention=false --fuse=enable=false --plan-memory"),
    ("fused", "--optimize=attention=false --fuse --plan-memory"),
    ("fused + FA", "--optimize --fuse --plan-memory"),
]
ARENA = re.compile(r"cs349\.arena = #cs349\.arena<bytes = (\d+), naive = (\d+), "
                   r"lower_bound = (\d+)")


def run(command):
    return subprocess.run(command, shell=True, check=True, capture_output=True,
                          text=True).stdout


def layer_plan(tools, preset, seq, flags):
    text = run(f"{tools}/cs349-gen layer --preset {preset} --seq {seq} "
               f"--locations=false | {tools}/cs349-opt {flags}")
    # @layer comes first; an initializer (folded gains) follows it.
    layer = text.split("func.func @layer_init")[0]
    greedy, naive, lower = (int(v) for v in ARENA.search(layer).groups())
    written = layer.count("#cs349.buffer<")
    return written, naive, greedy, lower


def budget(tools, preset, seq):
    text = run(f"{tools}/cs349-gen model --preset {preset} --seq {seq} "
               f"--layers {LAYERS[preset]} | {tools}/cs349-opt --memory-budget "
               f"-o /dev/null")
    def field(label):
        match = re.search(label + r".*?\((\d+) B", text)
        return int(match.group(1))
    # The budget shares the model's weights (embedding and head included)
    # out over its layers; times the layers they are the model's again.
    return (field("weights per layer") * LAYERS[preset],
            field(r"KV cache for \d+ layers?"),
            field("activations, fused \\+ FlashAttention"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="build/bin")
    args = parser.parse_args()
    header = ["preset", "T"] + [f"{name}: written / naive / greedy / bound"
                                for name, _ in PIPELINES]
    header += ["model: weights", "KV cache", "activations"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for preset in LAYERS:
        for seq in (2048, 8192):
            row = [f"`{preset}` ({LAYERS[preset]} layers)", str(seq)]
            for _, flags in PIPELINES:
                written, naive, greedy, lower = layer_plan(args.bin, preset,
                                                           seq, flags)
                gap = "" if greedy == lower else " ≠"
                row.append(f"{written} / {human(naive)} / {human(greedy)}"
                           f" / {human(lower)}{gap}")
            row += [human(v) for v in budget(args.bin, preset, seq)]
            print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
