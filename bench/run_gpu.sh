#!/usr/bin/env bash
# On the GPU machine (no Clang 22): configure with the sources rewritten
# elsewhere, build, run the kernel correctness tests and the benchmark.
#
#   bench/run_gpu.sh <pregenerated-dir> <out-dir> [extra distwar_bench args]
#
# <pregenerated-dir>: the `distwar-pregenerate` output of a build with the
# tool (build/pregenerated), holding distwar_kernels_bwd_<variant>/...
# Writes <out-dir>/{test.log,bench.log,bench.json} and the plots. bench.log ends
# with each variant's kernel resources (registers, spills, occupancy):
# `bench/table.py --resources <out-dir>/bench.json` tabulates them.
# DISTWAR_GPU_CMAKE_ARGS: extra configure arguments (e.g.
# -DDISTWAR_KERNEL_STRATEGY_VARIANTS= to skip the auto_s<n> builds).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pregen=$(cd "${1:?pregenerated dir}" && pwd)
out=$(mkdir -p "${2:?output dir}" && cd "$2" && pwd)
shift 2
build=${DISTWAR_GPU_BUILD_DIR:-$root/build-gpu}
variants=()
for d in "$pregen"/distwar_kernels_bwd_*; do
  [ -d "$d" ] && variants+=("${d##*/distwar_kernels_bwd_}")
done
list=$(IFS=';'; echo "${variants[*]:-}")
echo "pregenerated variants: ${list:-none}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DDISTWAR_BUILD_TOOL=OFF -DDISTWAR_PREGENERATED_DIR="$pregen" \
  "-DDISTWAR_KERNEL_VARIANTS=$list" ${DISTWAR_GPU_CMAKE_ARGS:-} >"$out/configure.log"
ninja -C "$build" -j"$(nproc)" distwar_kernels_gpu_test distwar_bench \
  >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
status=0
"$build/test/gpu/kernels/distwar_kernels_gpu_test" | tee "$out/test.log" || status=$?
"$build/bench/distwar_bench" --out "$out/bench.json" "$@" | tee "$out/bench.log"
if python3 -c "import matplotlib" 2>/dev/null; then
  python3 "$root/bench/plot.py" "$out/bench.json" "$out"
fi
exit $status
