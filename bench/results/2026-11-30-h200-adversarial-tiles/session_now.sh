#!/bin/bash
# This stop's GPU checks: the tool's and runtime's tile tests, the
# adversarial set, the runtime tile test under the sanitizers.
set -uo pipefail
export PATH=$PATH:/usr/local/cuda/bin
res=$OUT/res; mkdir -p $res
start=$(date +%s)
( OUT=$res bash gpu-work/adv-tiles/run.sh > $res/adv.log 2>&1 ) &
advpid=$!
bash gpu-work/quick_now.sh > $res/quick.log 2>&1
cat $res/quick.log
b=/tmp/qb
$b/test/gpu/runtime/distwar_tiles_gputest > $res/tiles-runtime-full.log 2>&1; echo "tiles runtime rc=$?"
grep -E "FAIL|passed|reuse" $res/tiles-runtime-full.log | tail -8
for t in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $t --error-exitcode 99 $b/test/gpu/runtime/distwar_tiles_gputest --small > $res/san-$t.log 2>&1
  echo "sanitize $t rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $res/san-$t.log | tail -1) $(tail -1 $res/san-$t.log)"
done
wait $advpid
tail -60 $res/adv.log
echo "total $(( $(date +%s) - start )) s"
tar czf $OUT/results.tgz -C $res .
