"""Checks the built splat extension (python3 setup.py build_ext --inplace
first): the distwar-rewritten kernel and the original plain-atomic kernel,
every gradient field of every Gaussian, against a float64 reference on fresh
random scenes. Gradient tensors start poisoned (random values, NaN for the
Gaussians in no tile list): the kernels must add exactly their sums and leave
the rest untouched. Prints `N passed, N failed`; exits 1 on a failure."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import distwar.torch as dwt  # noqa: E402
import distwar_splat  # noqa: E402
import scene as sc  # noqa: E402

passed, failed = 0, 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAILED:", what)


if not torch.cuda.is_available():
    print("SKIPPED: no CUDA device")
    sys.exit(0)

sites = distwar_splat.site_names()
print("distwar sites:", " ".join(sites))
check(len(sites) > 0, "no distwar site registered: was the rewritten copy built?")

seed = int.from_bytes(os.urandom(4), "little")
print("seed", seed)
# (width, height, points): sizes that are not tile multiples, and a 3DGS-like
# crowd where many lanes of a warp add into the same Gaussian.
for k, (w, h, p) in enumerate([(61, 45, 300), (256, 192, 4000), (1000, 600, 60000)]):
    s = sc.make_scene(w, h, p, seed + k)
    ref, mag = sc.reference(s)
    live = slice(0, p - s.offscreen)
    label = "%dx%d P=%d entries=%d" % (w, h, p, s.entries)
    print("scene %s (%d pixels with a near-threshold pair get dL_dpixel 0)"
          % (label, s.ambiguous_pixels))
    for name, kernel in (("distwar", distwar_splat.backward),
                         ("plain", distwar_splat.backward_plain)):
        out = sc.fresh_outputs(s)
        sc.run(kernel, s, out)
        torch.cuda.synchronize()
        for field, got, base, r, m in zip(sc.FIELDS, out, s.base, ref, mag):
            want = base[live].double() + r[live]
            err = (got[live].double() - want).abs()
            tol = 2e-4 * (m[live] + base[live].double().abs()) + 1e-6
            bad = int((err > tol).sum()) + int((~torch.isfinite(got[live])).sum())
            check(bad == 0, "%s %s %s: %d of %d values off (max error %.3g)"
                  % (label, name, field, bad, err.numel(), err.max().item()))
            check(bool(torch.isnan(got[p - s.offscreen:]).all()),
                  "%s %s %s: gradients of Gaussians in no list were written"
                  % (label, name, field))

# The rewritten kernel's launch tunes its threshold as it runs: 200 more
# launches on one scene, each checked, cover the first search and beyond.
s = sc.make_scene(256, 192, 4000, seed + 7)
ref, mag = sc.reference(s)
live = slice(0, s.points - s.offscreen)
bad_launches = 0
for i in range(200):
    out = sc.fresh_outputs(s)
    sc.run(distwar_splat.backward, s, out)
    torch.cuda.synchronize()
    for got, base, r, m in zip(out, s.base, ref, mag):
        err = (got[live].double() - base[live].double() - r[live]).abs()
        tol = 2e-4 * (m[live] + base[live].double().abs()) + 1e-6
        if bool((err > tol).any()) or not bool(torch.isfinite(got[live]).all()):
            bad_launches += 1
            break
check(bad_launches == 0, "%d of 200 launches off while the threshold is tuned" % bad_launches)
report = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build", "test-report.jsonl")
os.makedirs(os.path.dirname(report), exist_ok=True)
dwt.write_report(distwar_splat, report)
sites = dwt.read_report(report)
print("distwar report:", sites)
check(len(sites) == 1 and sites[0]["calls"] >= 203 and sites[0]["how"] in ("tuned", "searching"),
      "the launches are counted and tuned: %s" % sites)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
