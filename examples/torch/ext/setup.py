"""Builds the splat extension from distwar-rewrite's copy of splat_backward.cu
(and the original, as backward_plain):

    python3 setup.py build_ext --inplace

Where distwar-rewrite is not installed (a GPU machine without Clang 22), set
DISTWAR_PREGENERATED_DIR to a folder written by pregenerate.sh on a machine
that has it. DISTWAR_VARIANT picks the variant (default auto)."""
import os
import sys

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools", "python"))
from distwar_torch import include_dirs, rewrite_sources  # noqa: E402

# Relative to HERE: these are also the paths inside a pregenerated folder.
originals = ["ext.cpp", "splat_backward.cu"]
sources = rewrite_sources(
    [os.path.join(HERE, s) for s in originals],
    os.path.join(HERE, "build", "distwar"),
    variant=os.environ.get("DISTWAR_VARIANT", "auto"),
    gpu_arch="sm_90",
    base_dir=HERE,
)
# The original, compiled as it is inside namespace plain.
sources.append(os.path.join(HERE, "splat_backward_plain.cu"))

setup(
    name="distwar_splat",
    ext_modules=[CUDAExtension(
        "distwar_splat", sources,
        include_dirs=include_dirs([os.path.join(HERE, "splat_backward.cu")]),
        extra_compile_args={"cxx": ["-O2"], "nvcc": ["-O3", "-std=c++17"]})],
    cmdclass={"build_ext": BuildExtension})
