"""Fits 3D Gaussians to synthetic images with a 3DGS rasterizer
(diff-gaussian-rasterization's Python API) and Adam, once with its plain
build and three times with its distwar build, in one process, iteration by
iteration (side by side on the GPU, each run in every place and after every
other run equally often):

  plain      the rasterizer as published
  distwar    the one-line setup.py change; thresholds tuned by the launches
             themselves (nothing set)
  fixed      the same build, DISTWAR_THRESHOLD set to the threshold a short
             tuned run settled on first (what tuning should match)
  control    a second copy of `fixed`: how much two identical builds differ
             in this process (the noise floor of the overhead figure)
  tiles      (with --tiles) the distwar build with `Balance: tiles` in its
             .distwar.yaml: the forward and backward render kernels also
             balanced across tiles (docs/BALANCING.md), tuned by their
             launches; before training, its image and gradients are compared
             with the plain build's, against the plain build's own
             run-to-run spread

    train_gaussians.py --plain DIR --distwar DIR [--tiles DIR] --out DIR
                       [--iterations N]

DIR: a folder holding the built package diff_gaussian_rasterization/ (with
its _C extension, `setup.py build_ext --inplace`). The scene: `--gt` random
Gaussians in a unit ball rendered from cameras on a sphere (train and test
views); the model starts from `--points` other random Gaussians. With
`--clustered F`, a share F of both in a small ball inside it. Writes
<out>/train.json (per-iteration times, PSNR), the distwar run's report
(<out>/distwar-report.jsonl: DISTWAR_REPORT, written at exit) and prints a
table last."""
import argparse
import contextlib
import importlib.util
import json
import math
import os
import shutil
import statistics
import sys
import time

import torch

import distwar.torch as dwt


def load_rasterizer(folder, alias, env=None):
    """Imports <folder>/diff_gaussian_rasterization as `alias`, with `env`
    set while its extension loads (the distwar runtime reads DISTWAR_* when
    its site tables register)."""
    package = os.path.join(folder, "diff_gaussian_rasterization")
    spec = importlib.util.spec_from_file_location(
        alias, os.path.join(package, "__init__.py"), submodule_search_locations=[package])
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    saved = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    try:
        spec.loader.exec_module(module)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return module


def copy_package(folder, to):
    """A second copy of a built package: its extension loads as another
    shared object, with a registry (and environment) of its own."""
    shutil.rmtree(to, ignore_errors=True)
    shutil.copytree(os.path.join(folder, "diff_gaussian_rasterization"),
                    os.path.join(to, "diff_gaussian_rasterization"))
    return to


class Camera:
    """OpenCV-style camera (x right, y down, z forward) at `eye` looking at
    the origin, in the rasterizer's conventions (row-vector matrices)."""

    def __init__(self, eye, size, fov, device):
        eye = torch.tensor(eye, dtype=torch.float32)
        forward = -eye / eye.norm()
        up = torch.tensor([0.0, 0.0, 1.0])
        right = torch.linalg.cross(forward, up)
        right = right / right.norm()
        down = torch.linalg.cross(forward, right)
        world_to_camera = torch.eye(4)
        world_to_camera[:3, :3] = torch.stack([right, down, forward])
        world_to_camera[:3, 3] = -world_to_camera[:3, :3] @ eye
        near, far = 0.01, 100.0
        self.tan_half = math.tan(fov / 2)
        top = self.tan_half * near
        proj = torch.zeros(4, 4)
        proj[0, 0] = proj[1, 1] = near / top
        proj[2, 2] = far / (far - near)
        proj[2, 3] = -far * near / (far - near)
        proj[3, 2] = 1.0
        self.size = size
        self.view = world_to_camera.t().contiguous().to(device)
        self.proj = (proj @ world_to_camera).t().contiguous().to(device)
        self.eye = eye.to(device)


def cameras(count, size, device, seed, radius=3.2, fov=math.radians(50)):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(count):
        # Away from the poles, where `up` would be the viewing direction.
        z = 1.8 * torch.rand(1, generator=g).item() - 0.9
        phi = 2 * math.pi * torch.rand(1, generator=g).item()
        r = math.sqrt(1 - z * z)
        out.append(Camera([radius * r * math.cos(phi), radius * r * math.sin(phi),
                           radius * z], size, fov, device))
    return out


# Where a clustered scene's dense part lies, and its radius.
CLUSTER_CENTRE = (0.35, -0.2, 0.1)
CLUSTER_RADIUS = 0.15


def random_gaussians(count, seed, device, scale, opacity, clustered=0.0):
    """Parameters (before activation) of `count` Gaussians in the unit ball;
    a share `clustered` of them in a small ball inside it (as a captured scene
    has dense detail in places): some tiles' lists many times the others'."""
    g = torch.Generator().manual_seed(seed)
    direction = torch.randn(count, 3, generator=g)
    direction = direction / direction.norm(dim=1, keepdim=True)
    xyz = direction * torch.rand(count, 1, generator=g) ** (1 / 3)
    dense = int(count * clustered)
    xyz[:dense] = torch.tensor(CLUSTER_CENTRE) + CLUSTER_RADIUS * xyz[:dense]
    params = {
        "xyz": xyz,
        "dc": (torch.rand(count, 1, 3, generator=g) - 0.5) * 3.0,
        "scaling": torch.log(scale * (0.5 + torch.rand(count, 3, generator=g))),
        "rotation": torch.randn(count, 4, generator=g),
        "opacity": torch.logit(torch.full((count, 1), opacity)),
    }
    return {k: v.to(device).contiguous() for k, v in params.items()}


def render(module, params, camera):
    size = camera.size
    settings = module.GaussianRasterizationSettings(
        image_height=size, image_width=size, tanfovx=camera.tan_half,
        tanfovy=camera.tan_half, bg=torch.zeros(3, device=params["xyz"].device),
        scale_modifier=1.0, viewmatrix=camera.view, projmatrix=camera.proj, sh_degree=0,
        campos=camera.eye, prefiltered=False, debug=False)
    screen = torch.zeros_like(params["xyz"], requires_grad=True)
    image, _ = module.GaussianRasterizer(settings)(
        means3D=params["xyz"], means2D=screen, shs=params["dc"], colors_precomp=None,
        opacities=torch.sigmoid(params["opacity"]), scales=torch.exp(params["scaling"]),
        rotations=torch.nn.functional.normalize(params["rotation"]), cov3D_precomp=None)
    return image


def psnr(a, b):
    mse = ((a.clamp(0, 1) - b.clamp(0, 1)) ** 2).mean().item()
    return -10 * math.log10(max(mse, 1e-12))


class Run:
    """One training: its rasterizer, parameters, optimiser and times."""
    LR = {"xyz": 1.6e-4, "dc": 2.5e-3, "scaling": 5e-3, "rotation": 1e-3, "opacity": 0.05}

    def __init__(self, name, module, init):
        self.name, self.module = name, module
        self.params = {k: v.clone().requires_grad_(True) for k, v in init.items()}
        self.opt = torch.optim.Adam(
            [{"params": [p], "lr": self.LR[k]} for k, p in self.params.items()], eps=1e-15)
        self.iteration_ms, self.forward_ms, self.backward_ms = [], [], []
        self.host_ms = []
        self.losses = []

    def step(self, camera, target):
        e = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
        e[0].record()
        t0 = time.perf_counter()
        loss = (render(self.module, self.params, camera) - target).abs().mean()
        t1 = time.perf_counter()
        e[1].record()
        loss.backward()
        e[2].record()
        # The host's time to enqueue each pass: where it exceeds the
        # device's, the device waits.
        self.host_ms.append((1e3 * (t1 - t0), 1e3 * (time.perf_counter() - t1)))
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        end = torch.cuda.Event(enable_timing=True)
        end.record()
        self._pending = (e, end, loss)

    def collect(self):
        e, end, loss = self._pending
        end.synchronize()  # the events are recorded, not yet reached
        self.iteration_ms.append(e[0].elapsed_time(end))
        self.forward_ms.append(e[0].elapsed_time(e[1]))
        self.backward_ms.append(e[1].elapsed_time(e[2]))
        self.losses.append(loss.item())

    @torch.no_grad()
    def test_psnr(self, views, targets):
        return statistics.mean(psnr(render(self.module, self.params, c), t)
                               for c, t in zip(views, targets))


def profiled(r, camera, target, iterations, activities):
    """torch.profiler's averages over `iterations` steps of run `r` on one
    view, recording `activities`."""
    from torch.profiler import profile
    r.step(camera, target)  # one step unprofiled: nothing left pending
    r.collect()
    with profile(activities=activities) as prof:
        for _ in range(iterations):
            r.step(camera, target)
            r.collect()
    return prof.key_averages()


def kernel_times(runs, camera, target, iterations):
    """Per run, the device time per iteration (microseconds, torch.profiler
    over `iterations` more steps on one view) of all kernels and copies, and
    of each one over 5 us (its name cut to 60 characters): where the runs'
    times part."""
    from torch.profiler import ProfilerActivity
    out = {}
    for r in runs:
        times = {"all": 0.0}
        for e in profiled(r, camera, target, iterations, [ProfilerActivity.CUDA]):
            us = getattr(e, "device_time_total", None)
            if us is None:
                us = e.cuda_time_total
            us /= iterations
            if us <= 0:
                continue
            times["all"] += us
            if us > 5:
                name = e.key[:60]
                times[name] = times.get(name, 0.0) + us
        out[r.name] = times
    return out


def host_times(runs, camera, target, iterations):
    """Per run, the host's time per iteration (microseconds, torch.profiler
    over `iterations` more steps, CPU and CUDA activity): each operator's
    and each CUDA API call's own time and calls, to find where one build
    spends more host time than another (a profile's operators vary by
    tens of microseconds between identical builds: a coarse view)."""
    from torch.profiler import ProfilerActivity
    out = {}
    for r in runs:
        times = {}
        activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
        for e in profiled(r, camera, target, iterations, activities):
            if str(e.device_type).split(".")[-1] != "CPU":
                continue
            us = e.self_cpu_time_total / iterations
            calls = e.count / iterations
            times[e.key[:60]] = (calls, us)
        out[r.name] = times
    return out


def print_host_times(host):
    """The host profile's lines: each run's heaviest entries, then where
    the tiles build differs from the batching alone."""
    for name, times in host.items():
        top = sorted(times.items(), key=lambda kv: -kv[1][1])[:25]
        print("host us per iteration, %s: all %.1f; %s" % (
            name, sum(v[1] for v in times.values()),
            "; ".join("%s x%.2f %.1f" % (k, c, us) for k, (c, us) in top)))
    if "tiles" in host and "distwar" in host:
        a, b = host["distwar"], host["tiles"]
        keys = set(a) | set(b)
        diff = sorted(((b.get(k, (0, 0))[1] - a.get(k, (0, 0))[1], k) for k in keys),
                      reverse=True)
        print("host us per iteration, tiles minus distwar: %s" % "; ".join(
            "%s %+.1f (calls %.2f -> %.2f)" % (k, d, a.get(k, (0, 0))[0], b.get(k, (0, 0))[0])
            for d, k in diff if abs(d) >= 0.5))


def balanced_orders(n):
    """Orders of n runs (Williams' design) over which every run takes every
    place, and comes right after every other run, equally often."""
    first, low, high = [0], 1, n - 1
    while len(first) < n:
        first.append(low)
        low += 1
        if len(first) < n:
            first.append(high)
            high -= 1
    orders = [[(x + r) % n for x in first] for r in range(n)]
    if n % 2:
        orders += [order[::-1] for order in orders]
    return orders


def image_and_gradients(module, params, camera, target):
    """The rendered image and every parameter's gradient of the L1 loss."""
    p = {k: v.detach().clone().requires_grad_(True) for k, v in params.items()}
    image = render(module, p, camera)
    (image - target).abs().mean().backward()
    return image.detach(), {k: v.grad.detach() for k, v in p.items()}


def rel_l2(a, b):
    return ((a - b).norm() / b.norm().clamp_min(1e-30)).item()


def agreement(plain, other, params, views, targets, repeats=3):
    """`other` against `plain` on each view: the image's largest difference
    and each gradient's relative L2 distance, beside the largest distance
    between plain's own repeated runs (its float atomics reorder)."""
    out = {"image_max_abs": 0.0, "gradients": {}}
    for camera, target in zip(views, targets):
        image, grads = image_and_gradients(plain, params, camera, target)
        spread = {k: 0.0 for k in grads}
        for _ in range(repeats):
            _, again = image_and_gradients(plain, params, camera, target)
            for k in grads:
                spread[k] = max(spread[k], rel_l2(again[k], grads[k]))
        o_image, o_grads = image_and_gradients(other, params, camera, target)
        out["image_max_abs"] = max(out["image_max_abs"], (o_image - image).abs().max().item())
        for k in grads:
            g = out["gradients"].setdefault(k, {"rel_l2": 0.0, "plain_spread": 0.0})
            g["rel_l2"] = max(g["rel_l2"], rel_l2(o_grads[k], grads[k]))
            g["plain_spread"] = max(g["plain_spread"], spread[k])
    return out


def site_report(module, path):
    dwt.write_report(module._C, path)
    return dwt.read_report(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--plain", required=True)
    ap.add_argument("--distwar", required=True)
    ap.add_argument("--tiles", help="a distwar build balanced across tiles")
    ap.add_argument("--out", required=True)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--size", type=int, default=800)
    ap.add_argument("--points", type=int, default=100000)
    ap.add_argument("--gt", type=int, default=30000)
    ap.add_argument("--train-views", type=int, default=48)
    ap.add_argument("--test-views", type=int, default=8)
    ap.add_argument("--probe-iterations", type=int, default=300,
                    help="iterations of the short tuned run that picks the fixed threshold")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clustered", type=float, default=0.0,
                    help="the share of the Gaussians (target and model) in a small ball")
    ap.add_argument("--profile", type=int, default=0,
                    help="after training, profile this many more steps of each run")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    device = "cuda"
    torch.manual_seed(args.seed)

    work = os.path.join(args.out, "packages")
    plain = load_rasterizer(args.plain, "dgr_plain")
    report_file = os.path.join(args.out, "distwar-report.jsonl")
    if os.path.exists(report_file):
        os.remove(report_file)
    tuned = load_rasterizer(args.distwar, "dgr_distwar", {"DISTWAR_REPORT": report_file})
    probe = load_rasterizer(copy_package(args.distwar, os.path.join(work, "probe")), "dgr_probe")

    views = cameras(args.train_views + args.test_views, args.size, device, args.seed)
    train_views, test_views = views[:args.train_views], views[args.train_views:]
    gt = random_gaussians(args.gt, args.seed + 1, device, scale=0.03, opacity=0.6,
                          clustered=args.clustered)
    with torch.no_grad():
        targets = [render(plain, gt, c) for c in views]
    train_targets, test_targets = targets[:args.train_views], targets[args.train_views:]
    init = random_gaussians(args.points, args.seed + 2, device, scale=0.015, opacity=0.1,
                            clustered=args.clustered)
    order = torch.randint(0, args.train_views, (args.iterations,),
                          generator=torch.Generator().manual_seed(args.seed + 3)).tolist()

    # A short tuned run picks the threshold the fixed run uses (more rounds
    # of it if its search has not ended).
    probe_run = Run("probe", probe, init)
    probed = []
    for i in range(4 * args.probe_iterations):
        view = order[i % len(order)]
        probe_run.step(train_views[view], train_targets[view])
        probe_run.collect()
        if (i + 1) % args.probe_iterations == 0:
            probed = [r for r in site_report(probe, os.path.join(args.out, "probe-report.jsonl"))
                      if r["site"] == "renderCUDA#0"]
            if probed and probed[0]["how"] == "tuned":
                break
    if not probed or probed[0]["how"] != "tuned":
        print("train_gaussians.py: the probe run did not settle: %s" % probed)
        return 1
    fixed_threshold = probed[0]["threshold"]
    fixed = load_rasterizer(copy_package(args.distwar, os.path.join(work, "fixed")), "dgr_fixed",
                            {"DISTWAR_THRESHOLD": str(fixed_threshold)})

    # A second copy of the fixed run: what two identical builds differ by in
    # this process (the noise floor of the overhead figure).
    control = load_rasterizer(copy_package(args.distwar, os.path.join(work, "control")),
                              "dgr_control", {"DISTWAR_THRESHOLD": str(fixed_threshold)})

    runs = [Run("plain", plain, init), Run("distwar", tuned, init), Run("fixed", fixed, init),
            Run("control", control, init)]
    checks = {}
    if args.tiles:
        tiles = load_rasterizer(args.tiles, "dgr_tiles")
        checks["tiles"] = agreement(plain, tiles, init, views[:4], targets[:4])
        runs.append(Run("tiles", tiles, init))
    # Each run takes each place in the iteration, and follows each other run,
    # equally often: neither its place nor the run before it (caches, clocks,
    # how far the host got ahead while the GPU ran a slow plain backward) may
    # count as its speed. Rotating one order would put the same run after
    # plain three times in four.
    orders = balanced_orders(len(runs))
    before = {r.name: [] for r in runs}  # per iteration, the run before it
    for i in range(args.iterations):
        camera, target = train_views[order[i]], train_targets[order[i]]
        previous = "none"
        for k in orders[i % len(orders)]:
            runs[k].step(camera, target)
            before[runs[k].name].append(previous)
            previous = runs[k].name
        torch.cuda.synchronize()
        for r in runs:
            r.collect()
        if (i + 1) % 500 == 0:
            print("iteration %d: loss %s" % (i + 1, "  ".join(
                "%s %.5f" % (r.name, r.losses[-1]) for r in runs)), flush=True)

    results = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
               "size": args.size, "points": args.points, "iterations": args.iterations,
               "fixed_threshold": fixed_threshold, "checks": checks, "runs": {}}
    skip = min(10, args.iterations // 10)  # allocator and cache warm-up, alike for all
    for r in runs:
        results["runs"][r.name] = {
            "iteration_ms": statistics.mean(r.iteration_ms[skip:]),
            "iteration_ms_median": statistics.median(r.iteration_ms[skip:]),
            "forward_ms": statistics.mean(r.forward_ms[skip:]),
            "backward_ms": statistics.mean(r.backward_ms[skip:]),
            "final_loss": statistics.mean(r.losses[-50:]),
            "host_forward_ms": statistics.mean(h[0] for h in r.host_ms[skip:]),
            "host_backward_ms": statistics.mean(h[1] for h in r.host_ms[skip:]),
            "test_psnr": r.test_psnr(test_views, test_targets),
            "per_iteration_ms": r.iteration_ms,
            "per_iteration_backward_ms": r.backward_ms,
            "run_before": before[r.name],
        }
    sites = site_report(tuned, os.path.join(args.out, "distwar-report-now.jsonl"))
    results["distwar_sites"] = sites
    if args.tiles:
        # Its thresholds and its kernels' tile modes, as its launches chose.
        results["tiles_report"] = site_report(
            tiles, os.path.join(args.out, "tiles-report-now.jsonl"))
    if args.profile:
        results["kernel_us"] = kernel_times(runs, train_views[0], train_targets[0],
                                            args.profile)
        results["host_us"] = host_times(runs, train_views[0], train_targets[0],
                                        args.profile)
    with open(os.path.join(args.out, "train.json"), "w") as f:
        json.dump(results, f)

    # The bias the balanced orders remove: backward ms by the run before.
    for r in runs:
        by = {}
        for ms, prev in list(zip(r.backward_ms, before[r.name]))[skip:]:
            by.setdefault(prev, []).append(ms)
        print("backward ms of %s by the run before it: %s" % (r.name, ", ".join(
            "%s %.3f" % (prev, statistics.mean(v)) for prev, v in sorted(by.items()))))
    print("distwar sites (report of the tuned run): " + json.dumps(sites))
    if args.tiles:
        print("tiles sites and tile modes (report of the tiles run): " +
              json.dumps(results["tiles_report"]))
    print("%s, %dx%d, %d Gaussians, %d iterations, torch %s" % (
        results["device"], args.size, args.size, args.points, args.iterations, torch.__version__))
    base = results["runs"]["plain"]
    for name, check in checks.items():
        worst = max(g["rel_l2"] / max(g["plain_spread"], 1e-7) for g in check["gradients"].values())
        print("%s against plain: image max |diff| %.3g; gradients (rel. L2, plain's own spread): %s; "
              "worst %.2fx the spread" % (name, check["image_max_abs"], ", ".join(
                  "%s %.2g (%.2g)" % (k, g["rel_l2"], g["plain_spread"])
                  for k, g in sorted(check["gradients"].items())), worst))
    print("| run | ms / iteration | forward ms | backward ms | speedup (iteration) | test PSNR |")
    print("|---|---|---|---|---|---|")
    for r in runs:
        s = results["runs"][r.name]
        label = {"plain": "plain", "distwar": "distwar, tuned by its launches",
                 "fixed": "distwar, DISTWAR_THRESHOLD=%d" % fixed_threshold,
                 "control": "distwar, DISTWAR_THRESHOLD=%d (a second copy)" % fixed_threshold,
                 "tiles": "distwar and Balance: tiles, tuned by its launches",
                 }[r.name]
        print("| %s | %.3f | %.3f | %.3f | %.2fx | %.2f dB |" % (
            label, s["iteration_ms"], s["forward_ms"], s["backward_ms"],
            base["iteration_ms"] / s["iteration_ms"], s["test_psnr"]))
    t, f_, c = results["runs"]["distwar"], results["runs"]["fixed"], results["runs"]["control"]
    print("two identical fixed builds differ by: %+.2f%% per iteration (mean), %+.2f%% (median); "
          "backward %+.2f%%"
          % (100 * (c["iteration_ms"] / f_["iteration_ms"] - 1),
             100 * (c["iteration_ms_median"] / f_["iteration_ms_median"] - 1),
             100 * (c["backward_ms"] / f_["backward_ms"] - 1)))
    print("tuning overhead vs the fixed threshold: %+.2f%% per iteration (mean), %+.2f%% (median); "
          "backward %+.2f%%"
          % (100 * (t["iteration_ms"] / f_["iteration_ms"] - 1),
             100 * (t["iteration_ms_median"] / f_["iteration_ms_median"] - 1),
             100 * (t["backward_ms"] / f_["backward_ms"] - 1)))
    for name, r in results["runs"].items():
        print("host ms to enqueue, %s: forward %.3f, backward %.3f"
              % (name, r["host_forward_ms"], r["host_backward_ms"]))
    for name, times in results.get("kernel_us", {}).items():
        print("kernel us per iteration, %s: %s" % (name, "; ".join(
            "%s %.1f" % kv for kv in sorted(times.items(), key=lambda kv: -kv[1]))))
    print_host_times(results.get("host_us", {}))
    if "tiles" in results["runs"]:
        b = results["runs"]["tiles"]
        print("tiles against distwar (tuned): %.3fx per iteration (mean), %.3fx (median); "
              "forward %.3fx, backward %.3fx"
              % (t["iteration_ms"] / b["iteration_ms"],
                 t["iteration_ms_median"] / b["iteration_ms_median"],
                 t["forward_ms"] / b["forward_ms"], t["backward_ms"] / b["backward_ms"]))
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
