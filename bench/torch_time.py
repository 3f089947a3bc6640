#!/usr/bin/env python3
"""The tool's time on torch-including kernel files as a ratio to `nvcc -c` on
the same file, side by side: cold (an empty cache directory: the CUDA
headers and the file's preamble are precompiled on the way), warm (the same
cache again: what every later build of the file costs) and without the
cache (--no-cache).

  bench/torch_time.py --tool T [--nvcc N] [--gsplat-cache DIR]
                      [--pytorch3d DIR] [--only NAME]... [--runs 1]
                      [--json OUT]

The files: every .cu of gsplat's wheel that calls an atomic (the wheel and
torch's headers as test/corpus/gsplat_wheel.py fetches them, its flags), and
with --pytorch3d a checkout's (the folder holding pytorch3d/csrc) .cu files
that call one, with its setup.py's flags. CPU seconds (user + system,
children included), the median of --runs. nvcc compiles for sm_90 with
--expt-relaxed-constexpr, as torch.utils.cpp_extension builds them. Prints a
Markdown table of seconds and ratios; --json keeps every number.
"""
import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_gsplat_wheel():
    """test/corpus/gsplat_wheel.py as a module: its flags and fetching."""
    path = os.path.join(ROOT, "test", "corpus", "gsplat_wheel.py")
    spec = importlib.util.spec_from_file_location("gsplat_wheel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_seconds(cmd, env=None):
    """CPU time of cmd and its children; raises when it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd[:2]), run.stderr[-2000:]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def torch_flags(gw, torch_dir):
    inc = os.path.join(torch_dir, "torch", "include")
    return gw.TORCH_FLAGS + ["-isystem", inc, "-isystem",
                             os.path.join(inc, "torch", "csrc", "api", "include"),
                             "-isystem", gw.python_include()]


def gsplat_files(gw, folders):
    src, torch = folders
    cuda = os.path.join(src, "gsplat", "cuda")
    csrc = os.path.join(cuda, "csrc")
    flags = torch_flags(gw, torch) + [
        "-I" + os.path.join(cuda, "include"), "-I" + csrc,
        "-I" + os.path.join(csrc, "third_party", "glm")]
    for name in sorted(os.listdir(csrc)):
        path = os.path.join(csrc, name)
        if name.endswith(".cu") and gw.calls_atomic(path):
            yield "gsplat/" + name, path, flags


def pytorch3d_files(gw, checkout, torch):
    csrc = os.path.join(checkout, "pytorch3d", "csrc")
    flags = torch_flags(gw, torch) + ["-I" + csrc, "-DCUDA_HAS_FP16=1"]
    for folder, _, names in sorted(os.walk(csrc)):
        for name in sorted(names):
            path = os.path.join(folder, name)
            if name.endswith(".cu") and gw.calls_atomic(path):
                yield "pytorch3d/" + os.path.relpath(path, csrc), path, flags


def time_file(args, path, flags, scratch):
    """The median CPU seconds of nvcc -c, the tool cold, warm, uncached."""
    out = os.path.join(scratch, "out.cu")
    tool = [args.tool, path, "-o", out]
    nvcc = [args.nvcc, "-c", "-x", "cu", "-arch=sm_90", "--expt-relaxed-constexpr",
            path, "-o", os.path.join(scratch, "out.o")] + flags
    times = {"nvcc -c": [], "cold": [], "warm": [], "no cache": []}
    for _ in range(args.runs):
        cache = tempfile.mkdtemp(dir=scratch)
        env = dict(os.environ, DISTWAR_CACHE_DIR=cache)
        times["cold"].append(cpu_seconds(tool + ["--"] + flags, env))
        times["warm"].append(cpu_seconds(tool + ["--"] + flags, env))
        shutil.rmtree(cache)
        times["no cache"].append(cpu_seconds(tool + ["--no-cache", "--"] + flags))
        times["nvcc -c"].append(cpu_seconds(nvcc))
    return {k: statistics.median(v) for k, v in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--gsplat-cache", default=os.path.expanduser("~/.cache/distwar/corpus"))
    ap.add_argument("--pytorch3d", help="a folder holding pytorch3d/csrc")
    ap.add_argument("--only", action="append", default=[],
                    help="time only files whose name contains this")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args()
    gw = load_gsplat_wheel()
    folders, why = gw.fetch(args.gsplat_cache, offline=False)
    if not folders:
        sys.exit("gsplat wheel: %s" % why)
    files = list(gsplat_files(gw, folders))
    if args.pytorch3d:
        files += list(pytorch3d_files(gw, args.pytorch3d, folders[1]))
    if args.only:
        files = [f for f in files if any(o in f[0] for o in args.only)]
    rows = []
    print("| file | nvcc -c s | cold s | warm s | --no-cache s | cold / nvcc | warm / nvcc |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        for name, path, flags in files:
            t = time_file(args, path, flags, scratch)
            t["file"] = name
            rows.append(t)
            print("| %s | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f |" % (
                name, t["nvcc -c"], t["cold"], t["warm"], t["no cache"],
                t["cold"] / t["nvcc -c"], t["warm"] / t["nvcc -c"]), flush=True)
    total = {k: sum(r[k] for r in rows) for k in ("nvcc -c", "cold", "warm", "no cache")}
    print("| all %d files | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f |" % (
        len(rows), total["nvcc -c"], total["cold"], total["warm"], total["no cache"],
        total["cold"] / total["nvcc -c"], total["warm"] / total["nvcc -c"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"files": rows, "total": total, "runs": args.runs}, f, indent=1)


if __name__ == "__main__":
    main()
