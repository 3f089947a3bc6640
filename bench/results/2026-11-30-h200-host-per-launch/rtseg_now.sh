#!/bin/bash
set -uo pipefail
root=$PWD; out=$1; mkdir -p $out
export PATH=$PATH:/usr/local/cuda/bin
start=$(date +%s)
python3 gpu-work/rtseg_patch.py
site=$out/site
python3 -m pip install --no-build-isolation --no-deps --target $site $root/python >$out/pip.log 2>&1 || site=$root/python
export PYTHONPATH=$site
grep -rl "distwar_seg" $site | head -3
w=/tmp/rtw; rm -rf $w; mkdir -p $w
cp -r gpu-work/rasterizer $w/plain; cp -r gpu-work/rasterizer $w/distwar; cp -r gpu-work/rasterizer-tiles $w/tiles
(cd $w/plain && python3 setup.py build_ext --inplace) >$w/build-plain.log 2>&1 &
(cd $w/distwar && DISTWAR_PREGENERATED_DIR=$root/gpu-work/gen-raster python3 setup_distwar.py build_ext --inplace) >$w/build-distwar.log 2>&1 &
(cd $w/tiles && DISTWAR_PREGENERATED_DIR=$root/gpu-work/gen-raster-tiles python3 setup_distwar.py build_ext --inplace) >$w/build-tiles.log 2>&1 &
wait
for x in plain distwar tiles; do grep -q " error" $w/build-$x.log && { echo "build $x failed"; grep " error" $w/build-$x.log | head -5; }; done
echo "builds done $(( $(date +%s) - start )) s"
python3 examples/torch/train_gaussians.py --plain $w/plain --distwar $w/distwar --tiles $w/tiles --out $w/train --iterations 400 >$w/train.log 2>&1
echo "train rc=$? $(( $(date +%s) - start )) s"; grep -E "RTSEG|tiles against" $w/train.log | sort -k2,2 -k3,3
