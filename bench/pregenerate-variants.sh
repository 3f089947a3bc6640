#!/usr/bin/env bash
# Writes a self-written benchmark kernel as plain.cu and as the tool writes it
# in each named variant (<variant>.cu), for `scripts/gpu-check` to build on
# the GPU machine:
#   bench/pregenerate-variants.sh <distwar-rewrite> <dir> channels
#     (test/kernels/Inputs/many_channels.cu: auto and floor, in <dir>/distwar_channels)
#   bench/pregenerate-variants.sh <distwar-rewrite> <dir> scatter
#     (bench/scatter/face_scatter.cu: auto, in <dir>/distwar_scatter)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage="usage: pregenerate-variants.sh <distwar-rewrite> <pregenerated-dir> channels|scatter"
tool=${1:?$usage}
dir=${2:?$usage}
case ${3:?$usage} in
channels) input=$root/test/kernels/Inputs/many_channels.cu; variants=(auto floor) ;;
scatter) input=$root/bench/scatter/face_scatter.cu; variants=(auto) ;;
*) echo "$usage" >&2; exit 2 ;;
esac
out=$dir/distwar_$3
mkdir -p "$out"
cp "$input" "$out/plain.cu"
for v in "${variants[@]}"; do
  "$tool" "$out/plain.cu" --variant="$v" -o "$out/$v.cu" --
done
