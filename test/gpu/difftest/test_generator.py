#!/usr/bin/env python3
"""Checks of gen_difftest.py that need no tool and no GPU (ctest
difftest.generator): the same seed gives the same files; every kernel of a
set prints alone, by seed and index, as the same text; a kernel is the same
whatever set it is generated in (--only); the manifest's site lines hold
atomics; the fixed cases come first; every feature is generated somewhere.

  test_generator.py <work dir>
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
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
    for f in failures:
        print("FAIL: " + f)
    print("%d checks failed" % len(failures) if failures else
          "generator checks passed (%d kernels)" % len(kernels))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
