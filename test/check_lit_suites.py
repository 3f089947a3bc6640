#!/usr/bin/env python3
"""Fails when the lit suites that ctest runs (one test per folder of
test/, test/CMakeLists.txt) miss a lit test, or name a folder without one.
Lit itself lists the tests (its own suffixes and excludes), so a folder or
a test added after CMake last globbed the folders is caught here.

  check_lit_suites.py LIT LIT_BUILD_DIR SUITE...
"""
import subprocess
import sys


def main():
    lit, build_dir, suites = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    run = subprocess.run([lit, "--show-tests", build_dir], capture_output=True,
                         text=True)
    if run.returncode != 0:
        print(run.stdout + run.stderr)
        return 1
    # Lines such as "  distwar :: rewrite/atomics.cu".
    tests = [line.split(" :: ", 1)[1].strip() for line in run.stdout.splitlines()
             if " :: " in line]
    if not tests:
        print("lit found no tests in %s" % build_dir)
        return 1
    found = {t.split("/", 1)[0] if "/" in t else "" for t in tests}
    missed = sorted(t for t in tests if "/" not in t or t.split("/", 1)[0] not in suites)
    empty = sorted(suites - found)
    for t in missed:
        print("in no ctest lit suite: %s (test/CMakeLists.txt runs one suite per "
              "folder of test/; reconfigure, or move the test into a folder)" % t)
    for s in empty:
        print("ctest lit suite without lit tests: %s" % s)
    print("%d lit tests in %d suites" % (len(tests), len(suites)))
    return 1 if missed or empty else 0


if __name__ == "__main__":
    sys.exit(main())
