#!/usr/bin/env python3
"""Runs an nvcc command for the lit tests (%nvcc-check, %nvcc-compile) and
remembers the ones that succeeded, so that a second lit run recompiles only
the files whose text, or the text of a header they include, changed.

  nvcc_cache.py --cache-dir DIR --toolchain ID -- NVCC ARGS...

A run is replayed (its stdout, its stderr, exit status 0) when all of these
are the same as when it succeeded:
  - ID (lit.cfg.py: a hash of `nvcc --version` and of the host compiler's
    version), NVCC, ARGS, the working directory and nvcc's environment
    variables (NVCC_PREPEND_FLAGS, NVCC_APPEND_FLAGS, NVCC_CCBIN);
  - the content of every file nvcc read (its dependency list, -MD), the
    source file included;
  - the absence of each file that would have been found in place of one of
    those headers: the same relative name in an include directory searched
    before the one it was found in (the source's own directory, then
    -I/-isystem in order), so that a header added in front is noticed.
Failures are never stored: a failing command runs, and fails, every time.

Only commands with one source file and no output but their messages
(`-o /dev/null`) are cached; anything else (an object file, a dependency
file of its own, several sources, an options file) runs as given.
"""
import base64
import hashlib
import json
import os
import subprocess
import sys
import tempfile

# Bumped when an entry's layout or meaning changes.
FORMAT = "1"
SOURCE_SUFFIXES = (".cu", ".cpp", ".cc", ".cxx", ".c")
# Options that make nvcc write files (a replayed run would not write them)
# or read options from a file (whose text the key does not hold).
UNCACHED = ("-M", "-MD", "-MMD", "-MF", "-MT", "-MM", "-E", "-keep",
            "-save-temps", "--keep", "--keep-dir", "-odir",
            "--output-directory", "--dependency-output",
            "--generate-dependencies", "--generate-dependencies-with-compile",
            "-optf", "--options-file")
ENVIRONMENT = ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN")


def option_values(args, names):
    """The values of args' options in names: `-x V`, `-x=V`, and `-xV` for
    the one-letter ones, in order."""
    values = []
    for i, a in enumerate(args):
        for n in names:
            if a == n and i + 1 < len(args):
                values.append(args[i + 1])
            elif a.startswith(n + "="):
                values.append(a[len(n) + 1:])
            elif len(n) == 2 and a.startswith(n) and len(a) > 2:
                values.append(a[2:])
    return values


def cacheable(args):
    """The command's one source file, or None when it must run uncached."""
    if any(a.split("=", 1)[0] in UNCACHED for a in args):
        return None
    outs = option_values(args, ("--output-file",)) + [
        args[i + 1] for i, a in enumerate(args) if a == "-o" and i + 1 < len(args)]
    if not outs or any(o != os.devnull for o in outs):
        return None
    sources = [a for a in args if a.endswith(SOURCE_SUFFIXES) and os.path.isfile(a)]
    return sources[0] if len(sources) == 1 else None


def search_dirs(args, source):
    """Where nvcc looks for a header, in order: the source's directory,
    then the include options' directories."""
    dirs = [os.path.dirname(os.path.abspath(source))]
    dirs += option_values(args, ("-I", "--include-path", "-isystem",
                                 "--system-include"))
    return [os.path.abspath(d) for d in dirs]


def absent_shadows(deps, dirs):
    """The paths that would have been found before a dependency had they
    existed (the dependency's name relative to a directory of dirs, in each
    directory searched before it), which do not exist."""
    shadows = set()
    for dep in deps:
        for k, d in enumerate(dirs):
            if not dep.startswith(d + os.sep):
                continue
            rel = os.path.relpath(dep, d)
            shadows.update(os.path.join(e, rel) for e in dirs[:k])
    return sorted(p for p in shadows if not os.path.exists(p))


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def lookup_key(toolchain, nvcc, args):
    """What the entry is stored under."""
    h = hashlib.sha256()
    for text in [FORMAT, toolchain, os.getcwd(), nvcc] + args + [
            n + "=" + os.environ.get(n, "") for n in ENVIRONMENT]:
        h.update(text.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.hexdigest()


def parse_depfile(text):
    """The prerequisites of the Make rule nvcc -MD writes."""
    text = text.replace("\\\n", " ")
    _, _, prereqs = text.partition(": ")
    deps, word, i = [], "", 0
    while i < len(prereqs):
        c = prereqs[i]
        if c == "\\" and i + 1 < len(prereqs) and prereqs[i + 1] in " #":
            word += prereqs[i + 1]
            i += 2
            continue
        if c.isspace():
            if word:
                deps.append(word)
            word = ""
        else:
            word += c
        i += 1
    if word:
        deps.append(word)
    return deps


def replay(entry):
    """Whether entry still holds (every dependency's content the same, no
    shadowing header added); if so its output is printed."""
    if any(os.path.exists(p) for p in entry["absent"]):
        return False
    for path, digest in entry["deps"]:
        try:
            if file_hash(path) != digest:
                return False
        except OSError:
            return False
    sys.stdout.buffer.write(base64.b64decode(entry["stdout"]))
    sys.stdout.buffer.flush()
    sys.stderr.buffer.write(base64.b64decode(entry["stderr"]))
    sys.stderr.buffer.flush()
    return True


def store(path, entry):
    """Writes entry so that a concurrent reader sees all of it or none."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(entry, f)
    os.replace(tmp, path)


def main(argv):
    if "--" not in argv:
        sys.exit("usage: nvcc_cache.py --cache-dir DIR --toolchain ID -- NVCC ARGS...")
    split = argv.index("--")
    opts = dict(zip(argv[:split][0::2], argv[:split][1::2]))
    cmd = argv[split + 1:]
    nvcc, args = cmd[0], cmd[1:]

    source = cacheable(args)
    if source is None:
        return subprocess.run(cmd).returncode
    key = lookup_key(opts["--toolchain"], nvcc, args)
    entry_path = os.path.join(opts["--cache-dir"], key[:2], key + ".json")
    try:
        with open(entry_path) as f:
            if replay(json.load(f)):
                return 0
    except (OSError, ValueError, KeyError):
        pass

    with tempfile.TemporaryDirectory() as tmp:
        depfile = os.path.join(tmp, "deps.d")
        run = subprocess.run(cmd + ["-MD", "-MF", depfile], capture_output=True)
        sys.stdout.buffer.write(run.stdout)
        sys.stdout.buffer.flush()
        sys.stderr.buffer.write(run.stderr)
        sys.stderr.buffer.flush()
        if run.returncode != 0 or not os.path.exists(depfile):
            return run.returncode
        with open(depfile, encoding="utf-8", errors="surrogateescape") as f:
            deps = parse_depfile(f.read())
    deps = sorted({os.path.abspath(d) for d in deps} | {os.path.abspath(source)})
    try:
        entry = {"deps": [[p, file_hash(p)] for p in deps],
                 "absent": absent_shadows(deps, search_dirs(args, source)),
                 "stdout": base64.b64encode(run.stdout).decode(),
                 "stderr": base64.b64encode(run.stderr).decode()}
    except OSError:
        # A dependency already gone (removed by a concurrent step): the
        # result is not kept.
        return 0
    store(entry_path, entry)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
