# lit configuration for distwar's FileCheck tests.
import hashlib
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "distwar"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cu", ".test"]
config.test_source_root = os.path.dirname(__file__)
# The compact form's run (below) keeps its outputs apart, so that both runs
# may go at once.
config.test_exec_root = os.path.join(
    config.distwar_obj_root,
    "test" if lit_config.params.get("distwar_format") != "compact"
    else "test-compact")
# Inputs are included by tests; unit/ and gpu/ are driven by ctest.
config.excludes = ["Inputs", "unit", "gpu", "corpus", "CMakeLists.txt"]

config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(config.filecheck), config.environment.get("PATH", "")])

# `--param distwar_snapshot=DIR` keeps every invocation's output under DIR
# (scripts/snapshot-tool), to compare two builds byte for byte.
# `--param distwar_tool=PATH` runs another build of the tool (a copy kept from
# before a change, for the snapshot comparison).
config.distwar_tool = lit_config.params.get("distwar_tool", config.distwar_tool)
_snapshot = lit_config.params.get("distwar_snapshot")
if _snapshot:
    config.substitutions.append(
        ("%distwar-rewrite", "%s %s %s" % (
            os.path.join(config.distwar_src_root, "scripts", "snapshot-tool"),
            os.path.abspath(_snapshot), config.distwar_tool)))
else:
    config.substitutions.append(("%distwar-rewrite", config.distwar_tool))
# Every test runs on the formatted output (the default) and, with
# `--param distwar_format=compact`, on the compact form (--format-style=none):
# the tool's decisions and code are the same, only the layout differs. Tests
# of one layout name it with `%if format-compact`/`REQUIRES:`.
_format = lit_config.params.get("distwar_format", "formatted")
config.available_features.add("format-" + _format)
if _format == "compact":
    config.substitutions = [
        (k, v + " --format-style=none" if k == "%distwar-rewrite" else v)
        for k, v in config.substitutions]
config.substitutions.append(("%FileCheck", config.filecheck))
# %check-line-map ORIGINAL OUTPUT: every statement line of ORIGINAL keeps its
# number in OUTPUT, as the output's #line directives present it.
config.substitutions.append(("%check-line-map", "python3 " + os.path.join(
    config.distwar_src_root, "scripts", "check-line-map")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%runtime_include", config.runtime_include))

# Every rewritten file must still compile with nvcc: %nvcc-check FILE runs
# nvcc's device compilation (its front end checks the whole file, host
# functions, templates and launches included, and ptxas assembles every
# kernel), a third of a full compile's time. %nvcc-compile FILE adds the host
# compiler's pass, for the tests of what the tool edits in host code
# (launches, files without a trailing newline, byte-order marks).
# `--param distwar_nvcc=off` leaves nvcc out (a quick snapshot run).
# Both go through test/nvcc_cache.py, which replays a compile that succeeded
# before on the same text (the file's and every header's), flags and
# toolchain: a second run recompiles only what changed. Failures always run.
# `--param distwar_nvcc_cache=off` compiles every time.
_use_nvcc = lit_config.params.get("distwar_nvcc", "on") != "off"
if _use_nvcc and config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
    _nvcc_common = "-arch=sm_90 -std=c++17 -I %s -o /dev/null" % config.runtime_include
    _nvcc_run = config.nvcc
    if lit_config.params.get("distwar_nvcc_cache", "on") != "off":
        # The toolchain's identity: nvcc's version and the host compiler's.
        _versions = [subprocess.run([c, "--version"], capture_output=True,
                                    text=True).stdout
                     for c in (config.nvcc, shutil.which("gcc") or "gcc")
                     if shutil.which(c)]
        _nvcc_run = "%s %s --cache-dir %s --toolchain %s -- %s" % (
            sys.executable, os.path.join(config.test_source_root, "nvcc_cache.py"),
            config.nvcc_cache_dir,
            hashlib.sha256("\0".join(_versions).encode()).hexdigest()[:16],
            config.nvcc)
    config.substitutions.append(
        ("%nvcc-check", "%s -cubin %s" % (_nvcc_run, _nvcc_common)))
    config.substitutions.append(
        ("%nvcc-compile", "%s -c %s" % (_nvcc_run, _nvcc_common)))
    # After the two above, which it is a prefix of.
    config.substitutions.append(("%nvcc", config.nvcc))

# clang-apply-replacements (clang-tools-22) applies --export-fixes files.
_car = shutil.which("clang-apply-replacements",
                    path=os.path.dirname(config.filecheck)) or \
    shutil.which("clang-apply-replacements-22")
if _car:
    config.available_features.add("clang-apply-replacements")
    config.substitutions.append(("%clang-apply-replacements", _car))

# distwar-rewrite tests: hermetic CUDA declarations (no SDK needed) and a
# feature for tests that parse the real SDK headers.
config.substitutions.append(
    ("%shim", "-include " + os.path.join(config.test_source_root, "Inputs",
                                         "cuda_shim.h")))
config.substitutions.append(("%examples", os.path.join(config.distwar_src_root, "examples")))
# The reference kernels (kernels), rewritten in place of a user's code.
config.substitutions.append(("%kernels", os.path.join(config.distwar_src_root, "kernels")))
if hasattr(os, "geteuid") and os.geteuid() == 0:
    config.available_features.add("root")
if config.not_tool:
    config.substitutions.append(("%not", config.not_tool))
if os.path.exists("/usr/local/cuda/include/cuda_runtime.h") or \
        os.path.exists(os.path.join(os.environ.get("CUDA_PATH", "/nonexistent"),
                                    "include", "cuda_runtime.h")):
    config.available_features.add("cuda-sdk")
