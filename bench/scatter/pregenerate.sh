#!/usr/bin/env bash
# Writes plain.cu and auto.cu of bench/scatter/face_scatter.cu, which
# `scripts/gpu-check <dir> <out> scatter` builds on the GPU machine:
#   bench/scatter/pregenerate.sh <distwar-rewrite> <dir>/distwar_scatter
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tool=${1:?usage: pregenerate.sh <distwar-rewrite> <out-dir>}
out=${2:?out dir}
mkdir -p "$out"
cp "$root/bench/scatter/face_scatter.cu" "$out/plain.cu"
"$tool" "$out/plain.cu" -o "$out/auto.cu" --
