#!/usr/bin/env bash
# Runs the runtime GPU tests under compute-sanitizer racecheck and synccheck,
# and the block strategy's test (shared-memory tables, indexed by keys) and
# the strips' (register arrays halved lane by lane) and the tile queue's
# under memcheck too. The reduction tests run with --small: the sanitizers are
# slow per launch.
# Usage: sanitize.sh <build dir> [log dir]
set -u
build=${1:?usage: sanitize.sh <build dir> [log dir]}
logs=${2:-.}
bin=$build/test/gpu/runtime
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
status=0
# One line per test: the tools, then the command.
runs=(
  "racecheck,synccheck distwar_reduce_gputest --small"
  "racecheck,synccheck distwar_sites_gputest"
  "memcheck,racecheck,synccheck distwar_block_reduce_gputest --small"
  "memcheck,racecheck,synccheck distwar_strip_gputest --small"
  "memcheck,racecheck,synccheck distwar_tiles_gputest --small"
)
for entry in "${runs[@]}"; do
  read -r tools run <<<"$entry"
  for tool in ${tools//,/ }; do
    set -- $run
    log=$logs/sanitize-$tool-$1.log
    "$sanitizer" --tool "$tool" --error-exitcode 99 "$bin/$1" "${@:2}" >"$log" 2>&1
    rc=$?
    echo "$tool $run: exit $rc; $(grep -E 'ERROR SUMMARY|passed, ' "$log" | tr '\n' ' ')"
    [ $rc -eq 0 ] || status=1
  done
done
exit $status
