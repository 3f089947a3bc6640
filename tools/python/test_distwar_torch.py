"""Checks distwar_torch on examples/consumer/splat.cu and the PyTorch example's
examples/torch/ext/splat_backward.cu with the real tool:
  python3 test_distwar_torch.py <path to distwar-rewrite> <scratch dir>"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distwar_torch  # noqa: E402

tool, scratch = sys.argv[1], sys.argv[2]
root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
src = os.path.join(root, "examples", "consumer", "splat.cu")
src_args = ["-I" + os.path.join(root, "examples", "consumer", "include")]
out_dir = os.path.join(scratch, "rewritten")
failures = []

paths = distwar_torch.rewrite_sources(["host.cpp", src], out_dir, variant="serial",
                                      tool=tool, base_dir=root, gpu_arch="sm_90",
                                      extra_args=src_args)
if paths[0] != "host.cpp":
    failures.append("non-.cu source changed: %r" % paths[0])
out = paths[1]
if not out.startswith(out_dir) or not os.path.isfile(out):
    failures.append("no rewritten copy at %r" % out)
else:
    text = open(out).read()
    if "#include <distwar/runtime.cuh>" not in text or "DISTWAR_SITES" not in text:
        failures.append("copy lacks the distwar prologue")
    stamp = os.path.getmtime(out)
    time.sleep(1.1)
    distwar_torch.rewrite_sources([src], out_dir, variant="serial", tool=tool,
                                  base_dir=root, gpu_arch="sm_90",
                                  extra_args=src_args)
    if os.path.getmtime(out) != stamp:
        failures.append("an up-to-date copy was rewritten again")
    # Another variant is another command line: the copy is made again.
    distwar_torch.rewrite_sources([src], out_dir, variant="floor", tool=tool,
                                  base_dir=root, gpu_arch="sm_90",
                                  extra_args=src_args)
    if os.path.getmtime(out) == stamp or "floorAdd" not in open(out).read():
        failures.append("a copy made with another variant was reused")
if os.path.join(root, "runtime", "include") not in distwar_torch.include_dirs([src]):
    failures.append("include_dirs() lacks runtime/include")
try:
    distwar_torch.rewrite_sources([src], out_dir, variant="fast", tool=tool)
    failures.append("a bad variant was accepted")
except ValueError:
    pass

# The PyTorch example: every atomicAdd of its 3DGS-like loop is batched, and
# a build without the tool takes the same copy from a pregenerated folder.
ext_dir = os.path.join(root, "examples", "torch", "ext")
ext_src = os.path.join(ext_dir, "splat_backward.cu")
gen_dir = os.path.join(scratch, "pregenerated")
ext_out = distwar_torch.rewrite_sources([ext_src], gen_dir, tool=tool, base_dir=ext_dir,
                                        gpu_arch="sm_90")[0]
ext_text = open(ext_out).read()
# One values-only batch whose addresses are rebuilt from the key after the
# reduction (docs/GENERATED_CODE.md, deferred addresses).
if ("atomicAdd(" in ext_text
        or "::distwar::Fields<float, SPLAT_CHANNELS + 6, ::distwar::AlwaysSet<0, SPLAT_CHANNELS + 6>>" not in ext_text
        or "[&](int distwar_slot)" not in ext_text):
    failures.append("splat_backward.cu: not every atomicAdd went into one batch")
real_find_tool = distwar_torch.find_tool
distwar_torch.find_tool = lambda tool=None: None
try:
    copied = distwar_torch.rewrite_sources([ext_src], os.path.join(scratch, "from-gen"),
                                           base_dir=ext_dir, pregenerated_dir=gen_dir)[0]
    if open(copied).read() != ext_text:
        failures.append("pregenerated_dir: the copy differs from the pregenerated file")
except (OSError, RuntimeError) as e:
    failures.append("pregenerated_dir: %s" % e)
finally:
    distwar_torch.find_tool = real_find_tool

for f in failures:
    print("FAILED:", f)
print("%d passed, %d failed" % (7 - len(failures), len(failures)))
sys.exit(1 if failures else 0)
