"""Packs the distwar runtime (headers and host sources) into the package at
build time, from the checkout's runtime/ (python/../runtime) or, in the
folder that `cmake --install` writes, from the copy already inside
distwar/runtime. Metadata: pyproject.toml."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def runtime_source():
    for candidate in (os.path.join(HERE, "..", "runtime"),
                      os.path.join(HERE, "distwar", "runtime")):
        if os.path.isfile(os.path.join(candidate, "include", "distwar", "runtime.cuh")):
            return os.path.normpath(candidate)
    raise SystemExit("distwar: no runtime/include/distwar/runtime.cuh next to %s; "
                     "install from a distwar checkout (pip install ./python)" % HERE)


class BuildWithRuntime(build_py):
    def run(self):
        super().run()
        source = runtime_source()
        target = os.path.join(self.build_lib, "distwar", "runtime")
        for part, keep in (("include", lambda f: True),
                           ("src", lambda f: f.endswith(".cpp"))):
            for root, _, files in os.walk(os.path.join(source, part)):
                rel = os.path.relpath(root, source)
                for f in files:
                    if keep(f):
                        os.makedirs(os.path.join(target, rel), exist_ok=True)
                        shutil.copy2(os.path.join(root, f), os.path.join(target, rel, f))


setup(cmdclass={"build_py": BuildWithRuntime})
