#!/usr/bin/env python3
"""Prints the summary table of a distwar_bench JSON as Markdown: per case,
plain time, the floor, the tool's auto and serial output (autotuned), the
hand-written comparison (best threshold), and forward + backward speedups.

    bench/table.py bench.json
"""
import json
import sys


def pct(x):
    return "n/a" if x is None else f"{100 * x:.1f}%"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: table.py bench.json")
    with open(sys.argv[1]) as f:
        results = json.load(f)
    print(f"{results['device']}, {results['date']}, median of {results['reps']}")
    print()
    print("| case | plain ms | floor | auto, autotuned (thr): speedup, gap closed "
          "| serial, autotuned | hand-butterfly, best (thr) | fwd+bwd plain ms | fwd+bwd auto |")
    print("|---|---|---|---|---|---|---|---|")
    for case in results["cases"]:
        v = case["variants"]
        row = [case["case"], f"{case['plain_ms']:.3f}", f"{case['floor_speedup']:.2f}x"]
        for name in ("auto", "serial"):
            t = v.get(name, {}).get("autotuned")
            row.append("-" if not t else
                       f"{t['speedup']:.2f}x ({t['threshold']}), {pct(t['gap_closed'])}")
        h = v.get("hand-butterfly")
        row.append("-" if not h else
                   f"{h['best_speedup']:.2f}x ({h['best_threshold']}), {pct(h['best_gap_closed'])}")
        e2e = case.get("end_to_end_ms", {})
        row.append(f"{e2e.get('plain', 0):.3f}")
        row.append(f"{e2e['plain'] / e2e['auto']:.2f}x" if e2e.get("auto") else "-")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
