#!/usr/bin/env python3
"""Runs distwar-rewrite over the CUDA sources of gsplat's wheel from PyPI, as
a user building the torch extension would (torch's headers from torch's
wheel, torch's extension flags), and fails on any file the tool cannot
parse. gsplat reduces across the warp by hand (cooperative groups' reduce,
lane-0 atomics): every such site must be left alone with the
already-reduced reason (DW0035), and no site may get another reason. A file
whose text calls an atomic must have sites in the report (so that a tool
that stops finding them fails). Prints each file's decision and reasons.

  gsplat_wheel.py --tool distwar-rewrite --work DIR [--cache DIR]
                  [--fetch | --offline] [--shard I/N]

The wheels (gsplat's, and torch's for its headers: about 540 MB) are
downloaded with pip into the cache once; --fetch only does that (exit 77,
skipped, with a message when PyPI cannot be reached), --offline never
downloads (exit 77 when the cache lacks them). --shard I/N rewrites the
I-th of N parts of the files: the files that call an atomic (the ones the
tool parses, each with torch's headers: seconds to a minute each) are dealt
out first, so that every part has some and the parts take about as long.
"""
import argparse
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
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


def cached_wheel(package, version, dest):
    """The wheel of package==version in dest, or None."""
    for name in os.listdir(dest) if os.path.isdir(dest) else []:
        if name.startswith(package + "-" + version + "-") and name.endswith(".whl"):
            return os.path.join(dest, name)
    return None


def download(package, version, dest):
    """The wheel of package==version in dest, downloaded with pip's own
    client when missing, or None. pip writes into a scratch folder and the
    wheel is moved in whole, so that an interrupted download leaves no
    partial wheel behind."""
    found = cached_wheel(package, version, dest)
    if found:
        return found
    with tempfile.TemporaryDirectory(dir=dest) as scratch:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps",
               "--only-binary=:all:", "--timeout", "15", "--retries", "1",
               "--disable-pip-version-check", "-q", "-d", scratch,
               "%s==%s" % (package, version)]
        if subprocess.run(cmd).returncode != 0:
            return None
        for name in os.listdir(scratch):
            if name.endswith(".whl"):
                os.replace(os.path.join(scratch, name), os.path.join(dest, name))
    return cached_wheel(package, version, dest)


def extract(wheel, prefix, dest):
    """The members of wheel below prefix, in dest: extracted once, into a
    scratch folder then renamed, marked complete inside."""
    done = os.path.join(dest, ".complete")
    if not os.path.exists(done):
        shutil.rmtree(dest, ignore_errors=True)
        scratch = tempfile.mkdtemp(dir=os.path.dirname(dest))
        with zipfile.ZipFile(wheel) as z:
            z.extractall(scratch, [n for n in z.namelist() if n.startswith(prefix)])
        open(os.path.join(scratch, ".complete"), "w").close()
        os.rename(scratch, dest)
    return dest


def fetch(cache, offline):
    """The extracted gsplat and torch folders, or a message why not. One
    process at a time (a lock in the cache): the parts of a sharded run may
    start together."""
    with open(os.path.join(cache, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        wheels = {}
        for package, version in (("gsplat", GSPLAT), ("torch", TORCH)):
            wheels[package] = (cached_wheel(package, version, cache) if offline
                               else download(package, version, cache))
            if not wheels[package]:
                return None, (
                    "%s==%s is not in %s (run without --offline to download it)"
                    % (package, version, cache) if offline else
                    "cannot download %s==%s from PyPI (no network or no such "
                    "version)" % (package, version))
        src = extract(wheels["gsplat"], "gsplat/cuda/",
                      os.path.join(cache, "gsplat-" + GSPLAT))
        torch = extract(wheels["torch"], "torch/include/",
                        os.path.join(cache, "torch-" + TORCH))
    return (src, torch), None


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


# A call of a function named for an atomic (atomicAdd, torch's gpuAtomicAdd);
# not the `#include <ATen/cuda/Atomic.cuh>` some files have without a call.
ATOMIC = re.compile(r"\b\w*[aA]tomic\w*\s*\(")


def calls_atomic(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return bool(ATOMIC.search(f.read()))


def shard(files, csrc, index, count):
    """The index-th of count parts of files: those whose text calls an
    atomic dealt out first, then the others."""
    atomic = [f for f in files if calls_atomic(os.path.join(csrc, f))]
    ordered = atomic + [f for f in files if f not in atomic]
    return sorted(ordered[index::count]), set(atomic)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool")
    ap.add_argument("--work")
    ap.add_argument("--cache", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
        "distwar", "corpus"))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--fetch", action="store_true",
                      help="only download and extract the wheels")
    mode.add_argument("--offline", action="store_true",
                      help="use the cached wheels, never download")
    ap.add_argument("--shard", default="0/1", metavar="I/N")
    args = ap.parse_args()
    if not args.fetch and not (args.tool and args.work):
        ap.error("--tool and --work are needed unless --fetch")
    index, count = (int(n) for n in args.shard.split("/"))
    if not 0 <= index < count:
        ap.error("--shard I/N needs 0 <= I < N")
    os.makedirs(args.cache, exist_ok=True)

    folders, why = fetch(args.cache, args.offline)
    if not folders:
        print("SKIPPED: " + why)
        return SKIP
    if args.fetch:
        print("gsplat %s and torch %s headers in %s" % (GSPLAT, TORCH, args.cache))
        return 0
    src, torch = folders
    os.makedirs(args.work, exist_ok=True)
    cuda = os.path.join(src, "gsplat", "cuda")
    inc = os.path.join(torch, "torch", "include")
    flags = TORCH_FLAGS + [
        "-I" + os.path.join(cuda, "include"), "-I" + os.path.join(cuda, "csrc"),
        "-I" + os.path.join(cuda, "csrc", "third_party", "glm"),
        "-isystem", inc,
        "-isystem", os.path.join(inc, "torch", "csrc", "api", "include"),
        "-isystem", python_include()]

    csrc = os.path.join(cuda, "csrc")
    files, atomic = shard(sorted(f for f in os.listdir(csrc) if f.endswith(".cu")),
                          csrc, index, count)
    print("part %d of %d: %s" % (index + 1, count, " ".join(files)))
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
        others, count_reduced = unexpected_reasons(parsed)
        reduced += count_reduced
        sites = sum(len(f.get("sites", [])) for f in parsed["files"])
        no_sites = name in atomic and sites == 0
        if others or no_sites:
            failed.append(name)
        print("%s: %s (%.1f s)" % (name, "FAILED" if others or no_sites else "ok", took))
        print("\n".join(summary(parsed)))
        for line in others:
            print("  unexpected reason: " + line)
        if no_sites:
            print("  no site found, though the file calls an atomic")
    print("%d passed, %d failed; %d site(s) already reduced" %
          (len(files) - len(failed), len(failed), reduced))
    if reduced == 0:
        print("FAILED: no site got the already-reduced reason")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
