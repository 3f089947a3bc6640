#!/usr/bin/env python3
"""What each variant of distwar-rewrite actually rewrote, by feature.

A pass of a kernel the tool left alone proves nothing about the tool, so the
tester prints, per feature of the generator (manifest.json), how many
kernels have it and in how many of them each variant batched a site that
has the feature (the tool's --report=json): the site's own features (its
key, the ifs around it, a helper, a nullable field...) and those of its
whole iteration (continues, loop terms, early returns...); then the sites
and groups per variant. A variant that balances kernels across tiles
(--balance=tiles: the report lists kernels) gets a second column, the
kernels with the feature it balanced, and a line of what it balanced, drew
heaviest first, and left alone by reason (--sources: the generated
translation units, whose `namespace k<index>` blocks place the report's
kernels).

  coverage.py --manifest M --out FILE [--sources DIR] VARIANT=REPORT.json ...

Exits 1 when a variant batched no group at all (the run would test nothing).
"""
import argparse
import collections
import json
import os
import re
import sys

KERNEL = re.compile(r"(?:^|::)k(\d+)::")
NAMESPACE_OPEN = re.compile(r"^namespace k(\d+) \{$")
NAMESPACE_CLOSE = re.compile(r"^\} // namespace k(\d+)$")


def kernel_of(function):
    m = KERNEL.search(function or "")
    return int(m.group(1)) if m else None


def file_reports(report):
    """The per-file entries (distwar_rewrite_target's REPORT nests each
    source's report in "files")."""
    for f in report["files"]:
        if "groups" in f:
            yield f
        else:
            yield from file_reports(f)


def kernel_ranges(sources):
    """{translation unit file name: [(first line, last line, kernel index)]}
    of the generated sources' `namespace k<index>` blocks."""
    ranges = {}
    for name in sorted(os.listdir(sources)):
        if not re.match(r"tu_\d+\.cu$", name):
            continue
        out = ranges.setdefault(name, [])
        start = None
        with open(os.path.join(sources, name)) as f:
            for number, line in enumerate(f, 1):
                line = line.rstrip("\n")
                m = NAMESPACE_OPEN.match(line)
                if m:
                    start = (number, int(m.group(1)))
                elif NAMESPACE_CLOSE.match(line) and start:
                    out.append((start[0], number, start[1]))
                    start = None
    return ranges


def kernel_at(ranges, path, line):
    """The index of the generated kernel whose namespace holds `line`."""
    for first, last, index in ranges.get(os.path.basename(path or ""), ()):
        if first <= line <= last:
            return index
    return None


def tile_decisions(report, ranges):
    """The kernels of a --balance=tiles report: [(kernel index or None,
    decision, reason code or None, ordered launches)], or None when the
    report has no kernels (a variant that does not balance)."""
    out = None
    for f in file_reports(report):
        if "kernels" not in f:
            continue
        out = out or []
        for k in f["kernels"]:
            reason = k.get("reason") or {}
            out.append((kernel_at(ranges, k.get("file") or f["file"],
                                  k["line"]),
                        k["decision"], reason.get("code"),
                        k.get("ordered_launches", 0)))
    return out


def tile_summary(name, decisions, reasons):
    """One line: kernels balanced, drawn heaviest first, left alone by
    reason (code and name)."""
    balanced = [d for d in decisions if d[1] == "balanced"]
    ordered = [d for d in balanced if d[3]]
    alone = collections.Counter(d[2] or "none" for d in decisions
                                if d[1] != "balanced")
    return ("variant %s: %d of %d kernels balanced across tiles (%d drawing "
            "the heaviest first); left alone: %s" % (
                name, len(balanced), len(decisions), len(ordered),
                ", ".join("%s %s %d" % (code, reasons.get(code, "?"), n)
                          for code, n in sorted(alone.items())) or "none"))


def summarize(report):
    """Batched sites as (kernel, line), group variants, sites batched/total."""
    batched = set()
    variants = collections.Counter()
    total = 0
    for f in file_reports(report):
        for g in f["groups"]:
            if g["decision"] == "batched":
                variants[g["variant"] or "?"] += 1
        for s in f["sites"]:
            total += 1
            k = kernel_of(s["function"])
            if s["decision"] == "batched" and k is not None:
                batched.add((k, s["line"]))
    return batched, variants, len(batched), total


def covered(kernel, batched_sites, feature):
    """Whether a batched site of `kernel` has `feature`."""
    for k, line in batched_sites:
        if k != kernel["index"]:
            continue
        if feature is None or feature in kernel["body_features"] or \
                feature in kernel["site_lines"].get(str(line), ()):
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--sources",
                    help="the generated translation units (places the "
                    "kernels of a --balance=tiles report)")
    ap.add_argument("reports", nargs="+", metavar="VARIANT=REPORT")
    args = ap.parse_args()
    with open(args.manifest) as f:
        manifest = json.load(f)
    ranges = kernel_ranges(args.sources) if args.sources else {}
    names, summaries, tiles = [], [], []
    reasons = {}  # code -> name, from the reports
    for entry in args.reports:
        name, path = entry.split("=", 1)
        with open(path) as f:
            report = json.load(f)
        summaries.append(summarize(report))
        tiles.append(tile_decisions(report, ranges))
        for fr in file_reports(report):
            for k in fr.get("kernels", ()):
                if k.get("reason"):
                    reasons[k["reason"]["code"]] = k["reason"]["name"]
        names.append(name)
    kernels = manifest["kernels"]
    header = "".join(" %10s" % n for n in names) + "".join(
        " %10s" % (n + ":bal") for n, t in zip(names, tiles) if t is not None)
    lines = ["coverage: kernels with the feature, and those where the variant "
             "batched a site with the feature" +
             ("; <variant>:bal, those it balanced across tiles"
              if any(t is not None for t in tiles) else ""),
             "%-18s %8s" % ("feature", "kernels") + header]
    by_kernel = [{} for _ in summaries]
    for i, s in enumerate(summaries):
        for k, line in s[0]:
            by_kernel[i].setdefault(k, set()).add((k, line))
    balanced = [None if t is None else
                {d[0] for d in t if d[1] == "balanced"} for t in tiles]
    rows = [("all", None)] + [(f, f) for f in manifest["features"]]
    for label, feat in rows:
        having = [k for k in kernels if feat is None or feat in k["features"]]
        lines.append("%-18s %8d" % (label, len(having)) + "".join(
            " %10d" % sum(covered(k, by_kernel[i].get(k["index"], ()), feat)
                          for k in having)
            for i in range(len(summaries))) + "".join(
            " %10d" % sum(k["index"] in b for k in having)
            for b in balanced if b is not None))
    for name, (_, variants, sites, total) in zip(names, summaries):
        lines.append("variant %s: %d of %d sites batched; groups: %s" % (
            name, sites, total, ", ".join(
                "%s %d" % kv for kv in sorted(variants.items()))))
    for name, t in zip(names, tiles):
        if t is not None:
            lines.append(tile_summary(name, t, reasons))
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    empty = [n for n, s in zip(names, summaries) if not s[0]]
    if empty:
        sys.stderr.write("coverage.py: variant(s) %s batched nothing: the "
                         "differential test would prove nothing\n"
                         % ", ".join(empty))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
