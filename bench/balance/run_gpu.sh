#!/usr/bin/env bash
# On a GPU machine (no Clang needed: nothing here is rewritten): builds the
# load-balanced 3DGS kernels, checks them (the tile queue, every kernel
# against float64 and the original kernels, both under compute-sanitizer on
# the small scenes) and benchmarks them.
#
#   bench/balance/run_gpu.sh <out-dir> [distwar_balance_bench arguments]
#
# With DISTWAR_PREGENERATED_DIR (a folder of tool output from `ninja
# distwar-pregenerate`), the tool's --balance=tiles kernels and the batched
# backward are built, checked (tool-tiles.log) and benchmarked too.
#
# Writes <out-dir>/{device.txt,build.log,tiles.log (the tile queue and the
# variant launcher),balance-test.log,sanitize.log,tile-launch-cost.log,
# bench.log,bench.json,report.jsonl}; exits non-zero when a check fails.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=$(mkdir -p "${1:?output dir}" && cd "$1" && pwd)
shift
build=${DISTWAR_GPU_BUILD_DIR:-$root/build-gpu-balance}
export PATH=$PATH:/usr/local/cuda/bin
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -1
} >"$out/device.txt" 2>&1
pregenerated=()
tool_tests=()
if [ -n "${DISTWAR_PREGENERATED_DIR:-}" ]; then
  pregenerated=(-DDISTWAR_PREGENERATED_DIR="$(cd "$DISTWAR_PREGENERATED_DIR" && pwd)"
                -DDISTWAR_KERNEL_VARIANTS=auto)
  tool_tests=(distwar_tiles_gpu_test)
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DDISTWAR_BUILD_TOOL=OFF "${pregenerated[@]}" >"$out/build.log" 2>&1 &&
  ninja -C "$build" -j"$(nproc)" distwar_tiles_gputest distwar_variant_launch_gputest \
    distwar_balance_gpu_test distwar_balance_bench distwar_tile_launch_cost \
    "${tool_tests[@]}" >>"$out/build.log" 2>&1 ||
  { tail -40 "$out/build.log"; exit 1; }
status=0
if [ ${#tool_tests[@]} -gt 0 ]; then
  "$build/test/gpu/kernels/distwar_tiles_gpu_test" >"$out/tool-tiles.log" 2>&1 || status=1
  echo "tool tiles: $(grep -E 'passed, ' "$out/tool-tiles.log" | tail -1)"
  # Without tuning every launch draws its tiles dynamically: heaviest first
  # where the tool wrote a cost kernel.
  DISTWAR_AUTOTUNE=0 "$build/test/gpu/kernels/distwar_tiles_gpu_test" \
    >"$out/tool-tiles-dynamic.log" 2>&1 || status=1
  echo "tool tiles, dynamic: $(grep -E 'passed, ' "$out/tool-tiles-dynamic.log" | tail -1)"
  DISTWAR_AUTOTUNE=0 "$sanitizer" --tool memcheck --error-exitcode 99 \
    "$build/test/gpu/kernels/distwar_tiles_gpu_test" --small >"$out/tool-tiles-memcheck.log" 2>&1 || status=1
  echo "tool tiles, dynamic, memcheck: $(grep -E 'ERROR SUMMARY' "$out/tool-tiles-memcheck.log")"
fi
"$build/test/gpu/runtime/distwar_tiles_gputest" >"$out/tiles.log" 2>&1 || status=1
"$build/test/gpu/runtime/distwar_variant_launch_gputest" >>"$out/tiles.log" 2>&1 || status=1
echo "tiles, variant launch: $(grep -E 'passed, |FAIL' "$out/tiles.log" | tr '\n' ' ')"
"$build/test/gpu/kernels/distwar_balance_gpu_test" >"$out/balance-test.log" 2>&1 || status=1
grep FAIL "$out/balance-test.log" | head -20
echo "balance: $(tail -1 "$out/balance-test.log")"
: >"$out/sanitize.log"
for tool in memcheck racecheck synccheck; do
  for test in runtime/distwar_tiles_gputest kernels/distwar_balance_gpu_test; do
    "$sanitizer" --tool "$tool" --error-exitcode 99 "$build/test/gpu/$test" --small \
      >"$out/sanitize-run.log" 2>&1
    rc=$?
    echo "$tool ${test##*/}: exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed, ' "$out/sanitize-run.log" | tr '\n' ' ')" |
      tee -a "$out/sanitize.log"
    [ $rc -eq 0 ] || { status=1; head -30 "$out/sanitize-run.log" >>"$out/sanitize.log"; }
  done
done
rm -f "$out/sanitize-run.log"
"$build/bench/balance/distwar_tile_launch_cost" >"$out/tile-launch-cost.log" 2>&1 || status=1
# Re-checks every 100 launches at first, so that the tuned runs' first
# launches (and the switch) hold several; each report line says what it chose.
DISTWAR_AUTOTUNE_INTERVAL=${DISTWAR_AUTOTUNE_INTERVAL:-100} DISTWAR_REPORT="$out/report.jsonl" \
  "$build/bench/balance/distwar_balance_bench" --out "$out/bench.json" "$@" | tee "$out/bench.log"
exit $status
