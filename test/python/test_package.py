"""The distwar Python package as pip installs it (no torch needed):

    python3 test_package.py <distwar-rewrite> <scratch dir>

Installs python/ with pip into <scratch>/site, then checks the packed
runtime, the scan for atomics, rewriting into a folder (copies, hashes,
reports, no work when nothing changed) and taking copies from a folder
rewritten elsewhere. Prints `N passed, N failed`; exits 1 on a failure."""
import os
import re
import shutil
import subprocess
import sys
import time

from tally import Tally

tool, scratch = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)

tally = Tally()
check = tally.check


def expect_error(fn, fragment, what, one_line=True):
    try:
        fn()
    except rewrite.DistwarError as e:
        check(fragment in str(e) and (not one_line or "\n" not in str(e)),
              "%s: %s" % (what, e))
        return
    check(False, what + ": no error")


# pip install into a folder of its own, from a copy of the package so that
# the checkout gets no build/ or egg-info.
site = os.path.join(scratch, "site")
shutil.copytree(os.path.join(root, "python"), os.path.join(scratch, "python"),
                ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
# The copy's setup.py finds the runtime through ../runtime.
os.symlink(os.path.join(root, "runtime"), os.path.join(scratch, "runtime"))


def pip_install(*extra):
    return subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--target", site]
                          + list(extra) + [os.path.join(scratch, "python")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)


# With the setuptools at hand when it builds wheels (70.1 and later), else
# with the one pip fetches from the package registry.
done = pip_install("--no-build-isolation")
if done.returncode != 0:
    done = pip_install()
if done.returncode != 0:
    if any(w in done.stdout for w in ("NewConnectionError", "Could not find a version",
                                      "Temporary failure in name resolution")):
        print("SKIPPED: pip needs setuptools>=70.1 from the package registry, "
              "which is unreachable")
        sys.exit(0)
    print(done.stdout[-3000:])
    check(False, "pip install python/")
    tally.finish()
sys.path.insert(0, site)
import distwar  # noqa: E402
from distwar import rewrite  # noqa: E402

check(os.path.dirname(distwar.__file__) == os.path.join(site, "distwar"),
      "the installed package is the one imported: " + distwar.__file__)
inc = distwar.include_dir()
check(inc.startswith(site) and os.path.isfile(os.path.join(inc, "distwar", "runtime.cuh")) and
      os.path.isfile(os.path.join(inc, "distwar", "launch.h")),
      "the runtime headers are packed: " + inc)
check([os.path.basename(s) for s in distwar.runtime_sources()] == ["autotune.cpp", "tuning.cpp"],
      "the host sources are packed: %s" % distwar.runtime_sources())

# Paths of copies stay inside their folder.
check(rewrite.relative_path("/a/b/c.cu", "/a") == "b/c.cu", "relative path")
check(rewrite.relative_path("/x/c.cu", "/a/b") == "__/__/x/c.cu", "relative path out of base")

# The scan: the file itself, and headers it includes with quotes.
src_dir = os.path.join(scratch, "src")
os.makedirs(os.path.join(src_dir, "inc"))
with open(os.path.join(src_dir, "inc", "add.h"), "w") as f:
    f.write("#define ADD(p, v) atomicAdd(p, v)\n")
with open(os.path.join(src_dir, "macro.cu"), "w") as f:
    f.write('#include "add.h"\n__global__ void k(float *g) { ADD(g, 1.f); }\n')
with open(os.path.join(src_dir, "none.cu"), "w") as f:
    f.write('#include <cstdio>\n__global__ void k(float *g) { g[0] = 1.f; }\n')
check(rewrite.mentions_atomics(os.path.join(root, "examples", "torch", "ext", "splat_backward.cu")),
      "atomicAdd in the file")
check(rewrite.mentions_atomics(os.path.join(src_dir, "macro.cu"), [os.path.join(src_dir, "inc")]),
      "atomicAdd in a quote-included header")
check(not rewrite.mentions_atomics(os.path.join(src_dir, "macro.cu")),
      "a header not on the include path is not read")
check(not rewrite.mentions_atomics(os.path.join(src_dir, "none.cu")), "no atomicAdd")

# A launch without atomics is worth rewriting where .distwar.yaml asks for
# balanced tiles (the nearest file decides, as the tool's search does).
with open(os.path.join(src_dir, "launch.cu"), "w") as f:
    f.write('__global__ void k(float *g) { g[blockIdx.x] = 1.f; }\n'
            'void run(float *g) { k<< <4, 32>> >(g); }\n')
check(not rewrite.worth_rewriting(os.path.join(src_dir, "launch.cu")),
      "a launch without atomics and no Balance: left alone")
with open(os.path.join(scratch, ".distwar.yaml"), "w") as f:
    f.write("Variant: auto\nBalance: tiles  # the forward too\n")
check(rewrite.worth_rewriting(os.path.join(src_dir, "launch.cu")),
      "a launch under Balance: tiles is rewritten")
check(not rewrite.worth_rewriting(os.path.join(src_dir, "none.cu")),
      "Balance: tiles, but nothing launched and no atomicAdd")
with open(os.path.join(src_dir, "inc", "launch.h"), "w") as f:
    f.write('__global__ void k2(float *g) { g[blockIdx.x] = 2.f; }\n'
            'inline void run2(float *g) { k2<<<4, 32>>>(g); }\n')
with open(os.path.join(src_dir, "via_header.cu"), "w") as f:
    f.write('#include "launch.h"\n')
check(rewrite.worth_rewriting(os.path.join(src_dir, "via_header.cu"),
                              [os.path.join(src_dir, "inc")]),
      "a launch in a quote-included header under Balance: tiles")
with open(os.path.join(src_dir, ".distwar.yaml"), "w") as f:
    f.write("Balance: none\n")
check(not rewrite.worth_rewriting(os.path.join(src_dir, "launch.cu")),
      "the nearest .distwar.yaml decides")
os.remove(os.path.join(src_dir, ".distwar.yaml"))
os.remove(os.path.join(scratch, ".distwar.yaml"))

# Rewriting into a folder.
ext_dir = os.path.join(root, "examples", "torch", "ext")
splat = os.path.join(ext_dir, "splat_backward.cu")
out_dir = os.path.join(scratch, "out")
rw = rewrite.Rewriter(out_dir, "auto", tool, "sm_90")
path, report = rw.rewrite(splat, "ext/splat_backward.cu", [])
copy = os.path.join(out_dir, "ext", "splat_backward.cu")
check(path == copy, "the copy is compiled: " + path)
text = open(copy).read()
check(text.startswith("#include <distwar/runtime.cuh>") and "atomicAdd(" not in text,
      "the copy is rewritten")
# Whitespace aside: the layout is clang-format's.
check('::distwar::LaunchTunerdistwar_tuner0("splat_backward_kernel",'
      '{{&distwar_sites_splat_backward_cu,"splat_backward_kernel#0"}})'
      in re.sub(r"\s+", "", text), "the launch is wrapped for tuning")
check(open(copy + ".sha256").read().strip() == rewrite.file_sha256(splat),
      "the hash of the original is kept")
check("1 group(s), rewritten" in report, "report line: " + report)
stamp = os.path.getmtime(copy)
time.sleep(1.1)
rw.rewrite(splat, "ext/splat_backward.cu", [])
check(os.path.getmtime(copy) == stamp and
      os.path.getmtime(copy + ".cmd") <= stamp + 0.5,
      "an up-to-date copy is left alone (the tool does not run)")
# A newer source whose copy comes out the same: the copy keeps its time
# stamp (no rebuild).
local = os.path.join(scratch, "local")
os.makedirs(local)
local_src = os.path.join(local, "splat_backward.cu")
shutil.copy(splat, local_src)
shutil.copy(os.path.join(ext_dir, "splat_backward.h"), local)
rw.rewrite(local_src, "local/splat_backward.cu", [])
local_copy = os.path.join(out_dir, "local", "splat_backward.cu")
local_stamp = os.path.getmtime(local_copy)
time.sleep(1.1)
os.utime(local_src)
rw.rewrite(local_src, "local/splat_backward.cu", [])
check(os.path.getmtime(local_copy + ".cmd") > local_stamp and
      os.path.getmtime(local_copy) == local_stamp,
      "the tool ran again and the unchanged copy kept its time stamp")
# Another variant is another command line: written again.
rewrite.Rewriter(out_dir, "serial", tool, "sm_90").rewrite(splat, "ext/splat_backward.cu", [])
check("reduceSerial" in open(copy).read(), "another variant rewrites the copy")
# Nothing to change: the original is compiled, recorded as unchanged.
none_path, _ = rw.rewrite(os.path.join(src_dir, "none.cu"), "src/none.cu", [])
check(none_path == os.path.join(src_dir, "none.cu") and
      os.path.isfile(os.path.join(out_dir, "src", "none.cu.unchanged")) and
      not os.path.exists(os.path.join(out_dir, "src", "none.cu")),
      "a file the tool leaves alone is compiled as it is")

# Errors: one line each (the tool's own message keeps Clang's diagnostics),
# nothing written.
with open(os.path.join(src_dir, "broken.cu"), "w") as f:
    f.write("__global__ void k(float *g) { atomicAdd(g, ); }\n")
expect_error(lambda: rw.rewrite(os.path.join(src_dir, "broken.cu"), "src/broken.cu", []),
             "Clang cannot parse this", "a file that does not parse",
             one_line=False)
check(not os.path.exists(os.path.join(out_dir, "src", "broken.cu")),
      "nothing written for a file that does not parse")
expect_error(lambda: rewrite.Rewriter(out_dir, "fast", tool), "variant must be one of",
             "a bad variant")
expect_error(lambda: rewrite.Rewriter(out_dir, "auto", os.path.join(scratch, "no-such-tool")),
             "distwar-rewrite not found: build it", "no tool")

# Copies rewritten elsewhere, checked by hash.
rw_auto = rewrite.Rewriter(out_dir, "auto", tool, "sm_90")
rw_auto.rewrite(splat, "ext/splat_backward.cu", [])
got, warning = rewrite.pregenerated(splat, out_dir, "ext/splat_backward.cu")
check(got == copy and warning is None, "a pregenerated copy is taken, in place")
got, _ = rewrite.pregenerated(os.path.join(src_dir, "none.cu"), out_dir, "src/none.cu")
check(got == os.path.join(src_dir, "none.cu"), "an unchanged record compiles the original")
expect_error(lambda: rewrite.pregenerated(local_src, out_dir, "ext/splat_backward.cu.missing"),
             "has no copy of", "a missing copy")
with open(local_src, "a") as f:
    f.write("// edited after the rewrite\n")
expect_error(lambda: rewrite.pregenerated(local_src, out_dir, "local/splat_backward.cu"),
             "was rewritten from another version", "a stale copy")
os.remove(local_copy + ".sha256")
_, warning = rewrite.pregenerated(local_src, out_dir, "local/splat_backward.cu")
check(warning is not None and ".sha256 is missing" in warning, "a copy without its hash warns")

tally.finish()
