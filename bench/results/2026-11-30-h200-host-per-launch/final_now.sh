#!/bin/bash
# After the host-time changes: every tiles check (run_gpu.sh), training
# (uniform and clustered, unpatched builds), then the host time per
# statement (patched builds).
set -uo pipefail
root=$PWD; res=$1; mkdir -p $res; out=/tmp/fw; rm -rf $out; mkdir -p $out
export PATH=$PATH:/usr/local/cuda/bin
start=$(date +%s)
site=$out/site
python3 -m pip install --no-build-isolation --no-deps --target $site $root/python >$out/pip.log 2>&1 || site=$root/python
export PYTHONPATH=$site
S=gpu-work/segtime_patch.py; H=gpu-work/hosttime_patch.py
mkdir -p $out/seg
cp -r gpu-work/gen-raster gpu-work/gen-raster-tiles $out/seg/
b=$out/seg/gen-raster/diff_gaussian_rasterization._C/cuda_rasterizer; t=$out/seg/gen-raster-tiles/diff_gaussian_rasterization._C/cuda_rasterizer
python3 $S $b/backward.cu BACKWARD distwar "begin|distwar_ticket0 = |;" "launch|renderCUDA<NUM_CHANNELS><< <|dL_dcolors);"
python3 $S $t/backward.cu BACKWARD tiles "begin|distwar_ticket0 = |;" "tileLaunch|const ::distwar::TileLaunch distwar_launch0|true);" "launch|distwar_kernel0<< <|);"
python3 $S $t/forward.cu FORWARD tiles "tileLaunch|const ::distwar::TileLaunch distwar_launch0|true);" "costs|distwar_tile_costs_renderCUDA<NUM_CHANNELS>|distwar_launch0_arg10);" "launch|distwar_kernel0<< <|);"
python3 $H $b/backward.cu BACKWARD distwar; python3 $H $t/backward.cu BACKWARD tiles; python3 $H $t/forward.cu FORWARD tiles
for x in plain distwar; do cp -r gpu-work/rasterizer $out/$x; cp -r gpu-work/rasterizer $out/seg/$x; done
cp -r gpu-work/rasterizer-tiles $out/tiles; cp -r gpu-work/rasterizer-tiles $out/seg/tiles
python3 $S $out/seg/plain/cuda_rasterizer/backward.cu BACKWARD plain "launch|renderCUDA<NUM_CHANNELS> << <|);"
python3 $H $out/seg/plain/cuda_rasterizer/forward.cu FORWARD plain; python3 $H $out/seg/plain/cuda_rasterizer/backward.cu BACKWARD plain
python3 $H $out/seg/distwar/cuda_rasterizer/forward.cu FORWARD distwar
export MAX_JOBS=3
(cd $out/plain && python3 setup.py build_ext --inplace) >$out/build-plain.log 2>&1 &
(cd $out/distwar && DISTWAR_PREGENERATED_DIR=$root/gpu-work/gen-raster python3 setup_distwar.py build_ext --inplace) >$out/build-distwar.log 2>&1 &
(cd $out/tiles && DISTWAR_PREGENERATED_DIR=$root/gpu-work/gen-raster-tiles python3 setup_distwar.py build_ext --inplace) >$out/build-tiles.log 2>&1 &
(cd $out/seg/plain && python3 setup.py build_ext --inplace) >$out/build-seg-plain.log 2>&1 &
(cd $out/seg/distwar && DISTWAR_PREGENERATED_DIR=$out/seg/gen-raster python3 setup_distwar.py build_ext --inplace) >$out/build-seg-distwar.log 2>&1 &
(cd $out/seg/tiles && DISTWAR_PREGENERATED_DIR=$out/seg/gen-raster-tiles python3 setup_distwar.py build_ext --inplace) >$out/build-seg-tiles.log 2>&1 &
DISTWAR_PREGENERATED_DIR=gen bash bench/balance/run_gpu.sh $res/bal --reps 9 > $res/bal.txt 2>&1; echo "balance rc=$? $(( $(date +%s) - start )) s"
grep -E "^(tool tiles|tiles, variant|balance:|memcheck|racecheck|synccheck)" $res/bal.txt | cut -c1-300
grep -iE "tileLaunch|plain launch|us" $res/bal/tile-launch-cost.log | head -8
wait
for x in plain distwar tiles seg-plain seg-distwar seg-tiles; do grep -q " error" $out/build-$x.log && { echo "build $x failed"; tail -5 $out/build-$x.log; }; done
echo "builds done $(( $(date +%s) - start )) s"
for args in "" "--clustered 0.5"; do
  tag=$( [ -z "$args" ] && echo uniform || echo clustered )
  python3 examples/torch/train_gaussians.py --plain $out/plain --distwar $out/distwar --tiles $out/tiles --out $out/train-$tag --iterations ${ITERS:-1000} $args >$res/train-$tag.log 2>&1; cp $out/train-$tag/train.json $res/train-$tag.json
  echo "train $tag rc=$? $(( $(date +%s) - start )) s"; grep -E "tiles against|per iteration|host ms|identical|^\| " $res/train-$tag.log | head -16
done
python3 examples/torch/train_gaussians.py --plain $out/seg/plain --distwar $out/seg/distwar --tiles $out/seg/tiles --out $out/train-seg --iterations 400 >$res/train-seg.log 2>&1
echo "train seg rc=$? $(( $(date +%s) - start )) s"; grep -E "SEGTIME|HOSTTIME|tiles against" $res/train-seg.log
tar czf $(dirname $res)/results.tgz -C $res . && rm -rf $res
