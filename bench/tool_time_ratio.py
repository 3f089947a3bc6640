#!/usr/bin/env python3
"""The tool's time on a large kernel file as a ratio to nvcc's preprocessor
on the same file, side by side: the time bound that test/cli/time-report.test
used to hold in seconds (which a loaded machine breaks and a fast one never
tests), as a ratio that holds on any machine.

  bench/tool_time_ratio.py [--tool T] [--nvcc N] [--runs 7] [--max-ratio R]
                           [--tool-arg ARG]...

The file: test/fuzz/gen_kernels.py --seed 3 --kernels 100 (about 1,600
lines, 100 kernels), the one time-report.test reports on. Timed, in
alternation, --runs times each:
  - `distwar-rewrite FILE --time-report -o OUT --`, its cache of
    precompiled CUDA headers filled first (a private one: what a user sees
    from the second file of a build on);
  - `nvcc -E -x cu -arch=sm_90 -std=c++17 FILE -o /dev/null`: reading the
    same file and the CUDA runtime headers nvcc includes for it, nothing
    more (the bound's reference);
  - the same with -ptx instead of -E: nvcc's front end and NVVM, no ptxas
    (for scale: the work the tool's parse is closest to).
CPU seconds (user + system, children included), which a busy machine
inflates less than wall time and inflates alike for all three. Prints a
Markdown table: the medians, the ratios, and the tool's own --time-report
milliseconds (wall time). Exits 1 when the tool's median is more than
--max-ratio times nvcc -E's (default 8: the ratio measured on the
development machine is under 5, bench/RESULTS.md; a parse without the
precompiled headers, the regression this guards against, measures over 9:
`--tool-arg=--no-cache`).
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_seconds(cmd, **kwargs):
    """CPU time of cmd and its children, and the finished process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, **kwargs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default=os.path.join(
        ROOT, "build", "tools", "distwar-rewrite", "distwar-rewrite"))
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--max-ratio", type=float, default=8.0)
    ap.add_argument("--tool-arg", action="append", default=[],
                    help="an option for the tool (repeatable), e.g. --no-cache")
    args = ap.parse_args()

    work = tempfile.mkdtemp()
    try:
        subprocess.run([sys.executable, os.path.join(ROOT, "test", "fuzz", "gen_kernels.py"),
                        "--seed", "3", "--files", "1", "--kernels", "100",
                        "--out", work], check=True)
        source = os.path.join(work, "fuzz_0.cu")
        with open(source) as f:
            lines = sum(1 for _ in f)
        cache = ["--cache-dir", os.path.join(work, "cache")]
        tool = [args.tool, source, "--time-report", "-o",
                os.path.join(work, "out.cu")] + cache + args.tool_arg + ["--"]
        nvcc = [args.nvcc, "-E", "-x", "cu", "-arch=sm_90", "-std=c++17",
                source, "-o", os.devnull]
        ptx = [args.nvcc, "-ptx", "-x", "cu", "-arch=sm_90", "-std=c++17",
               source, "-o", os.devnull]
        cpu_seconds(tool)  # fills the cache
        cpu_seconds(nvcc)  # reads nvcc's own files into the page cache
        tool_s, nvcc_s, ptx_s, reported_ms = [], [], [], []
        for _ in range(args.runs):
            seconds, run = cpu_seconds(tool)
            tool_s.append(seconds)
            reported_ms.append(int(re.search(r": (\d+) ms", run.stderr).group(1)))
            nvcc_s.append(cpu_seconds(nvcc)[0])
            ptx_s.append(cpu_seconds(ptx)[0])
    finally:
        shutil.rmtree(work, ignore_errors=True)

    tool_median, nvcc_median = statistics.median(tool_s), statistics.median(nvcc_s)
    ptx_median = statistics.median(ptx_s)
    ratio = tool_median / nvcc_median
    print("| file | lines | tool | nvcc -E | nvcc -ptx | tool / nvcc -E "
          "| tool / nvcc -ptx | tool's --time-report (wall) |")
    print("|---|---|---|---|---|---|---|---|")
    print("| gen_kernels.py --seed 3 --kernels 100 | %d | %.2f s (%s) | %.2f s | %.2f s "
          "| %.2f | %.2f | %d ms |" %
          (lines, tool_median, " ".join(args.tool_arg) or "cache warm",
           nvcc_median, ptx_median, ratio, tool_median / ptx_median,
           statistics.median(reported_ms)))
    for name, times in (("tool", tool_s), ("nvcc -E", nvcc_s), ("nvcc -ptx", ptx_s)):
        print("%s CPU s: %s" % (name, " ".join("%.2f" % t for t in times)))
    if ratio > args.max_ratio:
        print("FAILED: the tool took %.2fx nvcc -E's time, above %.2fx" %
              (ratio, args.max_ratio))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
