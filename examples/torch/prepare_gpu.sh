#!/bin/bash
# Where distwar-rewrite is built (Clang 22): prepares what the GPU machine
# (nvcc, PyTorch, no Clang, no network) builds and trains with, in one folder
# to carry there (examples/torch/run_gpu.sh reads it):
#   <work>/gen-ext        the splat extension's rewritten copies
#   <work>/rasterizer     a copy of diff-gaussian-rasterization with glm in
#                         third_party/glm, and setup_distwar.py: its setup.py
#                         with the one-line change
#   <work>/gen-raster     its rewritten copies (backward.cu)
#   <work>/rasterizer-tiles  the same with a .distwar.yaml asking for
#                         `Balance: tiles`, and <work>/gen-raster-tiles its
#                         copies (forward.cu and backward.cu balanced)
# Both are made by the package's BuildExtension (--distwar-pregenerate), as a
# user would, with the same flags as the build there; nothing is compiled.
#
#   examples/torch/prepare_gpu.sh <diff-gaussian-rasterization checkout> <work>
#
# Needs: a Python with torch (default: the venv the python.torch_build test
# keeps in build/, else $PYTHON), the tool (default build/tools/...,
# else $DISTWAR_REWRITE), glm headers (apt-get install -y libglm-dev).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage="usage: prepare_gpu.sh <diff-gaussian-rasterization checkout> <work dir>"
src=$(cd "${1:?$usage}" && pwd)
work=${2:?$usage}
py=${PYTHON:-$root/build/test/python/torch/venv/bin/python}
tool=${DISTWAR_REWRITE:-$root/build/tools/distwar-rewrite/distwar-rewrite}
glm=${GLM_INCLUDE:-/usr/include/glm}
[ -x "$py" ] && "$py" -c 'import torch.utils.cpp_extension' 2>/dev/null ||
  { echo "prepare_gpu.sh: no Python with torch at $py (run ctest -R python.torch_build once, or set PYTHON)" >&2; exit 1; }
[ -x "$tool" ] || { echo "prepare_gpu.sh: no distwar-rewrite at $tool (scripts/bootstrap, or set DISTWAR_REWRITE)" >&2; exit 1; }
[ -f "$glm/glm.hpp" ] || { echo "prepare_gpu.sh: no glm headers at $glm (apt-get install -y libglm-dev, or set GLM_INCLUDE)" >&2; exit 1; }
[ -f "$src/setup.py" ] && [ -f "$src/cuda_rasterizer/backward.cu" ] ||
  { echo "prepare_gpu.sh: $src is not a diff-gaussian-rasterization checkout" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
export PYTHONPATH=$root/python DISTWAR_REWRITE=$tool TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}
tmp=$work/.build
trap 'rm -rf "$tmp"' EXIT

# The project's extension.
(cd "$here/ext" && "$py" setup.py build_ext --distwar-pregenerate "$work/gen-ext" \
   --build-temp "$tmp/ext") | grep '^distwar:'

# The rasterizer: its files, glm, and setup.py with the one-line change.
ras=$work/rasterizer
mkdir -p "$ras"
(cd "$src" && tar --exclude=.git -cf - .) | (cd "$ras" && tar -xf -)
mkdir -p "$ras/third_party/glm"
cp -r "$glm" "$ras/third_party/glm/glm"
# The published rasterizer uses uint32_t and std::uintptr_t without
# <cstdint>; newer GCC (CUDA 13's host compiler) needs the include, as its
# users add it. Both builds get it alike.
sed -i '1i #include <cstdint>' "$ras/cuda_rasterizer/rasterizer_impl.h"
sed -E 's/^(from torch\.utils\.cpp_extension import .*BuildExtension.*)$/\1\nfrom distwar.torch import BuildExtension/' \
  "$ras/setup.py" >"$ras/setup_distwar.py"
grep -q '^from distwar.torch import BuildExtension$' "$ras/setup_distwar.py" ||
  { echo "prepare_gpu.sh: setup.py has no torch BuildExtension import to follow" >&2; exit 1; }
echo "setup_distwar.py, the one-line change:"
diff "$ras/setup.py" "$ras/setup_distwar.py" || true
(cd "$ras" && "$py" setup_distwar.py build_ext --distwar-pregenerate "$work/gen-raster" \
   --build-temp "$tmp/raster") | grep '^distwar:'
rm -rf "$ras/build" "$ras"/*.egg-info
# The same, its render kernels also balanced across tiles.
cp -r "$ras" "$work/rasterizer-tiles"
printf 'Balance: tiles\n' >"$work/rasterizer-tiles/.distwar.yaml"
(cd "$work/rasterizer-tiles" && "$py" setup_distwar.py build_ext --distwar-pregenerate \
   "$work/gen-raster-tiles" --build-temp "$tmp/raster-tiles") | grep '^distwar:'
rm -rf "$work/rasterizer-tiles/build" "$work/rasterizer-tiles"/*.egg-info
echo "prepared $work ($(du -sh "$work" | cut -f1)); on the GPU machine:"
echo "  examples/torch/run_gpu.sh $work <out dir>"
