#!/usr/bin/env python3
"""Every atomic site of the generated kernels gets a decision with a why.

The tool's report (--report=json) must give each atomicAdd it found either a
rewrite (decision "batched") or a reason code; and every atomicAdd call
written in a translation unit (directly, or through a macro whose body holds
one) must be in the report: a site it skipped without a word would be left
as written, or worse, moved, with nothing to say why. Runs on the reports
that building a set writes (DiffTestSet.cmake), without a GPU; it lists
every site with neither, by kernel, variant and line. The variant tiles
(--balance=tiles) must also give every kernel written in the sources a
decision: balanced across tiles, or left alone with a reason code.

  check_reports.py --sources DIR --out FILE [--fatal] VARIANT=REPORT.json ...

Exits 1 with --fatal when a site has neither (the CI set; the list is then
in FILE.failed, FILE is not written), else 0 with the list in FILE (the GPU
set's pregenerated folder carries it).
"""
import argparse
import collections
import json
import os
import re
import sys

from coverage import file_reports, kernel_at, kernel_of, kernel_ranges

CALL = re.compile(r"(?<![\w.])((?:\w+::)*)atomicAdd\s*\(")
DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)\(")
KERNEL_OPEN = re.compile(r"^namespace k(\d+) \{$")


def macro_sites(lines):
    """Names of the function-like macros whose bodies call atomicAdd."""
    names = set()
    i = 0
    while i < len(lines):
        m = DEFINE.match(lines[i])
        body = [lines[i]]
        while lines[i].rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            body.append(lines[i])
        if m and any(CALL.search(b) or any(
                re.search(r"\b%s\s*\(" % n, b) for n in names)
                for b in body):
            names.add(m.group(1))
        i += 1
    return names


def written_sites(text):
    """{line: kernel index} of the lines that call atomicAdd (CUDA's, not a
    user's namespaced wrapper) or a macro that does, inside a kernel's
    namespace."""
    lines = text.split("\n")
    macros = macro_sites(lines)
    macro_call = re.compile(r"\b(%s)\s*\(" % "|".join(sorted(macros))) \
        if macros else None
    out = {}
    kernel = None
    in_define = False
    for number, line in enumerate(lines, 1):
        m = KERNEL_OPEN.match(line)
        if m:
            kernel = int(m.group(1))
        elif line.startswith("} // namespace k"):
            kernel = None
        directive = in_define or DEFINE.match(line) is not None
        in_define = directive and line.rstrip().endswith("\\")
        if kernel is None or directive:
            continue
        code = line.split("//")[0]
        calls = [c for c in CALL.finditer(code)
                 if c.group(1) in ("", "::")
                 and not re.search(r"\bvoid\s+$", code[:c.start()])]
        if calls or (macro_call and macro_call.search(code)):
            out[number] = kernel
    return out


def written_kernels(text):
    """{kernel index: line} of the `__global__` functions written in a
    translation unit."""
    out = {}
    kernel = None
    for number, line in enumerate(text.split("\n"), 1):
        m = KERNEL_OPEN.match(line)
        if m:
            kernel = int(m.group(1))
        elif line.startswith("} // namespace k"):
            kernel = None
        elif kernel is not None and re.search(r"\b__global__\b",
                                              line.split("//")[0]):
            out.setdefault(kernel, number)
    return out


def check_kernels(sources, variant, report):
    """Failures of a --balance=tiles report: a kernel written in the sources
    with no decision, or left alone with no reason."""
    failures = []
    ranges = kernel_ranges(sources)
    decided = set()
    for f in file_reports(report):
        base = os.path.basename(f["file"])
        for k in f.get("kernels", ()):
            index = kernel_at(ranges, k.get("file") or f["file"], k["line"])
            decided.add((base, index))
            if k["decision"] == "balanced" or k.get("reason"):
                continue
            failures.append(
                "%s: kernel %s: %s:%d: kernel %s %s across tiles, with no "
                "reason" % (variant, index, base, k["line"], k["function"],
                            k["decision"]))
    for name in sorted(os.listdir(sources)):
        if not re.match(r"tu_\d+\.cu$", name):
            continue
        with open(os.path.join(sources, name)) as f:
            text = f.read()
        for index, line in sorted(written_kernels(text).items()):
            if (name, index) not in decided:
                failures.append("%s: kernel %d: %s:%d: a kernel the report "
                                "does not list (not balanced, no reason)" % (
                                    variant, index, name, line))
    return failures


def check(sources, variant, report):
    """Lines of failures of one variant's report."""
    failures = []
    if variant == "tiles" or any("kernels" in f for f in file_reports(report)):
        failures += check_kernels(sources, variant, report)
    reported = collections.defaultdict(set)  # file -> lines with a site
    for f in file_reports(report):
        base = os.path.basename(f["file"])
        for s in f["sites"]:
            if s.get("file"):
                continue  # a header's site (none in the generated sets)
            reported[base].add(s["line"])
            if s["decision"] == "batched" or s["reason"]:
                continue
            failures.append(
                "%s: kernel %s: %s:%d:%d: %s of %s[%s] %s, with no reason" % (
                    variant, kernel_of(s["function"]), base, s["line"],
                    s["column"], s["callee"], s["buffer"], s["key"],
                    s["decision"]))
    for name in sorted(os.listdir(sources)):
        if not re.match(r"tu_\d+\.cu$", name):
            continue
        with open(os.path.join(sources, name)) as f:
            text = f.read()
        if name not in reported and "atomicAdd" not in text:
            continue
        for line, kernel in sorted(written_sites(text).items()):
            if line not in reported[name]:
                failures.append(
                    "%s: kernel %d: %s:%d: an atomicAdd the report does not "
                    "list (no rewrite, no reason)" % (variant, kernel, name, line))
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sources", required=True,
                    help="the set's generated sources (tu_<k>.cu)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--fatal", action="store_true",
                    help="exit 1 when a site has neither a rewrite nor a reason")
    ap.add_argument("reports", nargs="+", metavar="VARIANT=REPORT")
    args = ap.parse_args()
    failures = []
    for entry in args.reports:
        variant, path = entry.split("=", 1)
        with open(path) as f:
            failures += check(args.sources, variant, json.load(f))
    text = "".join(line + "\n" for line in failures)
    text += ("check_reports: %d site(s) or kernel(s) with neither a rewrite "
             "nor a reason\n" % len(failures))
    fail = bool(failures) and args.fatal
    written = args.out + (".failed" if fail else "")
    stale = args.out if fail else args.out + ".failed"
    if os.path.exists(stale):
        os.remove(stale)  # a failed check runs again at the next build
    with open(written, "w") as f:
        f.write(text)
    if failures:
        # The first ones, and the count (the whole list is in the file).
        shown = failures[:40] + (["..."] if len(failures) > 40 else [])
        sys.stderr.write("".join(line + "\n" for line in shown) + text.split(
            "\n")[-2] + " (all of them in %s)\n" % written)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
