"""A PyTorch extension built with the one-line setup.py change, in a venv
with torch from the package registry (no GPU needed):

    python3 test_torch_build.py <distwar-rewrite> <scratch dir>

The venv (<scratch>/venv) is kept between runs. torch 2.11.0 (the version
of the GPU machines) comes without its CUDA library packages: the CUDA
toolkit installed here provides them, all but three small ones it installs
too. Prints `SKIPPED: ...` and exits 0 when the registry is unreachable;
else `N passed, N failed`, exit 1 on a failure."""
import glob
import os
import shutil
import subprocess
import sys
import textwrap
import time

from tally import Tally

tool, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
venv = os.path.join(scratch, "venv")
python = os.path.join(venv, "bin", "python")
TORCH = "torch==2.11.0"
TORCH_DEPS = ["typing-extensions>=4.10", "filelock", "sympy>=1.13.3", "networkx", "jinja2",
              "fsspec", "setuptools>=70.1,<82"]
# Libraries torch's CUDA build links that the CUDA toolkit here lacks.
CUDA_EXTRAS = ["cuda-toolkit[cufile]==13.0.2", "nvidia-cusparselt-cu13==0.8.0",
               "nvidia-nvshmem-cu13==3.4.5"]
UNREACHABLE = ("NewConnectionError", "Temporary failure in name resolution",
               "Network is unreachable", "Connection refused", "ConnectTimeout",
               "Max retries exceeded")

tally = Tally()
check = tally.check


def run(cmd, cwd=None, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def pip(*args):
    done = run([python, "-m", "pip", "install", "-q"] + list(args))
    if done.returncode != 0:
        if any(w in done.stdout for w in UNREACHABLE):
            print("SKIPPED: the package registry is unreachable (pip install %s)" % args[-1])
            sys.exit(0)
        print(done.stdout[-3000:])
        check(False, "pip install %s" % " ".join(args))
        tally.finish()


def torch_ready():
    return os.path.exists(python) and run(
        [python, "-c", "import torch, torch.utils.cpp_extension; "
                       "assert torch.__version__.startswith('2.11.0')"]).returncode == 0


if not torch_ready():
    shutil.rmtree(venv, ignore_errors=True)
    os.makedirs(scratch, exist_ok=True)
    if run([sys.executable, "-m", "venv", venv]).returncode != 0:
        check(False, "python3 -m venv")
        tally.finish()
    pip("--no-deps", TORCH)
    pip(*TORCH_DEPS)
    pip(*CUDA_EXTRAS)
    done = run([python, "-c", "import torch.utils.cpp_extension"])
    if done.returncode != 0:
        print(done.stdout[-3000:])
        check(False, "torch does not import in the venv")
        tally.finish()

# The package, as a user installs it (from a copy: the checkout gets no
# build/ or egg-info).
pkg = os.path.join(scratch, "pkg")
shutil.rmtree(pkg, ignore_errors=True)
shutil.copytree(os.path.join(root, "python"), os.path.join(pkg, "python"),
                ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
os.symlink(os.path.join(root, "runtime"), os.path.join(pkg, "runtime"))
pip("--no-build-isolation", "--force-reinstall", "--no-deps", os.path.join(pkg, "python"))

# A small extension: a kernel with a batched group, reading a macro and a
# header that only the extension's own flags provide; a file without atomics.
ext = os.path.join(scratch, "ext")
shutil.rmtree(ext, ignore_errors=True)
os.makedirs(os.path.join(ext, "include"))
files = {
    "include/fields.h": """
        #pragma once
        struct Fields { float *a, *b; };
        """,
    "kernel.cu": """
        #include "fields.h"
        #include <cuda_runtime.h>
        __global__ void accumulate(Fields g, const int *ids, const float *v) {
          const int id = ids[blockIdx.x];
          const float x = v[threadIdx.x] * DW_SCALE;
          atomicAdd(&g.a[id], x);
          atomicAdd(&g.b[id], x * x);
        }
        void launchAccumulate(Fields g, const int *ids, const float *v, int blocks,
                              cudaStream_t stream) {
          accumulate<<<blocks, 32, 0, stream>>>(g, ids, v);
        }
        """,
    "other.cu": """
        __global__ void scale(float *x, float s) { x[threadIdx.x] *= s; }
        """,
    "bind.cpp": """
        #include <Python.h>
        static PyModuleDef module = {PyModuleDef_HEAD_INIT, "dwtest_ext", nullptr, -1,
                                     nullptr};
        PyMODINIT_FUNC PyInit_dwtest_ext() { return PyModule_Create(&module); }
        """,
    "setup.py": """
        import os
        from setuptools import setup
        from torch.utils.cpp_extension import CUDAExtension
        from distwar.torch import BuildExtension

        # Absolute: torch's ninja build runs in the build folder.
        include = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")
        setup(name="dwtest",
              ext_modules=[CUDAExtension(
                  "dwtest_ext", ["bind.cpp", "kernel.cu", "other.cu"],
                  include_dirs=[include], define_macros=[("DW_SCALE", "2.f")],
                  extra_compile_args={"nvcc": ["-O2"]})],
              cmdclass={"build_ext": BuildExtension})
        """,
}
for name, text in files.items():
    with open(os.path.join(ext, name), "w") as f:
        f.write(textwrap.dedent(text).lstrip())

build_temp = os.path.join(ext, "build", "temp")
base_env = dict(os.environ)
for var in ("DISTWAR_REWRITE", "DISTWAR_PREGENERATED_DIR", "DISTWAR_ALLOW_PLAIN",
            "DISTWAR_VARIANT"):
    base_env.pop(var, None)
base_env["TORCH_CUDA_ARCH_LIST"] = "9.0"
base_env["MAX_JOBS"] = "2"
# No distwar-rewrite on this PATH: only DISTWAR_REWRITE gives it.
base_env["PATH"] = os.pathsep.join(
    [os.path.join(venv, "bin"), "/usr/local/cuda/bin", "/usr/bin", "/bin"])


def build(*args, **env):
    e = dict(base_env)
    e.update(env)
    return run([python, "setup.py", "build_ext", "--inplace", "--build-temp", build_temp]
               + list(args), cwd=ext, env=e)


def report():
    """The built module's report, read in a fresh process."""
    out = os.path.join(scratch, "report.jsonl")
    code = ("import torch, dwtest_ext, distwar.torch as d; "
            "d.write_report(dwtest_ext, %r); "
            "print([(r['site'], r['table'], r['how']) for r in d.read_report(%r)])"
            % (out, out))
    done = run([python, "-c", code], cwd=ext, env=base_env)
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stdout


copy = os.path.join(build_temp, "distwar", "dwtest_ext", "kernel.cu")
# 1. With the tool.
first = build(DISTWAR_REWRITE=tool)
check(first.returncode == 0, "build with the tool:\n" + first.stdout[-3000:])
check("kernel.cu: 2 atomic site(s), 1 group(s), rewritten" in first.stdout,
      "the build says what it rewrote")
check(os.path.isfile(copy) and "::distwar::LaunchTuner" in open(copy).read(),
      "the copy (with its launch wrapped) is under build_temp/distwar/<extension>/")
check(not os.path.exists(os.path.join(build_temp, "distwar", "dwtest_ext", "other.cu")) and
      not os.path.exists(os.path.join(build_temp, "distwar", "dwtest_ext", "other.cu.unchanged")),
      "a file without atomicAdd is not given to the tool")
check(len(glob.glob(os.path.join(ext, "dwtest_ext*.so"))) == 1, "the extension is built")
check(report() == "[('accumulate#0', 'distwar_sites_kernel_cu', 'default')]",
      "the module registers its site: " + report())
stamp = os.path.getmtime(copy)
time.sleep(1.1)
# 2. Again: nothing is rewritten, nothing compiled.
again = build(DISTWAR_REWRITE=tool)
check(again.returncode == 0 and "ninja: no work to do" in again.stdout and
      os.path.getmtime(copy) == stamp,
      "a second build rewrites and compiles nothing:\n" + again.stdout[-2000:])
# 3. Copies for a machine without the tool.
gen = os.path.join(scratch, "gen")
shutil.rmtree(gen, ignore_errors=True)
pregen = build("--distwar-pregenerate", gen, DISTWAR_REWRITE=tool)
check(pregen.returncode == 0 and os.path.isfile(os.path.join(gen, "dwtest_ext", "kernel.cu")) and
      os.path.isfile(os.path.join(gen, "dwtest_ext", "kernel.cu.sha256")) and
      "nvcc" not in pregen.stdout,
      "--distwar-pregenerate writes copies and compiles nothing:\n" + pregen.stdout[-2000:])
# 4. From them, without the tool.
from_gen = build(DISTWAR_PREGENERATED_DIR=gen)
check(from_gen.returncode == 0 and "pregenerated copy" in from_gen.stdout and
      os.path.join(gen, "dwtest_ext", "kernel.cu") in from_gen.stdout,
      "a build from pregenerated copies:\n" + from_gen.stdout[-2000:])
# 5. The build's own folder of copies as the pregenerated folder.
own = build(DISTWAR_PREGENERATED_DIR=os.path.join(build_temp, "distwar"))
check(own.returncode == 0 and os.path.getmtime(copy) == stamp,
      "the output folder as the pregenerated folder:\n" + own.stdout[-2000:])
# 6. A source changed since the copies were made.
with open(os.path.join(ext, "kernel.cu"), "a") as f:
    f.write("// changed\n")
stale = build(DISTWAR_PREGENERATED_DIR=gen)
check(stale.returncode != 0 and "was rewritten from another version of" in stale.stdout,
      "a stale copy stops the build:\n" + stale.stdout[-2000:])
# 7. No tool, no copies: a clear error; the plain build only when asked.
missing = build()
lines = [x for x in missing.stdout.splitlines() if x.startswith("error: distwar:")]
check(missing.returncode != 0 and len(lines) == 1 and "DISTWAR_REWRITE=" in lines[0] and
      "DISTWAR_ALLOW_PLAIN=1" in lines[0],
      "no tool: one line with the install hint:\n" + missing.stdout[-2000:])
plain = build(DISTWAR_ALLOW_PLAIN="1")
check(plain.returncode == 0 and "building the plain sources, without distwar" in plain.stdout and
      os.path.join(ext, "kernel.cu") in plain.stdout,
      "DISTWAR_ALLOW_PLAIN=1 builds the originals, with a warning:\n" + plain.stdout[-2000:])

tally.finish()
