#!/usr/bin/env python3
"""Shrinks one generated kernel while a test command still fails on it.

  minimise.py --seed S --index I --test 'CMD' [--work DIR] [--out FILE]

Writes kernel I of seed S alone as a one-kernel set (DIR/set: tu_0.cu, meta,
tus.inc), then removes statements from the kernel and its helpers, a brace
block (an `if`, a loop) or a line at a time, keeping each removal after
which CMD still exits 0 ("still interesting"). CMD runs in DIR with
DIFFTEST_CANDIDATE=<path of tu_0.cu>; it must itself reject candidates that
no longer compile. The parameter list and the launcher are never touched, so
the set stays a valid input of the harness (the buffers are the same). The
result is written to FILE (default DIR/minimal.cu).

Predicates that need no GPU (run here):
  nvcc rejects the rewritten output:
    --test 'distwar-rewrite $DIFFTEST_CANDIDATE -o out.cu -- -I<difftest dir>
            -DDIFFTEST_NS=m && ! nvcc -c -arch=sm_90 -I<runtime/include>
            -I<difftest dir> out.cu -o /dev/null'
  the tool still makes a given choice (a butterfly-uniform group):
    --test 'nvcc -c -arch=sm_90 -I<difftest dir> -DDIFFTEST_NS=m
            $DIFFTEST_CANDIDATE -o /dev/null && distwar-rewrite
            $DIFFTEST_CANDIDATE -- -I<difftest dir> -DDIFFTEST_NS=m
            | grep -q reduceButterflyUniform'
A mismatch seen on the GPU: shrink with the static shape of the bug as the
predicate, then confirm the small kernel on the GPU through the same set
(README.md, "Minimising a mismatch").
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def kernel_range(lines):
    """Lines that may be removed: the helpers and the kernel body (after the
    parameter list), not the namespace, signature or launcher lines."""
    start = next(i for i, l in enumerate(lines) if l.startswith("namespace k"))
    end = next(i for i, l in enumerate(lines) if l.startswith("} // namespace k"))
    removable = set()
    in_params = False
    for i in range(start + 1, end):
        text = lines[i]
        if "__global__ void backward(" in text:
            in_params = True
            continue
        if in_params:
            if text.rstrip().endswith(") {"):
                in_params = False
            continue
        if text.startswith("template <") or text.strip() == "}":
            continue
        removable.add(i)
    return removable


def block_end(lines, i):
    """The line that closes the brace opened on line i (or i itself)."""
    depth = lines[i].count("{") - lines[i].count("}")
    if depth <= 0:
        # An unbraced `if (c)` / `for (...)` owns the next line.
        stripped = lines[i].strip()
        if stripped.startswith(("if (", "for (", "} else", "else")) and \
                not stripped.endswith(";"):
            return i + 1
        return i
    j = i
    while depth > 0 and j + 1 < len(lines):
        j += 1
        depth += lines[j].count("{") - lines[j].count("}")
    return j


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--index", type=int, required=True)
    ap.add_argument("--test", required=True)
    ap.add_argument("--work", default="minimise-work")
    ap.add_argument("--out")
    args = ap.parse_args()
    set_dir = os.path.join(args.work, "set")
    shutil.rmtree(set_dir, ignore_errors=True)
    subprocess.check_call([sys.executable, os.path.join(HERE, "gen_difftest.py"),
                           "--seed", str(args.seed), "--only", str(args.index),
                           "--per-tu", "1", "--out", set_dir])
    path = os.path.abspath(os.path.join(set_dir, "tu_0.cu"))
    env = dict(os.environ, DIFFTEST_CANDIDATE=path)

    def interesting(lines):
        with open(path, "w") as f:
            f.write("".join(lines))
        return subprocess.call(args.test, shell=True, cwd=args.work, env=env,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL) == 0

    with open(path) as f:
        lines = f.readlines()
    if not interesting(lines):
        sys.exit("minimise.py: the test command does not fail on kernel %d "
                 "as generated" % args.index)
    progress = True
    while progress:
        progress = False
        i = len(lines) - 1
        while i >= 0:
            if i in kernel_range(lines):
                end = block_end(lines, i)
                candidate = lines[:i] + lines[end + 1:]
                if interesting(candidate):
                    lines = candidate
                    progress = True
            i = min(i - 1, len(lines) - 1)
    with open(path, "w") as f:
        f.write("".join(lines))
    out = args.out or os.path.join(args.work, "minimal.cu")
    shutil.copy(path, out)
    print("minimise.py: %d lines in %s (the set: %s)" % (len(lines), out, set_dir))


if __name__ == "__main__":
    main()
