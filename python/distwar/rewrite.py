"""Rewrites CUDA sources with distwar-rewrite into a folder, or takes them
from a folder rewritten on another machine, for a build that compiles the
copies instead of the originals. Independent of the build system
(distwar.torch drives it for PyTorch extensions).

A folder of copies has, for a source at relative path REL:
  REL          the rewritten copy
  REL.sha256   the SHA-256 of the original it was made from
  REL.report   the tool's report
or, where the tool found nothing to change,
  REL.unchanged  the SHA-256 of the original (the original is compiled)
This is the layout the CMake route's `distwar-pregenerate` writes (copy and
.sha256), so a folder made here is checked the same way on a machine without
the tool."""
import hashlib
import os
import re
import shutil
import subprocess

VARIANTS = ("auto", "serial", "butterfly", "floor")

INSTALL_HINT = (
    "build it in a distwar checkout with `scripts/bootstrap` "
    "(build/tools/distwar-rewrite/distwar-rewrite) or install it with "
    "`cmake --install build --prefix PREFIX`, then put it on PATH or set "
    "DISTWAR_REWRITE=/path/to/distwar-rewrite")


class DistwarError(Exception):
    """A one-line message for the user; nothing was written."""


def find_tool(tool=None):
    """distwar-rewrite: `tool`, $DISTWAR_REWRITE, or the PATH; None if none."""
    tool = tool or os.environ.get("DISTWAR_REWRITE") or shutil.which("distwar-rewrite")
    if not tool:
        return None
    found = shutil.which(tool)
    return os.path.abspath(found) if found else None


def relative_path(path, base):
    """`path` relative to `base`, with every ".." made "__" and a path on
    another drive put under "__abs", so that every copy stays inside its
    folder (as cmake/DistwarRewrite.cmake names them)."""
    try:
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    except ValueError:  # another drive
        rel = os.path.join("__abs", os.path.splitdrive(os.path.abspath(path))[1].lstrip("\\/"))
    parts = ["__" if p == ".." else p for p in rel.replace("\\", "/").split("/")]
    return "/".join(parts)


def file_sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


_ATOMIC = re.compile(rb"\batomicAdd\b")
_QUOTE_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)


def mentions_atomics(path, include_dirs=()):
    """Whether `path`, or a header it includes with quotes (found next to the
    including file or in `include_dirs`), mentions atomicAdd. Files that do
    not are compiled as they are: the tool would change nothing, and a parse
    of a file that includes torch's headers takes long."""
    return _mentions(path, include_dirs, _ATOMIC)


def _mentions(path, include_dirs, pattern):
    """Whether `path` or a header it includes with quotes matches `pattern`."""
    seen = set()
    todo = [os.path.abspath(path)]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        try:
            with open(current, "rb") as f:
                text = f.read()
        except OSError:
            continue
        if pattern.search(text):
            return True
        here = os.path.dirname(current)
        for name in _QUOTE_INCLUDE.findall(text):
            name = os.fsdecode(name)
            for d in [here] + list(include_dirs):
                candidate = os.path.normpath(os.path.join(d, name))
                if os.path.isfile(candidate):
                    todo.append(candidate)
                    break
    return False


_CONFIG = ".distwar.yaml"
_BALANCE_TILES = re.compile(rb"^\s*Balance\s*:\s*['\"]?tiles['\"]?\s*(#.*)?$", re.MULTILINE)
# nvcc also takes the launch spelled `<< <...>> >`.
_LAUNCH = re.compile(rb"<<\s*<")


def balances_tiles(path):
    """Whether the .distwar.yaml that distwar-rewrite reads for `path` (the
    nearest one in its folder or above) asks for `Balance: tiles`."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        config = os.path.join(folder, _CONFIG)
        if os.path.isfile(config):
            with open(config, "rb") as f:
                return bool(_BALANCE_TILES.search(f.read()))
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def worth_rewriting(path, include_dirs=()):
    """Whether the tool may change `path`: it mentions atomicAdd (or a header
    of it does), or it launches kernels where `Balance: tiles` is asked for
    (a forward render has no atomic, and its kernel is what gets balanced),
    in the file or a header it includes with quotes."""
    if mentions_atomics(path, include_dirs):
        return True
    return balances_tiles(path) and _mentions(path, include_dirs, _LAUNCH)


def _depfile_inputs(depfile):
    with open(depfile) as f:
        text = f.read().replace("\\\n", " ")
    _, _, deps = text.partition(": ")
    return [d.replace("\\ ", " ") for d in deps.split()]


def _write_if_different(path, data):
    """Keeps the file (and its time stamp, which drives rebuilds) when it
    already holds `data`."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    tmp = path + ".distwar-tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


class Rewriter:
    """Rewrites sources into `out_dir` with the tool (found as in
    find_tool), each with the clang flags given to rewrite()."""

    def __init__(self, out_dir, variant="auto", tool=None, gpu_arch=None, cuda_path=None):
        if variant not in VARIANTS:
            raise DistwarError("distwar: variant must be one of %s, not %r"
                               % (", ".join(VARIANTS), variant))
        self.tool = find_tool(tool)
        if self.tool is None:
            raise DistwarError("distwar: distwar-rewrite not found: " + INSTALL_HINT)
        self.out_dir = os.path.abspath(out_dir)
        self.variant = variant
        self.gpu_arch = gpu_arch
        self.cuda_path = cuda_path

    def rewrite(self, source, rel, flags):
        """Rewrites `source` into out_dir/rel; returns the path to compile
        (the copy, or `source` where the tool changed nothing) and the first
        line of the tool's report. Runs the tool only when the copy is older
        than the source, a header it read or the tool, or was made by another
        command line."""
        source = os.path.abspath(source)
        out = os.path.join(self.out_dir, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        new = out + ".distwar-new"
        command = [self.tool, source, "-o", new, "--variant=" + self.variant,
                   "--depfile=" + out + ".d", "--report", "--report-file=" + out + ".report"]
        if self.gpu_arch:
            command.append("--cuda-gpu-arch=" + self.gpu_arch)
        if self.cuda_path:
            command.append("--cuda-path=" + self.cuda_path)
        command += ["--", "-I" + os.path.dirname(source)] + list(flags)
        if not self._up_to_date(source, out, command):
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True)
            if done.returncode != 0:
                _remove(new)
                raise DistwarError(done.stderr.strip() or
                                   "distwar-rewrite failed on %s (exit %d)"
                                   % (source, done.returncode))
            with open(new, "rb") as f:
                text = f.read()
            os.remove(new)
            with open(source, "rb") as f:
                original = f.read()
            digest = (hashlib.sha256(original).hexdigest() + "\n").encode()
            if text == original:
                for stale in (out, out + ".sha256"):
                    _remove(stale)
                _write_if_different(out + ".unchanged", digest)
            else:
                _remove(out + ".unchanged")
                _write_if_different(out, text)
                _write_if_different(out + ".sha256", digest)
            with open(out + ".cmd", "w") as f:
                f.write("\0".join(command))
        return (out if os.path.exists(out) else source), _first_line(out + ".report")

    def _up_to_date(self, source, out, command):
        try:
            with open(out + ".cmd") as f:
                if f.read() != "\0".join(command):
                    return False
            stamp = os.path.getmtime(out + ".cmd")
            if not (os.path.exists(out) or os.path.exists(out + ".unchanged")):
                return False
            inputs = [source, self.tool] + _depfile_inputs(out + ".d")
        except OSError:
            return False
        return all(os.path.exists(p) and os.path.getmtime(p) <= stamp for p in inputs)


def _first_line(path):
    try:
        with open(path) as f:
            return f.readline().strip()
    except OSError:
        return ""


def pregenerated(source, pregenerated_dir, rel):
    """The copy of `source` in a folder rewritten elsewhere (or `source` where
    the tool changed nothing), checked against the original's hash. Raises
    DistwarError when it is missing or was made from another version; a copy
    without its hash is taken with a warning (the second value, or None)."""
    copy = os.path.join(os.path.abspath(pregenerated_dir), rel)
    actual = file_sha256(source)
    if os.path.exists(copy):
        try:
            with open(copy + ".sha256") as f:
                expected = f.read().strip()
        except OSError:
            return copy, ("distwar: %s.sha256 is missing; cannot check that the "
                          "pregenerated copy matches %s" % (copy, source))
        if expected != actual:
            raise DistwarError(
                "distwar: %s was rewritten from another version of %s; rewrite it "
                "again where distwar-rewrite is installed" % (copy, source))
        return copy, None
    if os.path.exists(copy + ".unchanged"):
        with open(copy + ".unchanged") as f:
            if f.read().strip() != actual:
                raise DistwarError(
                    "distwar: %s.unchanged was made from another version of %s; "
                    "rewrite it again where distwar-rewrite is installed" % (copy, source))
        return os.path.abspath(source), None
    raise DistwarError("distwar: the pregenerated folder %s has no copy of %s (expected %s)"
                       % (pregenerated_dir, source, copy))
