"""A BuildExtension for torch.utils.cpp_extension that compiles the
extension's CUDA sources rewritten by distwar-rewrite. In setup.py:

    from distwar.torch import BuildExtension
    setup(..., cmdclass={"build_ext": BuildExtension})

(in place of torch's BuildExtension; everything else stays). While
build_ext runs (never at import), every .cu source that mentions atomicAdd
(or, where its .distwar.yaml asks for `Balance: tiles`, launches a kernel)
is rewritten with the extension's own include directories, macros and nvcc
flags (torch's included), the copy is compiled instead, and the runtime
headers join the include path. The copies go to
<build_temp>/distwar/<extension name>/<path relative to setup.py> and are
made again only when a source, a header they read or the tool changes.

Options (`python setup.py build_ext --distwar-...`, keyword arguments of
BuildExtension.with_options(distwar_...=...), or the environment):
  --distwar-variant V      DISTWAR_VARIANT      auto|serial|butterfly|floor
  --distwar-tool PATH      DISTWAR_REWRITE      distwar-rewrite (default: PATH)
  --distwar-gpu-arch sm_NN                      arch of the parse (default:
                                                first of TORCH_CUDA_ARCH_LIST)
  --distwar-pregenerated DIR  DISTWAR_PREGENERATED_DIR
        compile copies rewritten elsewhere (a machine without Clang 22),
        checked against the originals' hashes; the tool is not needed
  --distwar-pregenerate DIR
        rewrite into DIR (for --distwar-pregenerated) and compile nothing
  --distwar-allow-plain    DISTWAR_ALLOW_PLAIN=1
        without a tool or copies, build the plain sources (with a warning)
        instead of stopping

At run time the rewritten extension tunes its thresholds on its own launches;
DISTWAR_THRESHOLD, DISTWAR_AUTOTUNE and DISTWAR_REPORT control it from the
environment (README, "PyTorch"), write_report() reports it now."""
import ctypes
import json
import os
import sys

import torch
from torch.utils import cpp_extension

import distwar
from distwar import rewrite

try:
    from setuptools.errors import SetupError as _SetupError
except ImportError:  # setuptools < 60
    from distutils.errors import DistutilsSetupError as _SetupError


def _gpu_arch_from_torch_list(value):
    """sm_NN of the first entry of TORCH_CUDA_ARCH_LIST ("9.0", "8.6+PTX",
    "9.0a"), or None."""
    for entry in value.replace(",", ";").replace(" ", ";").split(";"):
        entry = entry.split("+")[0].strip()
        if not entry:
            continue
        major, _, minor = entry.partition(".")
        if major.isdigit() and minor[:1].isdigit():
            return "sm_%s%s" % (major, minor)
        if entry.isdigit():
            return "sm_" + entry
    return None


def _nvcc_flags(extension):
    args = extension.extra_compile_args
    return list(args.get("nvcc", []) if isinstance(args, dict) else args)


def _own_include_dirs(extension):
    """The extension's include directories but those of the CUDA SDK, torch
    and Python, whose headers mention atomicAdd without calling it."""
    theirs = [cpp_extension.CUDA_HOME, os.path.dirname(torch.__file__), sys.prefix,
              sys.base_prefix]
    theirs = [os.path.abspath(t) + os.sep for t in theirs if t]
    return [d for d in map(os.path.abspath, extension.include_dirs)
            if not any((d + os.sep).startswith(t) for t in theirs)]


class BuildExtension(cpp_extension.BuildExtension):
    user_options = cpp_extension.BuildExtension.user_options + [
        ("distwar-variant=", None, "distwar-rewrite variant (auto, serial, butterfly, floor)"),
        ("distwar-tool=", None, "path of distwar-rewrite"),
        ("distwar-gpu-arch=", None, "GPU arch of the rewrite's parse (sm_NN)"),
        ("distwar-pregenerated=", None, "compile copies rewritten elsewhere, from this folder"),
        ("distwar-pregenerate=", None, "rewrite into this folder and compile nothing"),
        ("distwar-allow-plain", None, "without a tool or copies, build the plain sources"),
    ]
    boolean_options = cpp_extension.BuildExtension.boolean_options + ["distwar-allow-plain"]

    _KEYWORDS = ("distwar_variant", "distwar_tool", "distwar_gpu_arch",
                 "distwar_pregenerated", "distwar_pregenerate", "distwar_allow_plain")

    def __init__(self, *args, **kwargs):
        self._distwar_defaults = {k: kwargs.pop(k) for k in self._KEYWORDS if k in kwargs}
        super().__init__(*args, **kwargs)

    def initialize_options(self):
        super().initialize_options()
        for k in self._KEYWORDS:
            setattr(self, k, None)

    def finalize_options(self):
        super().finalize_options()
        env = os.environ
        defaults = self._distwar_defaults

        def pick(name, var=None):
            return getattr(self, name) or defaults.get(name) or (env.get(var) if var else None)

        self.distwar_variant = pick("distwar_variant", "DISTWAR_VARIANT") or "auto"
        if self.distwar_variant not in rewrite.VARIANTS:
            raise _SetupError("distwar: variant must be one of %s, not %r"
                              % (", ".join(rewrite.VARIANTS), self.distwar_variant))
        self.distwar_tool = pick("distwar_tool", "DISTWAR_REWRITE")
        self.distwar_gpu_arch = (pick("distwar_gpu_arch") or
                                 _gpu_arch_from_torch_list(env.get("TORCH_CUDA_ARCH_LIST", "")))
        self.distwar_pregenerated = pick("distwar_pregenerated", "DISTWAR_PREGENERATED_DIR")
        self.distwar_pregenerate = pick("distwar_pregenerate")
        self.distwar_allow_plain = bool(pick("distwar_allow_plain") or
                                        env.get("DISTWAR_ALLOW_PLAIN", "") not in ("", "0"))
        if self.distwar_pregenerate and self.distwar_pregenerated:
            raise _SetupError("distwar: --distwar-pregenerate writes copies and "
                              "--distwar-pregenerated reads them; give one")
        if self.distwar_pregenerate:
            # Nothing is built, so nothing is copied back into the sources.
            self.inplace = False
        self._distwar_rewriter = None

    def _rewriter(self):
        """The tool's driver, or None where the plain sources are built."""
        if self._distwar_rewriter is None:
            out = self.distwar_pregenerate or os.path.join(self.build_temp, "distwar")
            try:
                self._distwar_rewriter = rewrite.Rewriter(
                    out, self.distwar_variant, self.distwar_tool, self.distwar_gpu_arch,
                    cpp_extension.CUDA_HOME)
            except rewrite.DistwarError as e:
                if self.distwar_pregenerate or not self.distwar_allow_plain:
                    raise _SetupError(
                        "%s; or set DISTWAR_PREGENERATED_DIR to copies rewritten "
                        "elsewhere (python setup.py build_ext --distwar-pregenerate "
                        "DIR), or DISTWAR_ALLOW_PLAIN=1 to build without distwar"
                        % e) from None
                self.warn("distwar: distwar-rewrite not found; DISTWAR_ALLOW_PLAIN "
                          "is set: building the plain sources, without distwar")
                self._distwar_rewriter = False
        return self._distwar_rewriter or None

    def _clang_flags(self, extension):
        """The extension's compile flags for the tool's parse: include
        directories, macros, and the nvcc flags torch would pass (the tool
        reads nvcc spellings and takes the arch from -gencode)."""
        flags = []
        cuda_include = (os.path.join(cpp_extension.CUDA_HOME, "include")
                        if cpp_extension.CUDA_HOME else None)
        dirs = list(extension.include_dirs) + list(self.include_dirs or [])
        dirs += list(getattr(self.compiler, "include_dirs", []) or [])
        for d in dirs:
            d = os.path.abspath(d)
            # The SDK's headers come through the tool's --cuda-path.
            if d != cuda_include and "-I" + d not in flags:
                flags.append("-I" + d)
        for name, value in list(extension.define_macros) + list(self.define or []):
            flags.append("-D%s" % name if value is None else "-D%s=%s" % (name, value))
        for name in list(extension.undef_macros) + list(self.undef or []):
            flags.append("-U" + name)
        nvcc = cpp_extension.COMMON_NVCC_FLAGS + _nvcc_flags(extension)
        if not any(f.startswith("-std=") or f.startswith("--std") for f in nvcc):
            nvcc.append("-std=c++17")  # what torch adds
        return flags + nvcc

    def _distwar_sources(self, extension):
        """The sources to compile, the directories the copies need on the
        include path, and the lines to print."""
        base = os.path.abspath(os.curdir)
        flags = None
        sources, dirs, notes = [], [], []
        search = _own_include_dirs(extension)
        for src in extension.sources:
            if not src.endswith(".cu") or not rewrite.worth_rewriting(src, search):
                sources.append(src)
                continue
            rel = extension.name + "/" + rewrite.relative_path(src, base)
            if self.distwar_pregenerated and not self.distwar_pregenerate:
                path, warning = rewrite.pregenerated(src, self.distwar_pregenerated, rel)
                if warning:
                    self.warn(warning)
                note = "distwar: %s: %s" % (src, "pregenerated copy" if path != os.path.abspath(src)
                                            else "nothing to rewrite (pregenerated record)")
            else:
                tool = self._rewriter()
                if tool is None:
                    sources.append(src)
                    continue
                if flags is None:
                    flags = self._clang_flags(extension)
                path, report = tool.rewrite(src, rel, flags)
                note = "distwar: " + (report or src)
            if path != os.path.abspath(src):
                d = os.path.dirname(os.path.abspath(src))
                if d not in dirs:
                    dirs.append(d)
            sources.append(path)
            notes.append(note)
        return sources, dirs, notes

    def build_extension(self, ext):
        # Called after torch's build_extensions added its flags to ext.
        try:
            sources, dirs, notes = self._distwar_sources(ext)
        except rewrite.DistwarError as e:
            raise _SetupError(str(e)) from None
        for note in notes:
            print(note)
        if self.distwar_pregenerate:
            return
        if not any(s not in ext.sources for s in sources):
            return super().build_extension(ext)
        original = (ext.sources, ext.include_dirs)
        # The runtime headers; the originals' folders, so that the copies'
        # quote-includes find their neighbours.
        ext.sources = sources
        ext.include_dirs = list(ext.include_dirs) + [distwar.include_dir()] + dirs
        try:
            return super().build_extension(ext)
        finally:
            ext.sources, ext.include_dirs = original


def write_report(module, path):
    """Writes the distwar report of a built extension module (or the path of
    its shared object) to `path` now: one JSON line per site with its
    threshold, how it was chosen, the launches that read it and their time
    (what DISTWAR_REPORT=FILE writes at exit)."""
    library = getattr(module, "__file__", module)
    entry = ctypes.CDLL(library).distwar_write_report
    entry.argtypes = [ctypes.c_char_p]
    entry.restype = ctypes.c_int
    if entry(os.fsencode(path)) != 0:
        raise OSError("distwar: cannot write the report of %s to %s" % (library, path))


def read_report(path):
    """The lines of a report (write_report, DISTWAR_REPORT) as dicts."""
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]
