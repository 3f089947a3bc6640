"""distwar for Python builds: the runtime headers that rewritten CUDA code
includes, the runtime's host sources, and (distwar.torch) a BuildExtension
for torch.utils.cpp_extension that rewrites an extension's CUDA sources with
distwar-rewrite while it builds.

Importing this package imports nothing else (no torch)."""
import os

__version__ = "0.1.0"

_HERE = os.path.dirname(os.path.abspath(__file__))


def _runtime_root():
    """The runtime shipped with the package, or, run from a source checkout
    (python/ on sys.path), the checkout's runtime/."""
    for candidate in (os.path.join(_HERE, "runtime"),
                      os.path.join(_HERE, "..", "..", "runtime")):
        if os.path.isfile(os.path.join(candidate, "include", "distwar", "runtime.cuh")):
            return os.path.normpath(candidate)
    raise FileNotFoundError(
        "distwar: the runtime headers are missing from %s (install the package "
        "with `pip install ./python` from a distwar checkout)" % _HERE)


def include_dir():
    """The directory that holds distwar/runtime.cuh: put it on the include
    path of rewritten sources."""
    return os.path.join(_runtime_root(), "include")


def runtime_sources():
    """The runtime's host sources (the KernelTuner autotuner API of
    <distwar/autotune.h>): add them to an extension that uses that API.
    Rewritten code itself needs only the headers."""
    src = os.path.join(_runtime_root(), "src")
    return sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".cpp"))
