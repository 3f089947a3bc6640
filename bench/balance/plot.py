#!/usr/bin/env python3
"""Plots a distwar_balance_bench JSON file: per pass (forward, backward), the
speedup over the original kernel per preset, one bar per kernel (log scale),
2x marked. Kernels: the ones named on the command line, else every kernel
the JSON holds but the slow warp-per-pixel ones and the launch-order
reference; `tuned` is always drawn.

    python3 bench/balance/plot.py bench.json out.png [kernel ...]
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator  # noqa: E402

TICKS = [0.25, 0.5, 1, 2, 3, 4, 6, 8]

# Left out unless asked for: the warp-per-pixel kernels, never faster than
# 0.5x off the severe scene, and the launch-order column, a reference for
# dynamic-tiles rather than a kernel of its own.
LEFT_OUT = {"gaussian-wise", "fine-2x2", "fine-4x2", "fine-4x4",
            "dynamic-tiles, launch order"}


def kernels_of(case, pass_name, wanted):
    names = [k for k in case[pass_name]
             if k not in ("original", "tuned") and not k.startswith("tuned_")]
    if wanted:
        names = [k for k in names if k in wanted]
    else:
        names = [k for k in names if k not in LEFT_OUT]
    return names + ["tuned"]


def plot_pass(ax, results, pass_name, wanted):
    cases = results["cases"]
    names = kernels_of(cases[0], pass_name, wanted)
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        xs = [c + (i - (len(names) - 1) / 2) * width
              for c in range(len(cases))]
        ys = [case[pass_name][name]["speedup"] for case in cases]
        label = name
        if name == "tuned":
            label = "tuned (the kernel the tuner keeps)"
        ax.bar(xs, ys, width, label=label)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(2.0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(FixedLocator(TICKS))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([c["preset"] for c in cases], rotation=20)
    ax.set_ylabel(f"{pass_name}: speedup over the original")
    ax.legend(fontsize=7, ncol=2)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    results = json.load(open(sys.argv[1]))
    wanted = set(sys.argv[3:])
    fig, axes = plt.subplots(2, 1, figsize=(12, 9))
    for ax, pass_name in zip(axes, ("forward", "backward")):
        plot_pass(ax, results, pass_name, wanted)
    fig.suptitle(f"3DGS render, load-balanced and culled kernels against the "
                 f"original ({results['device']}, {results['date']}, median "
                 f"of {results['reps']}; dashed: 2x)")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
