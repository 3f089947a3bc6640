#!/usr/bin/env python3
"""Plots a distwar_bench JSON file: speedup over plain atomics per threshold
and the share of the plain-to-floor gap closed, one PNG each per case.

    python3 bench/plot.py bench.json out_dir
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py bench.json out_dir")
    with open(sys.argv[1]) as f:
        results = json.load(f)
    out_dir = sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    for case in results["cases"]:
        name = case["case"].replace("/", "_")
        for key, ylabel, ref in (
            ("threshold_speedup", "speedup over plain atomics", 1.0),
            ("threshold_gap_closed", "share of plain-to-floor gap closed", 0.0),
        ):
            fig, ax = plt.subplots(figsize=(6, 4))
            for variant, data in case["variants"].items():
                ys = data[key]
                ax.plot(range(len(ys)), ys, marker=".", label=variant)
            if key == "threshold_speedup" and "floor_speedup" in case:
                ax.axhline(case["floor_speedup"], color="k", ls="--",
                           label="no-atomic floor")
            ax.axhline(ref, color="gray", lw=0.8)
            ax.set_xlabel("threshold (active lanes needed to reduce)")
            ax.set_ylabel(ylabel)
            ax.set_title(f"{case['case']} ({results['device']})", fontsize=9)
            ax.legend(fontsize=8)
            fig.tight_layout()
            path = os.path.join(out_dir, f"{name}_{key}.png")
            fig.savefig(path, dpi=120)
            plt.close(fig)
            print("wrote", path)


if __name__ == "__main__":
    main()
