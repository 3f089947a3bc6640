#!/usr/bin/env python3
"""Plots a distwar_bench JSON file:

- per workload, one figure of speedup over plain atomics vs threshold: one
  panel per case (scene), one line per variant, the no-atomic floor as a
  horizontal line, the autotuned result as a marker at its threshold;
- one bar chart of the share of the plain-to-floor gap closed, per case and
  variant: each variant at its best threshold, each autotuned run, and the
  hand-written butterfly (labelled as hand-written, not tool output).

    python3 bench/plot.py bench.json out_dir
"""
import json
import math
import os
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def variant_label(name, data):
    if data.get("hand_written"):
        return data.get("label", f"{name} (hand-written, not tool output)")
    return name


def plot_thresholds(results, workload, cases, out_dir):
    n = len(cases)
    cols = min(3, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.5 * cols, 4 * rows),
                             squeeze=False)
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax, case in zip(axes.flat, cases):
        for variant, data in case["variants"].items():
            if "threshold_speedup" not in data:
                # No threshold (hand-written block-level variants): a level.
                ax.axhline(data["best_speedup"], ls=":", lw=1.5,
                           label=variant_label(variant, data))
                continue
            ys = data["threshold_speedup"]
            line, = ax.plot(range(len(ys)), ys, marker=".",
                            label=variant_label(variant, data))
            tuned = data.get("autotuned")
            if tuned and tuned.get("threshold", -1) >= 0:
                ax.plot([tuned["threshold"]], [tuned["speedup"]], marker="*",
                        ms=12, color=line.get_color(), ls="none",
                        label="autotuned (star, variant's colour)")
        if "floor_speedup" in case:
            ax.axhline(case["floor_speedup"], color="k", ls="--",
                       label="no-atomic floor")
        ax.axhline(1.0, color="gray", lw=0.8)
        ax.set_xlabel("threshold (active lanes needed to reduce)")
        ax.set_ylabel("speedup over plain atomics")
        ax.set_title(f"{case['case']}: plain {case['plain_ms']:.3g} ms",
                     fontsize=9)
    # One legend for all panels, below them, so that no curve is hidden.
    handles = {}
    for ax in axes.flat[:n]:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    fig.suptitle(f"{workload} backward, {results['device']}, "
                 f"{results['date']}", fontsize=10)
    fig.tight_layout(rect=(0, 0.08 if rows > 1 else 0.14, 1, 1))
    fig.legend(handles.values(), handles.keys(), loc="lower center",
               ncol=min(4, len(handles)), fontsize=8)
    path = os.path.join(out_dir, f"speedup_vs_threshold_{workload}.png")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def gap_bars(results):
    """(case names, {bar label: [gap closed per case or None]}): one bar per
    variant and case, the autotuned run where there is one (what a user
    gets), else the best threshold (the hand-written comparison)."""
    names = [c["case"] for c in results["cases"]]
    bars = {}
    for i, case in enumerate(results["cases"]):
        for variant, data in case["variants"].items():
            if "autotuned" in data:
                label, value = (f"{variant} (autotuned)",
                                data["autotuned"]["gap_closed"])
            else:
                label, value = (f"{variant_label(variant, data)}, best threshold",
                                data["best_gap_closed"])
            bars.setdefault(label, [None] * len(names))[i] = value
    return names, bars


def plot_gap(results, out_dir):
    names, bars = gap_bars(results)
    width = 0.8 / max(1, len(bars))
    fig, ax = plt.subplots(figsize=(min(16, 3 + 0.8 * len(names)), 5))
    # More variants than the default cycle's ten colours would repeat one.
    colours = plt.get_cmap("tab20").colors
    for k, (label, values) in enumerate(bars.items()):
        xs = [i + (k - (len(bars) - 1) / 2) * width
              for i, v in enumerate(values) if v is not None]
        ys = [v for v in values if v is not None]
        ax.bar(xs, ys, width, label=textwrap.fill(label, 48),
               color=colours[k % len(colours)])
    ax.axhline(0, color="gray", lw=0.8)
    ax.axhline(1, color="k", ls="--", lw=0.8, label="no-atomic floor")
    ax.set_ylim(bottom=max(-0.5, ax.get_ylim()[0]))
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=40, ha="right", fontsize=8)
    ax.set_ylabel("share of the plain-to-floor gap closed")
    ax.set_title(f"{results['device']}, {results['date']} "
                 "(cases where the floor is not faster than plain: no bar)",
                 fontsize=9)
    # Beside the bars: the hand-written variants' labels are long.
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    path = os.path.join(out_dir, "gap_closed.png")
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py bench.json out_dir")
    with open(sys.argv[1]) as f:
        results = json.load(f)
    out_dir = sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    workloads = {}
    for case in results["cases"]:
        workloads.setdefault(case["workload"], []).append(case)
    for workload, cases in workloads.items():
        print("wrote", plot_thresholds(results, workload, cases, out_dir))
    print("wrote", plot_gap(results, out_dir))


if __name__ == "__main__":
    main()
