#!/usr/bin/env python3
"""Runs distwar-rewrite over the CUDA sources of gsplat's wheel from PyPI, as
a user building the torch extension would (torch's headers from torch's
wheel, torch's extension flags), and fails on any file the tool cannot
parse. gsplat reduces across the warp by hand (cooperative groups' reduce,
lane-0 atomics): every such site must be left alone with the
already-reduced reason (DW0035), and no site may get another reason. Prints
each file's decision and reasons. Exits 77 (skipped) with a message when
PyPI cannot be reached.

  gsplat_wheel.py --tool distwar-rewrite --work DIR [--cache DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import time
import zipfile

GSPLAT = os.environ.get("DISTWAR_GSPLAT_VERSION", "1.5.3")
TORCH = os.environ.get("DISTWAR_TORCH_VERSION", "2.15.0")
SKIP = 77
# What torch.utils.cpp_extension.load (gsplat's JIT build) passes to nvcc;
# the torch headers are system headers there (-isystem).
TORCH_FLAGS = ["-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
               "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
               "-D__CUDA_NO_HALF2_OPERATORS__", "-DTORCH_API_INCLUDE_EXTENSION_H",
               "-DTORCH_EXTENSION_NAME=gsplat_cuda", "-D_GLIBCXX_USE_CXX11_ABI=1",
               "-std=c++20"]


def download(package, version, dest):
    """The wheel of package==version in dest (pip's own client), or None."""
    for name in os.listdir(dest) if os.path.isdir(dest) else []:
        if name.startswith(package + "-" + version) and name.endswith(".whl"):
            return os.path.join(dest, name)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps",
           "--only-binary=:all:", "--timeout", "30", "--retries", "1",
           "--disable-pip-version-check", "-q", "-d", dest,
           "%s==%s" % (package, version)]
    if subprocess.run(cmd).returncode != 0:
        return None
    return download(package, version, dest)


def extract(wheel, prefix, dest):
    """The members of wheel below prefix, into dest (once)."""
    done = os.path.join(dest, ".complete")
    if not os.path.exists(done):
        with zipfile.ZipFile(wheel) as z:
            z.extractall(dest, [n for n in z.namelist() if n.startswith(prefix)])
        open(done, "w").close()
    return dest


def python_include():
    import sysconfig
    return sysconfig.get_paths()["include"]


def summary(report):
    """One line per file: sites, groups, decision; then each group's."""
    lines = []
    for f in report["files"]:
        changed = "rewritten" if f.get("changed") else "unchanged"
        lines.append("  %d site(s), %d group(s), %s" %
                     (len(f.get("sites", [])), len(f.get("groups", [])), changed))
        for g in f.get("groups", []):
            why = g.get("reason") or g.get("variant") or ""
            lines.append("    group %s: %s %s" % (g.get("name"), g.get("decision"), why))
    return lines


ALREADY_REDUCED = "DW0035"


def unexpected_reasons(report):
    """The sites of report left alone for another reason than already-reduced,
    and the number left alone for that one."""
    others, reduced = [], 0
    for f in report["files"]:
        for site in f.get("sites", []):
            why = site.get("reason") or {}
            if not why:
                continue
            if why.get("code") == ALREADY_REDUCED:
                reduced += 1
            else:
                others.append("%s:%s: %s %s" % (f.get("file", "?"), site.get("line"),
                                               why.get("code"), why.get("name")))
    return others, reduced


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cache", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
        "distwar", "corpus"))
    args = ap.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)

    wheels = {}
    for package, version in (("gsplat", GSPLAT), ("torch", TORCH)):
        wheels[package] = download(package, version, args.cache)
        if not wheels[package]:
            print("SKIPPED: cannot download %s==%s from PyPI (no network or no "
                  "such version)" % (package, version))
            return SKIP
    src = extract(wheels["gsplat"], "gsplat/cuda/",
                  os.path.join(args.cache, "gsplat-" + GSPLAT))
    torch = extract(wheels["torch"], "torch/include/",
                    os.path.join(args.cache, "torch-" + TORCH))
    cuda = os.path.join(src, "gsplat", "cuda")
    inc = os.path.join(torch, "torch", "include")
    flags = TORCH_FLAGS + [
        "-I" + os.path.join(cuda, "include"), "-I" + os.path.join(cuda, "csrc"),
        "-I" + os.path.join(cuda, "csrc", "third_party", "glm"),
        "-isystem", inc,
        "-isystem", os.path.join(inc, "torch", "csrc", "api", "include"),
        "-isystem", python_include()]

    csrc = os.path.join(cuda, "csrc")
    files = sorted(f for f in os.listdir(csrc) if f.endswith(".cu"))
    failed = []
    reduced = 0
    for name in files:
        out = os.path.join(args.work, name)
        report = out + ".json"
        start = time.time()
        run = subprocess.run([args.tool, os.path.join(csrc, name), "-o", out,
                              "--report=json", "--report-file=" + report, "--"]
                             + flags, capture_output=True, text=True)
        took = time.time() - start
        if run.returncode != 0:
            failed.append(name)
            print("%s: FAILED (%.1f s)\n%s" % (name, took, run.stderr.strip()))
            continue
        with open(report) as r:
            parsed = json.load(r)
        others, count = unexpected_reasons(parsed)
        reduced += count
        if others:
            failed.append(name)
        print("%s: %s (%.1f s)" % (name, "FAILED" if others else "ok", took))
        print("\n".join(summary(parsed)))
        for line in others:
            print("  unexpected reason: " + line)
    print("%d passed, %d failed; %d site(s) already reduced" %
          (len(files) - len(failed), len(failed), reduced))
    if reduced == 0:
        print("FAILED: no site got the already-reduced reason")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
