#!/bin/bash
# Rewrites splat_backward.cu with distwar-rewrite into <dir>, in the layout
# that distwar_torch.rewrite_sources(pregenerated_dir=<dir>) reads (paths
# relative to this folder), with the tool's report next to it. Run it where
# the tool is built; carry <dir> to the GPU machine for run_gpu.sh.
#   pregenerate.sh <dir> [path to distwar-rewrite] [variant]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: pregenerate.sh <dir> [distwar-rewrite] [variant]}
tool=${2:-${DISTWAR_REWRITE:-$(command -v distwar-rewrite || true)}}
variant=${3:-${DISTWAR_VARIANT:-auto}}
[ -x "$tool" ] || { echo "pregenerate.sh: no distwar-rewrite (argument 2, \$DISTWAR_REWRITE or PATH)" >&2; exit 1; }
mkdir -p "$dir"
# The same command line as distwar_torch.rewrite_sources, plus the report.
"$tool" "$here/splat_backward.cu" -o "$dir/splat_backward.cu" \
  --variant="$variant" --cuda-gpu-arch=sm_90 \
  --report --report-file="$dir/splat_backward.report.txt" -- -I"$here"
echo "wrote $dir/splat_backward.cu (variant $variant); report:"
cat "$dir/splat_backward.report.txt"
