#!/usr/bin/env python3
"""Stands in for nvcc in nvcc-cache.test: appends `ran on SOURCE` to the log
named by $FAKE_NVCC_LOG, writes the -MF dependency file as nvcc does (the
source and the headers it names with `#include "..."`, looked up in the
source's folder, then in each -I folder), prints a line on stdout and one
on stderr, and fails when the source or a header says FAIL."""
import os
import re
import sys

args = sys.argv[1:]
source = [a for a in args if a.endswith(".cu")][0]
with open(os.environ["FAKE_NVCC_LOG"], "a") as log:
    log.write("ran on %s\n" % os.path.basename(source))
dirs = [os.path.dirname(os.path.abspath(source))] + [
    args[i + 1] for i, a in enumerate(args) if a == "-I"]
deps, text = [source], open(source).read()
for name in re.findall(r'#include "([^"]+)"', text):
    found = next(os.path.join(d, name) for d in dirs
                 if os.path.exists(os.path.join(d, name)))
    deps.append(found)
    text += open(found).read()
if "-MF" in args:
    with open(args[args.index("-MF") + 1], "w") as f:
        f.write("/dev/null : " + " \\\n    ".join(deps) + "\n")
print("compiled " + os.path.basename(source))
print("a warning from " + os.path.basename(source), file=sys.stderr)
sys.exit(1 if "FAIL" in text else 0)
