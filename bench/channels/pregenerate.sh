#!/usr/bin/env bash
# Writes the three variants of test/kernels/Inputs/many_channels.cu that
# `scripts/gpu-check <dir> <out> channels` builds on the GPU machine:
#   bench/channels/pregenerate.sh <distwar-rewrite> <dir>/distwar_channels
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tool=${1:?usage: pregenerate.sh <distwar-rewrite> <out-dir>}
out=${2:?out dir}
mkdir -p "$out"
cp "$root/test/kernels/Inputs/many_channels.cu" "$out/plain.cu"
"$tool" "$out/plain.cu" -o "$out/auto.cu" --
"$tool" "$out/plain.cu" --variant=floor -o "$out/floor.cu" --
