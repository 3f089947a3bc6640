#!/bin/bash
# On the GPU machine (PyTorch, nvcc, ninja; no distwar-rewrite): builds the
# splat extension from the copies pregenerate.sh wrote, checks both kernels
# against the float64 reference, and times them.
#   run_gpu.sh <pregenerated dir> <out dir>
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gen=$(cd "${1:?usage: run_gpu.sh <pregenerated dir> <out dir>}" && pwd)
mkdir -p "${2:?usage: run_gpu.sh <pregenerated dir> <out dir>}"
out=$(cd "$2" && pwd)
export DISTWAR_PREGENERATED_DIR=$gen
export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}
export MAX_JOBS=${MAX_JOBS:-4}
cd "$here"
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name())'
start=$(date +%s)
if ! python3 setup.py build_ext --inplace >"$out/build.log" 2>&1; then
  tail -40 "$out/build.log"
  echo "run_gpu.sh: build failed (log: $out/build.log)"
  exit 1
fi
echo "built in $(( $(date +%s) - start )) s"
python3 test_ext.py 2>&1 | tee "$out/test.log"
status=${PIPESTATUS[0]}
python3 bench_ext.py 2>&1 | tee "$out/bench.log"
exit "$status"
