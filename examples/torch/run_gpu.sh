#!/bin/bash
# On the GPU machine (nvcc, PyTorch, ninja; no Clang, no network), one
# command: builds with the distwar package from the copies that
# prepare_gpu.sh rewrote (no tool here), checks and times everything, prints
# a table last.
#   1. the package: pip install python/ (or PYTHONPATH where pip cannot)
#   2. builds, at once: the splat extension (ext/, from <work>/gen-ext), the
#      rasterizer as published (setup.py) and with the one-line change
#      (setup_distwar.py, from <work>/gen-raster)
#   3. ext/test_ext.py (every gradient against float64, also while the
#      launches tune themselves) and ext/bench_ext.py
#   4. train_gaussians.py: plain vs distwar (tuned by its launches) vs distwar
#      at a fixed threshold, trained side by side
#
#   examples/torch/run_gpu.sh <work dir from prepare_gpu.sh> <out dir> [iterations]
#
# DISTWAR_TRAIN_ARGS adds arguments to train_gaussians.py (e.g. `--profile
# 50`: each run's kernel times per iteration, after the training).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
usage="usage: run_gpu.sh <work dir> <out dir> [iterations]"
work=$(cd "${1:?$usage}" && pwd)
mkdir -p "${2:?$usage}"
out=$(cd "$2" && pwd)
iterations=${3:-2000}
export PATH=$PATH:/usr/local/cuda/bin
export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}
export MAX_JOBS=${MAX_JOBS:-$(nproc)}
unset DISTWAR_THRESHOLD DISTWAR_AUTOTUNE DISTWAR_REPORT DISTWAR_REWRITE
summary=$out/summary.txt
: >"$summary"
note() { printf '%-8s %-5s %s\n' "$1" "$([ "$2" -eq 0 ] && echo ok || echo FAIL)" "$3" | tee -a "$summary"; }
start=$(date +%s)
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name())' |
  tee "$out/device.txt"

# 1. The package, as a user installs it.
site=$out/site
rm -rf "$site"
if python3 -m pip install --no-build-isolation --no-deps --target "$site" "$root/python" \
     >"$out/pip.log" 2>&1; then
  note package 0 "pip install python/ ($(python3 -m pip --version | cut -d' ' -f1-2))"
else
  note package 1 "pip install python/ failed ($(tail -1 "$out/pip.log")); PYTHONPATH=python/ instead"
  site=$root/python
fi
export PYTHONPATH=$site

# 2. Builds, side by side.
rm -rf "$out/plain" "$out/distwar" "$out/tiles"
cp -r "$work/rasterizer" "$out/plain"
cp -r "$work/rasterizer" "$out/distwar"
tiles_pid=
if [ -d "$work/rasterizer-tiles" ]; then
  cp -r "$work/rasterizer-tiles" "$out/tiles"
fi
build_start=$(date +%s)
(cd "$here/ext" && DISTWAR_PREGENERATED_DIR=$work/gen-ext \
   python3 setup.py build_ext --inplace --build-temp "$out/build-ext") >"$out/build-ext.log" 2>&1 &
ext_pid=$!
(cd "$out/plain" && python3 setup.py build_ext --inplace) >"$out/build-plain.log" 2>&1 &
plain_pid=$!
(cd "$out/distwar" && DISTWAR_PREGENERATED_DIR=$work/gen-raster \
   python3 setup_distwar.py build_ext --inplace) >"$out/build-distwar.log" 2>&1 &
distwar_pid=$!
if [ -d "$out/tiles" ]; then
  (cd "$out/tiles" && DISTWAR_PREGENERATED_DIR=$work/gen-raster-tiles \
     python3 setup_distwar.py build_ext --inplace) >"$out/build-tiles.log" 2>&1 &
  tiles_pid=$!
fi
wait $ext_pid; ext_rc=$?
wait $plain_pid; plain_rc=$?
wait $distwar_pid; distwar_rc=$?
builds="ext plain distwar"
tiles_args=()
if [ -n "$tiles_pid" ]; then
  wait $tiles_pid; tiles_rc=$?
  builds="$builds tiles"
  [ "$tiles_rc" -eq 0 ] && tiles_args=(--tiles "$out/tiles")
fi
for b in $builds; do
  rc_var=${b}_rc
  if [ "${!rc_var}" -ne 0 ]; then tail -25 "$out/build-$b.log"; fi
  note build "${!rc_var}" "$b: $(grep '^distwar:' "$out/build-$b.log" | tr '\n' ' ')"
done
note build 0 "all of them in $(( $(date +%s) - build_start )) s"

# 3. The splat extension: correctness, then kernel times.
if [ "$ext_rc" -eq 0 ]; then
  (cd "$here/ext" && python3 test_ext.py) >"$out/test-ext.log" 2>&1
  note ext $? "$(grep -E '^[0-9]+ passed' "$out/test-ext.log")"
  (cd "$here/ext" && python3 bench_ext.py) >"$out/bench-ext.log" 2>&1
  note ext $? "$(tail -1 "$out/bench-ext.log")"
fi

# 4. Training, last (its table ends the output).
if [ "$plain_rc" -eq 0 ] && [ "$distwar_rc" -eq 0 ]; then
  python3 "$here/train_gaussians.py" --plain "$out/plain" --distwar "$out/distwar" \
    "${tiles_args[@]}" --out "$out/train" --iterations "$iterations" \
    ${DISTWAR_TRAIN_ARGS:-} >"$out/train.log" 2>&1  # split into words on purpose
  train_rc=$?
  note train "$train_rc" "$(grep -c '' "$out/train/distwar-report.jsonl" 2>/dev/null || echo no) report line(s) written at exit"
else
  train_rc=1
fi
echo "--- $(( $(date +%s) - start )) s in all; logs in $out"
cat "$summary"
echo "--- DISTWAR_REPORT of the tuned run:"
cat "$out/train/distwar-report.jsonl" 2>/dev/null
echo "--- training:"
tail -14 "$out/train.log" 2>/dev/null
! grep -q ' FAIL ' "$summary" && [ "$train_rc" -eq 0 ]
