#!/usr/bin/env python3
"""Prints the summary table of a distwar_bench JSON as Markdown: per case,
plain time, the floor, the tool's auto and serial output (autotuned), the
hand-written comparison (best threshold), and forward + backward speedups.
With --resources, a second table: per case, the kernel resources of plain,
auto, serial, butterfly, block and the hand-written variants (registers and
local bytes per thread, resident blocks per SM, theoretical occupancy), from
the JSON's "resources" (distwar_bench writes them since kernel_resources.cpp).

    bench/table.py bench.json [--resources]
"""
import argparse
import json

RESOURCE_VARIANTS = ("plain", "auto", "serial", "butterfly", "block")


def pct(x):
    return "n/a" if x is None else f"{100 * x:.1f}%"


def summary(results):
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


def launch_cell(launch):
    """One variant's kernels: registers / local bytes / blocks per SM /
    occupancy, joined with + where a launch has several kernels."""
    if launch is None:
        return "-"
    cells = []
    for k in launch.get("kernels", []):
        if "error" in k:
            cells.append(f"error: {k['error']}")
        else:
            cells.append(f"{k['registers']} / {k['local_bytes']} / "
                         f"{k['blocks_per_sm']} / {pct(k['occupancy'])}")
    if "error" in launch:
        cells.append(f"error: {launch['error']}")
    return " + ".join(cells)


def resources(results):
    cases = [c for c in results["cases"] if "resources" in c]
    if not cases:
        print("(no kernel resources in this JSON: written before distwar_bench "
              "reported them)")
        return
    print("Kernel resources, per kernel: registers / local (spill) bytes per "
          "thread / resident blocks per SM / theoretical occupancy")
    print()
    print("| case | " + " | ".join(RESOURCE_VARIANTS) + " | hand-written |")
    print("|---" * (len(RESOURCE_VARIANTS) + 2) + "|")
    for case in cases:
        r = case["resources"]
        row = [case["case"]] + [launch_cell(r.get(name)) for name in RESOURCE_VARIANTS]
        variants = case.get("variants", {})
        hand = [f"{name}: {launch_cell(launch)}" for name, launch in r.items()
                if variants.get(name, {}).get("hand_written")]
        row.append("<br>".join(hand) if hand else "-")
        print("| " + " | ".join(row) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="distwar_bench --out file")
    parser.add_argument("--resources", action="store_true",
                        help="also print the kernel resources table")
    args = parser.parse_args()
    with open(args.json) as f:
        results = json.load(f)
    print(f"{results['device']}, {results['date']}, median of {results['reps']}")
    print()
    summary(results)
    if args.resources:
        print()
        resources(results)


if __name__ == "__main__":
    main()
