#!/bin/bash
# A GPU check of --balance=tiles on kernels of edited headers
# (test/balance/Inputs/headers): the plain render() and the rewritten one,
# each linked alone with HeadersCheck.cu, run on the same seeded inputs;
# every output buffer of the rewritten build against the plain one's.
#
#   here:  test/gpu/balance_headers/run.sh --rewrite <dir>   (needs the tool)
#   there: <dir>/run.sh                                        (needs nvcc, a GPU)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [ "${1:-}" = "--rewrite" ]; then
  work=$(mkdir -p "$2" && cd "$2" && pwd)
  tool=${DISTWAR_REWRITE:-$root/build/tools/distwar-rewrite/distwar-rewrite}
  rm -rf "$work/in" "$work/out"
  cp -r "$root/test/balance/Inputs/headers" "$work/in"
  cp "$here/HeadersCheck.cu" "$0" "$work/"
  cp -r "$root/runtime/include" "$work/runtime"
  "$tool" --balance=tiles "$work/in/src/render.cu" -o "$work/out/render.cu" \
    --edit-headers="$work/in/include" --header-output-dir="$work/out/hdr" \
    -- -I"$work/in/include" -I"$work/in/vendor"
  exit 0
fi
cd "$here"
export PATH=$PATH:/usr/local/cuda/bin
nvcc -std=c++17 -arch=sm_90 -O2 -Iin/include -Iin/vendor in/src/render.cu \
  HeadersCheck.cu -o plain
nvcc -std=c++17 -arch=sm_90 -O2 -Iruntime -Iout/hdr -Iin/include -Iin/vendor \
  out/render.cu HeadersCheck.cu -o balanced
./plain plain.bin && ./balanced balanced.bin plain.bin
