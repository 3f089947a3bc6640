"""Builds the splat extension with distwar: the one change from a plain
torch extension is the BuildExtension import (distwar's, from
`pip install ./python`).

    python3 setup.py build_ext --inplace

splat_backward.cu is rewritten by distwar-rewrite while it builds;
splat_backward_plain.cu compiles the original inside namespace plain (the
tool leaves it as it is: its atomics are in an included file). Where the tool
is not installed, DISTWAR_PREGENERATED_DIR names copies rewritten elsewhere
(`python3 setup.py build_ext --distwar-pregenerate DIR`)."""
from setuptools import setup
from torch.utils.cpp_extension import CUDAExtension

from distwar.torch import BuildExtension

setup(
    name="distwar_splat",
    ext_modules=[CUDAExtension(
        "distwar_splat", ["ext.cpp", "splat_backward.cu", "splat_backward_plain.cu"],
        extra_compile_args={"cxx": ["-O2"], "nvcc": ["-O3", "-std=c++17"]})],
    cmdclass={"build_ext": BuildExtension})
