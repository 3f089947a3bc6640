"""Rewrite CUDA sources with distwar-rewrite before torch.utils.cpp_extension
builds them.

    from distwar_torch import rewrite_sources, include_dirs
    sources = rewrite_sources(["ext.cpp", "kernels/render.cu"], "build/distwar",
                              variant="auto", extra_args=["-Ikernels"])
    CUDAExtension("ext", sources, include_dirs=include_dirs(["kernels/render.cu"]))

Only .cu files are rewritten; other paths come back unchanged. A copy is made
again when its source, a header listed in its depfile or the tool is newer, or
when the command line (variant, arch, flags) changed.
"""
import os
import shutil
import subprocess

VARIANTS = ("auto", "serial", "butterfly", "floor")


def find_tool(tool=None):
    """distwar-rewrite: the argument, $DISTWAR_REWRITE, or the PATH."""
    tool = tool or os.environ.get("DISTWAR_REWRITE") or shutil.which("distwar-rewrite")
    if not tool or not os.path.isfile(tool):
        return None
    return os.path.abspath(tool)


def runtime_include_dir():
    """runtime/include of this checkout, or include/ of an install prefix."""
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "..", "..", "runtime", "include"),
                      os.path.join(here, "..", "..", "include")):
        if os.path.isfile(os.path.join(candidate, "distwar", "runtime.cuh")):
            return os.path.normpath(candidate)
    raise FileNotFoundError("distwar_torch: no distwar/runtime.cuh near " + here)


def include_dirs(original_sources=()):
    """Include directories for the extension: the runtime headers and the
    directory of each original source, so quote-includes still resolve from
    the rewritten copies."""
    dirs = [runtime_include_dir()]
    for src in original_sources:
        d = os.path.dirname(os.path.abspath(src))
        if d not in dirs:
            dirs.append(d)
    return dirs


_DEPFILE_SUPPORT = {}


def _tool_writes_depfiles(tool):
    """Whether this tool accepts --depfile (asked once per tool)."""
    if tool not in _DEPFILE_SUPPORT:
        done = subprocess.run([tool, "--help"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True)
        _DEPFILE_SUPPORT[tool] = "--depfile" in done.stdout
    return _DEPFILE_SUPPORT[tool]


def _depfile_inputs(depfile):
    with open(depfile) as f:
        text = f.read().replace("\\\n", " ")
    _, _, deps = text.partition(": ")
    return [d.replace("\\ ", " ") for d in deps.split()]


def _up_to_date(src, out, depfile, tool, command):
    """A copy is current when it was made by this command line (variant, arch,
    flags) and is newer than its source, every header it read and the tool
    itself (a newer tool may rewrite differently)."""
    if not os.path.exists(out) or (depfile and not os.path.exists(depfile)):
        return False
    try:
        with open(out + ".cmd") as f:
            if f.read() != "\0".join(command):
                return False
    except OSError:
        return False
    stamp = os.path.getmtime(out)
    inputs = [src, shutil.which(tool) or tool]
    inputs += _depfile_inputs(depfile) if depfile else []
    return all(os.path.exists(p) and os.path.getmtime(p) <= stamp for p in inputs)


def rewrite_sources(sources, out_dir, variant="auto", extra_args=(), tool=None,
                    gpu_arch=None, base_dir=None, pregenerated_dir=None):
    """Returns `sources` with every .cu replaced by its rewritten copy under
    out_dir (same path relative to base_dir, default: the current directory).
    Where no tool is found, copies come from pregenerated_dir
    (or $DISTWAR_PREGENERATED_DIR) at the same relative path."""
    if variant not in VARIANTS:
        raise ValueError("distwar_torch: variant must be one of %s, not %r" % (VARIANTS, variant))
    base_dir = os.path.abspath(base_dir or os.getcwd())
    pregenerated_dir = pregenerated_dir or os.environ.get("DISTWAR_PREGENERATED_DIR")
    tool = find_tool(tool)
    result = []
    for src in sources:
        if not src.endswith(".cu"):
            result.append(src)
            continue
        src_abs = os.path.abspath(src)
        rel = os.path.relpath(src_abs, base_dir).replace("..", "__")
        out = os.path.join(os.path.abspath(out_dir), rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if tool is None:
            if not pregenerated_dir:
                raise FileNotFoundError(
                    "distwar_torch: distwar-rewrite not found (set DISTWAR_REWRITE or PATH), "
                    "and no pregenerated_dir / DISTWAR_PREGENERATED_DIR given")
            shutil.copyfile(os.path.join(pregenerated_dir, rel), out)
            result.append(out)
            continue
        depfile = out + ".d" if _tool_writes_depfiles(tool) else None
        command = [tool, src_abs, "-o", out, "--variant=" + variant]
        if depfile:
            command.append("--depfile=" + depfile)
        if gpu_arch:
            command.append("--cuda-gpu-arch=" + gpu_arch)
        command += ["--", "-I" + os.path.dirname(src_abs)] + list(extra_args)
        if not _up_to_date(src_abs, out, depfile, tool, command):
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  universal_newlines=True)
            if done.returncode != 0:
                raise RuntimeError("distwar-rewrite failed on %s:\n%s" % (src, done.stderr))
            with open(out + ".cmd", "w") as f:
                f.write("\0".join(command))
        result.append(out)
    return result
