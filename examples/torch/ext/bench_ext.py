"""Times the built splat extension's two kernels side by side in this process
(CUDA events, median of interleaved runs) on a 3DGS-sized scene."""
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distwar.torch as dwt  # noqa: E402
import distwar_splat  # noqa: E402
import scene as sc  # noqa: E402

width, height, points, runs = 1920, 1080, 200000, 50
s = sc.make_scene(width, height, points, seed=7)
outs = {k: [torch.zeros_like(b) for b in s.base] for k in ("plain", "distwar")}
kernels = {"plain": distwar_splat.backward_plain, "distwar": distwar_splat.backward}
times = {k: [] for k in kernels}
# Warm-up; the rewritten kernel's launches settle on a threshold meanwhile
# (they tune themselves: a few hundred launches).
for _ in range(300):
    for k, f in kernels.items():
        sc.run(f, s, outs[k])
torch.cuda.synchronize()
for _ in range(runs):
    for k, f in kernels.items():
        for o in outs[k]:
            o.zero_()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        sc.run(f, s, outs[k])
        stop.record()
        stop.synchronize()
        times[k].append(start.elapsed_time(stop))
plain, dw = statistics.median(times["plain"]), statistics.median(times["distwar"])
report = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build", "bench-report.jsonl")
os.makedirs(os.path.dirname(report), exist_ok=True)
dwt.write_report(distwar_splat, report)
print("distwar report:", dwt.read_report(report))
print("splat backward %dx%d, %d Gaussians, %d list entries, %s, median of %d: "
      "plain %.3f ms, distwar %.3f ms, speedup %.2fx"
      % (width, height, points, s.entries, torch.cuda.get_device_name(), runs,
         plain, dw, plain / dw))
