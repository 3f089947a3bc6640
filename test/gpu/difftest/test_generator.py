#!/usr/bin/env python3
"""Checks of gen_difftest.py that need no tool and no GPU (ctest
difftest.generator): the same seed gives the same files; every kernel of a
set prints alone, by seed and index, as the same text; a kernel is the same
whatever set it is generated in (--only); the manifest's site lines hold
atomics; the fixed cases come first; every feature is generated somewhere.
Also check_reports.py on reports made up here: one that lists every
written atomic with a decision passes, one missing a site or a reason
fails; a tiles report must list every kernel, balanced or with a reason.

  test_generator.py <work dir>
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_reports  # noqa: E402
GEN = [sys.executable, os.path.join(HERE, "gen_difftest.py"), "--seed", "5"]


def generate(out, *extra):
    shutil.rmtree(out, ignore_errors=True)
    subprocess.check_call(GEN + ["--out", out] + list(extra))
    files = {}
    for name in sorted(os.listdir(out)):
        with open(os.path.join(out, name)) as f:
            files[name] = f.read()
    return files


def kernel_block(text, name):
    start = text.index("namespace %s {" % name)
    end = text.index("} // namespace %s" % name, start)
    return text[start:end]


def check_report_checker(out, files, check):
    """check_reports.py against reports built from the sources themselves."""
    sites = []
    for name, text in files.items():
        if name.startswith("tu_"):
            for line in check_reports.written_sites(text):
                sites.append({"file": None, "line": line, "column": 3,
                              "function": "dt::k0::backward",
                              "callee": "atomicAdd", "buffer": "g", "key": "id",
                              "decision": "unchanged",
                              "reason": {"code": "DW0011"}, "tu": name})

    def report():
        by_tu = {}
        for s in sites:
            by_tu.setdefault(s["tu"], []).append(
                {k: v for k, v in s.items() if k not in ("tu", "file")})
        return {"files": [{"file": os.path.join(out, tu), "sites": ss,
                           "groups": []} for tu, ss in by_tu.items()]}

    check(len(sites) > 100, "check_reports.py finds the written atomics")
    check(not check_reports.check(out, "auto", report()),
          "check_reports.py passes a report that lists every site")
    sites[7]["reason"] = None
    check(len(check_reports.check(out, "auto", report())) == 1,
          "check_reports.py fails a site with no reason")
    sites[7]["decision"] = "batched"
    del sites[3]
    check(len(check_reports.check(out, "auto", report())) == 1,
          "check_reports.py fails an atomic missing from the report")

    # The tiles variant: every kernel written gets a decision.
    kernels = {}
    for name, text in files.items():
        if name.startswith("tu_"):
            for index, line in check_reports.written_kernels(text).items():
                kernels.setdefault(name, []).append(
                    {"line": line, "column": 17, "function": "backward",
                     "decision": "balanced", "launches": 1, "reason": None})

    def tiles_report():
        r = report()
        for f in r["files"]:
            f["kernels"] = kernels.get(os.path.basename(f["file"]), [])
        return r

    check(sum(map(len, kernels.values())) > 100,
          "check_reports.py finds the written kernels")
    base = len(check_reports.check(out, "tiles", tiles_report()))
    first = next(iter(kernels.values()))
    first[1]["decision"] = "unchanged"
    check(len(check_reports.check(out, "tiles", tiles_report())) == base + 1,
          "check_reports.py fails a kernel left alone with no reason")
    first[1]["reason"] = {"code": "DW0063",
                          "name": "tile-return-before-barrier"}
    check(len(check_reports.check(out, "tiles", tiles_report())) == base,
          "check_reports.py passes a kernel left alone with a reason")
    del first[2]
    check(len(check_reports.check(out, "tiles", tiles_report())) == base + 1,
          "check_reports.py fails a kernel missing from a tiles report")


def main():
    work = sys.argv[1]
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    a = generate(os.path.join(work, "a"), "--kernels", "150", "--per-tu", "40")
    b = generate(os.path.join(work, "b"), "--kernels", "150", "--per-tu", "40")
    check(a == b, "two runs with one seed write the same files")
    manifest = json.loads(a["manifest.json"])
    kernels = manifest["kernels"]
    check([k["index"] for k in kernels] == list(range(len(kernels))),
          "kernels are numbered 0..N-1")
    check(kernels[0]["name"].endswith("_r1") and "fixed" in kernels[0]["features"],
          "the fixed cases come first")
    seen = set()
    for k in kernels:
        seen |= set(k["features"])
        text = a["tu_%d.cu" % k["tu"]]
        lines = text.split("\n")
        for line in k["site_lines"]:
            check(0 < int(line) <= len(lines), "site line %s of kernel %d exists"
                  % (line, k["index"]))
        if not any("atomicAdd" in lines[int(n) - 1] or "DT_ADD" in lines[int(n) - 1]
                   for n in k["site_lines"]) and "fixed" not in k["features"]:
            check(False, "kernel %d: its site lines hold atomics" % k["index"])
    missing = set(manifest["features"]) - seen
    check(not missing, "every feature is generated (missing: %s)" % sorted(missing))
    for index in (0, 7, 40, 99, 160):
        printed = subprocess.check_output(GEN + ["--print", str(index)], text=True)
        name = "k%d" % index
        tu = a["tu_%d.cu" % kernels[index]["tu"]]
        check(kernel_block(printed, name) == kernel_block(tu, name),
              "kernel %d prints alone as in its set" % index)
        only = generate(os.path.join(work, "only"), "--only", str(index))
        check(kernel_block(only["tu_0.cu"], name) == kernel_block(tu, name),
              "kernel %d is the same in a set of its own" % index)
    check_report_checker(os.path.join(work, "a"), a, check)
    for f in failures:
        print("FAIL: " + f)
    print("%d checks failed" % len(failures) if failures else
          "generator checks passed (%d kernels)" % len(kernels))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
