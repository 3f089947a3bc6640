#!/usr/bin/env bash
# Run 3's A/B of the runtime (kept as run): the tool output built with the
# runtime headers of fc05f68 (old, copied to gen/x5/oldrt) and of the working
# tree (new), then the benchmark run old, new, old, new.
#   gen/x5/ab.sh <out-dir>   (from the repository root on the GPU machine)
set -uo pipefail
root=$PWD; out=$1
mkdir -p /tmp/old && tar --exclude=./build-gpu --exclude=./gen -cf - . | tar -xf - -C /tmp/old
rm -rf /tmp/old/runtime/include && cp -r gen/x5/oldrt /tmp/old/runtime/include
for t in old new; do
  src=$root; [ $t = old ] && src=/tmp/old
  cmake -S $src -B /tmp/b-$t -G Ninja -DCMAKE_BUILD_TYPE=Release -DDISTWAR_BUILD_TOOL=OFF \
    -DDISTWAR_PREGENERATED_DIR=$root/gen/x5 "-DDISTWAR_KERNEL_VARIANTS=auto;floor;serial" \
    -DDISTWAR_KERNEL_STRATEGY_VARIANTS= > $out/cfg-$t.log 2>&1 || { tail $out/cfg-$t.log; exit 1; }
  ninja -C /tmp/b-$t -j16 distwar_bench > $out/build-$t.log 2>&1 || { tail -30 $out/build-$t.log; exit 1; }
done
for i in 1 2; do for t in old new; do
  /tmp/b-$t/bench/distwar_bench --out $out/$t$i.json --reps 7 \
    --cases spheres/small,spheres/large,spheres/large-ortho,texture/magnify,texture/minify > $out/$t$i.log 2>&1
  echo "== $t$i"; python3 gen/x5/show2.py $out/$t$i.json | grep -v "hand-block \|hand-coalesce\|hand-block-warp "
done; done
