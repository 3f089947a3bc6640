#!/usr/bin/env python3
"""The tool's time on torch-including kernel files as a ratio to `nvcc -c` on
the same file, side by side: cold (an empty cache directory: the CUDA
headers and the file's preamble are precompiled on the way), warm (the same
cache again: what every later build of the file costs) and without the
cache (--no-cache).

  bench/torch_time.py --tool T [--nvcc N] [--gsplat-cache DIR]
                      [--pytorch3d DIR] [--corpus DIR] [--only NAME]...
                      [--runs 1] [--json OUT]

The files: every .cu of gsplat's wheel that calls an atomic (the wheel and
torch's headers as test/corpus/gsplat_wheel.py fetches them, its flags),
with --pytorch3d a checkout's (the folder holding pytorch3d/csrc) .cu files
that call one, with its setup.py's flags, and with --corpus the translation
units of docs/REAL_CODE.md in a folder of owner+name checkouts, with the
flags scripts/real-code-table gives them (torch's headers the wheel's). CPU seconds (user + system,
children included), the median of --runs. nvcc compiles for sm_90 with
--expt-relaxed-constexpr, as torch.utils.cpp_extension builds them. Prints a
Markdown table of seconds and ratios; --json keeps every number.
"""
import argparse
import importlib.machinery
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


def load_script(name, *path):
    """The Python file ROOT/path as a module."""
    loader = importlib.machinery.SourceFileLoader(name, os.path.join(ROOT, *path))
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def load_gsplat_wheel():
    """test/corpus/gsplat_wheel.py as a module: its flags and fetching."""
    return load_script("gsplat_wheel", "test", "corpus", "gsplat_wheel.py")


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
            yield "gsplat/" + name, path, flags, flags


def pytorch3d_files(gw, checkout, torch):
    csrc = os.path.join(checkout, "pytorch3d", "csrc")
    flags = torch_flags(gw, torch) + ["-I" + csrc, "-DCUDA_HAS_FP16=1"]
    for folder, _, names in sorted(os.walk(csrc)):
        for name in sorted(names):
            path = os.path.join(folder, name)
            if name.endswith(".cu") and gw.calls_atomic(path):
                yield "pytorch3d/" + os.path.relpath(path, csrc), path, flags, flags


def corpus_files(corpus, torch):
    """docs/REAL_CODE.md's translation units of the checkouts in corpus."""
    table = load_script("real_code_table", "scripts", "real-code-table")
    for repo in sorted(os.listdir(corpus)):
        _, units = table.plan_repo(repo, os.path.join(corpus, repo),
                                   os.path.join(torch, "torch", "include"))
        for rel, unit in sorted(units.items()):
            yield (repo.split("+", 1)[-1] + ":" + rel, unit.path, unit.flags,
                   unit.flags + unit.nvcc_flags)


def time_file(args, path, flags, nvcc_flags, scratch):
    """The median CPU seconds of nvcc -c, the tool cold, warm, uncached."""
    out = os.path.join(scratch, "out.cu")
    tool = [args.tool, path, "-o", out]
    nvcc = [args.nvcc, "-c", "-x", "cu", "-arch=sm_90", "--expt-relaxed-constexpr",
            path, "-o", os.path.join(scratch, "out.o")] + nvcc_flags
    tools = {"": tool}
    if args.baseline:
        tools[" (baseline)"] = [args.baseline] + tool[1:]
    times = {"nvcc -c": [], "no cache": []}
    for _ in range(args.runs):
        for suffix, cmd in tools.items():
            cache = tempfile.mkdtemp(dir=scratch)
            env = dict(os.environ, DISTWAR_CACHE_DIR=cache)
            for run in ("cold", "warm"):
                times.setdefault(run + suffix, []).append(
                    cpu_seconds(cmd + ["--"] + flags, env))
            shutil.rmtree(cache)
        times["no cache"].append(cpu_seconds(tool + ["--no-cache", "--"] + flags))
        times["nvcc -c"].append(cpu_seconds(nvcc))
    return {k: statistics.median(v) for k, v in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--baseline", help="another build of the tool, timed cold "
                    "and warm beside it")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--gsplat-cache", default=os.path.expanduser("~/.cache/distwar/corpus"))
    ap.add_argument("--pytorch3d", help="a folder holding pytorch3d/csrc")
    ap.add_argument("--corpus", help="a folder of owner+name checkouts")
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
    if args.corpus:
        files += list(corpus_files(args.corpus, folders[1]))
    if args.only:
        files = [f for f in files if any(o in f[0] for o in args.only)]
    rows = []
    cols = ["nvcc -c", "cold", "warm", "no cache"]
    if args.baseline:
        cols += ["cold (baseline)", "warm (baseline)"]
    shares = [c for c in cols if c.startswith(("cold", "warm"))]
    print("| file | " + " | ".join(c + " s" for c in cols) + " | " +
          " | ".join(c + " / nvcc" for c in shares) + " |")
    print("|---" * (1 + len(cols) + len(shares)) + "|")

    def line(name, t):
        print("| %s | %s | %s |" % (
            name, " | ".join("%.1f" % t[c] for c in cols),
            " | ".join("%.2f" % (t[c] / t["nvcc -c"]) for c in shares)),
            flush=True)

    with tempfile.TemporaryDirectory() as scratch:
        for name, path, flags, nvcc_flags in files:
            t = time_file(args, path, flags, nvcc_flags, scratch)
            line(name, t)
            t["file"] = name
            rows.append(t)
    total = {c: sum(r[c] for r in rows) for c in cols}
    line("all %d files" % len(rows), total)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"files": rows, "total": total, "runs": args.runs}, f, indent=1)


if __name__ == "__main__":
    main()
