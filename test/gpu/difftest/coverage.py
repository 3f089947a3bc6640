#!/usr/bin/env python3
"""What each variant of distwar-rewrite actually rewrote, by feature.

A pass of a kernel the tool left alone proves nothing about the tool, so the
tester prints, per feature of the generator (manifest.json), how many
kernels have it and in how many of them each variant batched a site that
has the feature (the tool's --report=json): the site's own features (its
key, the ifs around it, a helper, a nullable field...) and those of its
whole iteration (continues, loop terms, early returns...); then the sites
and groups per variant.

  coverage.py --manifest M --out FILE VARIANT=REPORT.json ...

Exits 1 when a variant batched no group at all (the run would test nothing).
"""
import argparse
import collections
import json
import re
import sys

KERNEL = re.compile(r"(?:^|::)k(\d+)::")


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
    ap.add_argument("reports", nargs="+", metavar="VARIANT=REPORT")
    args = ap.parse_args()
    with open(args.manifest) as f:
        manifest = json.load(f)
    names, summaries = [], []
    for entry in args.reports:
        name, path = entry.split("=", 1)
        with open(path) as f:
            summaries.append(summarize(json.load(f)))
        names.append(name)
    kernels = manifest["kernels"]
    lines = ["coverage: kernels with the feature, and those where the variant "
             "batched a site with the feature",
             "%-18s %8s" % ("feature", "kernels") +
             "".join(" %10s" % n for n in names)]
    by_kernel = [{} for _ in summaries]
    for i, s in enumerate(summaries):
        for k, line in s[0]:
            by_kernel[i].setdefault(k, set()).add((k, line))
    rows = [("all", None)] + [(f, f) for f in manifest["features"]]
    for label, feat in rows:
        having = [k for k in kernels if feat is None or feat in k["features"]]
        lines.append("%-18s %8d" % (label, len(having)) + "".join(
            " %10d" % sum(covered(k, by_kernel[i].get(k["index"], ()), feat)
                          for k in having)
            for i in range(len(summaries))))
    for name, (_, variants, sites, total) in zip(names, summaries):
        lines.append("variant %s: %d of %d sites batched; groups: %s" % (
            name, sites, total, ", ".join(
                "%s %d" % kv for kv in sorted(variants.items()))))
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
