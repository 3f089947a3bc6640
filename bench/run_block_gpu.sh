#!/usr/bin/env bash
# Block-level accumulation on a GPU machine, in one go: what shared-memory
# atomics compile to (SASS), registers and shared memory per kernel, the
# table's unit test, the kernel correctness test (every variant), the
# benchmark of the per-lane-key cases, then compute-sanitizer memcheck,
# racecheck and synccheck on the unit test and the kernel test (--small).
#
#   bench/run_block_gpu.sh <bin-dir> <out-dir> [cases]
#
# <bin-dir> holds distwar_bench, distwar_kernels_gpu_test and
# distwar_block_accumulate_gputest, built on a machine with nvcc from a build
# configured with -DDISTWAR_PREGENERATED_DIR (bench/RESULTS.md gives the
# command). Where they do not run here, set DISTWAR_PREGENERATED=<dir> to
# build them here instead. Writes at most eight files to <out-dir>: summary,
# device, test and bench logs, bench.json, and logs.tgz with the rest.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$(cd "${1:?usage: run_block_gpu.sh <bin-dir> <out-dir> [cases]}" && pwd)
out=$(mkdir -p "${2:?out dir}" && cd "$2" && pwd)
cases=${3:-spheres/small,spheres/large,spheres/large-ortho,diffuse/diffuse-16,diffuse/diffuse-32,specular/specular-32,specular/specular-64,texture/magnify,texture/minify}
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
logs=$out/logs
mkdir -p "$logs"
summary=$out/summary.txt
: >"$summary"
start=$SECONDS
deadline=${DISTWAR_DEADLINE_S:-560}

note() { printf '%-10s %-5s %s\n' "$1" "$([ "$2" -eq 0 ] && echo ok || echo FAIL)" "$3" | tee -a "$summary"; }
last_line() { grep -E "$2" "$1" 2>/dev/null | tail -1; }
time_left() { echo $((deadline - (SECONDS - start))); }

{
  date -u '+%Y-%m-%d %H:%M UTC'
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -1
} >"$out/device.txt" 2>&1

# The carried binaries, or a build here.
if ldd "$bin/distwar_bench" | grep -q 'not found'; then
  pregen=${DISTWAR_PREGENERATED:?binaries do not run here; set DISTWAR_PREGENERATED}
  build=$root/build-gpu
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DDISTWAR_BUILD_TOOL=OFF -DDISTWAR_PREGENERATED_DIR="$pregen" \
    "-DDISTWAR_KERNEL_VARIANTS=auto;floor" -DDISTWAR_KERNEL_STRATEGY_VARIANTS= \
    >"$logs/configure.log" 2>&1 &&
    ninja -C "$build" distwar_bench distwar_kernels_gpu_test \
      distwar_block_accumulate_gputest >"$logs/build.log" 2>&1
  note build $? "built here in $((SECONDS - start)) s"
  bin=$logs/bin
  mkdir -p "$bin"
  cp "$build/bench/distwar_bench" "$build/test/gpu/kernels/distwar_kernels_gpu_test" \
    "$build/test/gpu/runtime/distwar_block_accumulate_gputest" "$bin/"
fi

# SASS: the shared-memory atomics alone, then their count per kernel.
nvcc -arch=sm_90 -cubin -o "$logs/probe.cubin" "$root/bench/shared_atomics_sass.cu" &&
  cuobjdump -sass "$logs/probe.cubin" >"$logs/sass-probe.txt"
note sass $? "$(grep -oE '(ATOMS|REDG|ATOMG)[.A-Z0-9]*' "$logs/sass-probe.txt" | sort | uniq -c | tr -s ' \n' ' ')"
cuobjdump -sass "$bin/distwar_bench" | awk '
  /Function :/ { f = $3 }
  /ATOMS|REDG|ATOMG|MATCH/ { for (i = 1; i <= NF; ++i) if ($i ~ /^(ATOMS|REDG|ATOMG|MATCH)/) n[f " " $i]++ }
  END { for (k in n) print n[k], k }' | sort -k2 >"$logs/sass-kernels.txt"
cuobjdump -res-usage "$bin/distwar_bench" >"$logs/res-usage.txt" 2>&1
note sass 0 "$(wc -l <"$logs/sass-kernels.txt") kernel/opcode pairs; resource usage of $(grep -c Function "$logs/res-usage.txt") kernels"

"$bin/distwar_block_accumulate_gputest" >"$logs/unit.log" 2>&1
note unit $? "$(last_line "$logs/unit.log" 'passed, ')"
"$bin/distwar_kernels_gpu_test" >"$out/test.log" 2>&1
note kernels $? "$(last_line "$out/test.log" 'passed, ') ($(grep -c FAIL "$out/test.log") FAIL lines)"
"$bin/distwar_bench" --out "$out/bench.json" --reps "${DISTWAR_BENCH_REPS:-7}" \
  --cases "$cases" >"$out/bench.log" 2>&1
note bench $? "$(grep -c . "$out/bench.log") lines, $((SECONDS - start)) s so far"

for tool in memcheck racecheck synccheck; do
  for run in "distwar_block_accumulate_gputest --small" "distwar_kernels_gpu_test --small"; do
    set -- $run
    left=$(time_left)
    if ((left < 20)); then
      note sanitize 1 "$tool $1: skipped (time)"
      continue
    fi
    log=$logs/sanitize-$tool-$1.log
    timeout -k 5 "$left" "$sanitizer" --tool "$tool" --error-exitcode 99 \
      "$bin/$1" "${@:2}" >"$log" 2>&1
    note sanitize $? "$tool $1: $(last_line "$log" 'ERROR SUMMARY|RACECHECK SUMMARY') $(last_line "$log" 'passed, ')"
  done
done

note total 0 "$((SECONDS - start)) s"
tar -C "$out" -czf "$out/logs.tgz" logs && rm -rf "$logs"
! grep -q ' FAIL ' "$summary"
