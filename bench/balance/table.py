#!/usr/bin/env python3
"""Prints the tables of a distwar_balance_bench JSON as Markdown: per preset
and pass (forward, backward), the original kernel's time and every other
kernel's speedup over it, the tuned launch's speedup and choice; then each
kernel's resources (from the first case: they do not depend on the scene).

    bench/balance/table.py bench.json
"""
import json
import sys


def kernels(case, pass_name):
    return [k for k in case[pass_name]
            if k not in ("original", "tuned") and not k.startswith("tuned_")]


def speedups(results, pass_name):
    cases = results["cases"]
    names = kernels(cases[0], pass_name)
    print(f"| preset (list max / mean, heavy tiles) | original ms | "
          + " | ".join(names) + " | tuned (choice) | tuned, first 300 launches |")
    print("|---|---|" + "---|" * len(names) + "---|---|")
    for case in cases:
        runs = case[pass_name]
        base = runs["original"]["ms"]
        row = [f"{case['preset']} ({case['list_max'] / case['list_mean']:.0f}x, "
               f"{case['heavy_tiles']})", f"{base:.3f}"]
        row += [f"{runs[n]['speedup']:.2f}x" for n in names]
        row.append(f"{runs['tuned']['speedup']:.2f}x ({runs['tuned_variant']})")
        row.append(f"{base / runs['tuned_first_launches_mean_ms']:.2f}x")
        print("| " + " | ".join(row) + " |")


def resources(results):
    print("| kernel | registers | local bytes | shared bytes | threads | blocks/SM | occupancy |")
    print("|---|---|---|---|---|---|---|")
    for name, r in results["cases"][0]["resources"].items():
        if "error" in r:
            print(f"| {name} | error: {r['error']} | | | | | |")
            continue
        print(f"| {name} | {r['registers']} | {r['local_bytes']} | "
              f"{r['shared_bytes']} | {r['threads']} | {r['blocks_per_sm']} | "
              f"{100 * r['occupancy']:.0f}% |")


def main():
    results = json.load(open(sys.argv[1]))
    print(f"{results['device']}, {results['date']}, median of {results['reps']}\n")
    for pass_name in ("forward", "backward"):
        print(f"{pass_name}:\n")
        speedups(results, pass_name)
        print()
    resources(results)
    switch = results.get("switch")
    if switch:
        print(f"\nswitch ({switch['first']}, then {switch['second']}), "
              f"every {switch['stride']} launches: " + " ".join(switch["variants"]))


if __name__ == "__main__":
    main()
