"""Random splatting scenes for the splat extension, and the float64 reference
of its backward pass (torch, on the scene's device)."""
import math

import torch

TILE = 16
CHANNELS = 3


class Scene:
    pass


def make_scene(width, height, points, seed, device="cuda", offscreen=8):
    """`points` Gaussians, the last `offscreen` of them outside the image (in
    no tile's list: their gradients must stay untouched). Tile lists are in a
    random depth order; each pixel sees a random prefix of its tile's list."""
    g = torch.Generator(device="cpu").manual_seed(seed)
    s = Scene()
    s.width, s.height, s.points, s.offscreen = width, height, points, offscreen
    tiles_x, tiles_y = (width + TILE - 1) // TILE, (height + TILE - 1) // TILE
    s.tiles_x, s.tiles_y = tiles_x, tiles_y

    means = torch.rand(points, 2, generator=g) * torch.tensor([width + 8.0, height + 8.0]) - 4
    means[points - offscreen:] = -1000.0
    sigma = 1.0 + 7.0 * torch.rand(points, 2, generator=g)
    theta = math.pi * torch.rand(points, generator=g)
    cos, sin = torch.cos(theta), torch.sin(theta)
    # conic = R diag(1/sx^2, 1/sy^2) R^T, positive definite.
    ia, ic = 1 / sigma[:, 0] ** 2, 1 / sigma[:, 1] ** 2
    conics = torch.stack([ia * cos * cos + ic * sin * sin,
                          (ia - ic) * cos * sin,
                          ia * sin * sin + ic * cos * cos], 1)
    opacities = 0.05 + 0.94 * torch.rand(points, generator=g)
    colors = torch.rand(points, CHANNELS, generator=g)

    # Tiles touched by each Gaussian's 3-sigma box, as (tile, depth rank) pairs.
    radius = 3 * sigma.max(1).values
    lo = torch.floor((means - radius[:, None]) / TILE).long()
    hi = torch.floor((means + radius[:, None]) / TILE).long()
    span = int((hi - lo).max().item()) + 1
    off = torch.arange(span)
    tx = lo[:, 0, None, None] + off[None, None, :]
    ty = lo[:, 1, None, None] + off[None, :, None]
    tx, ty = tx.expand(-1, span, span), ty.expand(-1, span, span)
    ok = ((tx <= hi[:, 0, None, None]) & (ty <= hi[:, 1, None, None]) &
          (tx >= 0) & (ty >= 0) & (tx < tiles_x) & (ty < tiles_y))
    gid = torch.arange(points)[:, None, None].expand(-1, span, span)
    depth_rank = torch.randperm(points, generator=g)
    tile = (ty * tiles_x + tx)[ok]
    gid = gid[ok]
    order = torch.argsort(tile * points + depth_rank[gid])
    tile, gid = tile[order], gid[order]
    counts = torch.bincount(tile, minlength=tiles_x * tiles_y)
    ends = torch.cumsum(counts, 0)
    s.entries = int(gid.numel())
    s.entry_tile, s.entry_gid = tile, gid
    s.entry_pos = torch.arange(gid.numel()) - (ends - counts)[tile]

    # Each pixel sees a prefix of its tile's list; a third of them all of it.
    pix_tile = ((torch.arange(height)[:, None] // TILE) * tiles_x +
                torch.arange(width)[None, :] // TILE)
    n = counts[pix_tile]
    prefix = (torch.rand(height, width, generator=g) * 1.5 * (n + 1)).long()
    s.n_contrib = torch.minimum(prefix, n).int()

    s.dL_dpixels = torch.randn(CHANNELS, height, width, generator=g)
    s.tile_ranges = torch.stack([ends - counts, ends], 1).int()
    s.tile_list = gid.int()
    s.means, s.conics, s.opacities, s.colors = means, conics, opacities, colors
    s.base = [torch.randn(points, 2, generator=g), torch.randn(points, 3, generator=g),
              torch.randn(points, generator=g), torch.randn(points, CHANNELS, generator=g)]
    for b in s.base:
        b[points - offscreen:] = float("nan")  # untouched: stays NaN
    for name in ("tile_ranges", "tile_list", "n_contrib", "means", "conics",
                 "opacities", "colors", "dL_dpixels", "entry_tile", "entry_gid",
                 "entry_pos"):
        setattr(s, name, getattr(s, name).to(device))
    s.base = [b.to(device) for b in s.base]
    _drop_ambiguous_pixels(s)
    return s


def kernel_inputs(s):
    return (s.tile_ranges, s.tile_list, s.n_contrib, s.means, s.conics,
            s.opacities, s.colors, s.dL_dpixels)


FIELDS = ("dL_dmeans", "dL_dconics", "dL_dopacities", "dL_dcolors")


def _pairs(s, begin, end, dtype):
    """Every (list entry, pixel of its tile) pair of entries begin..end:
    the kernel's blending terms in `dtype`, and which pairs it counts."""
    t = s.entry_tile[begin:end]
    gid = s.entry_gid[begin:end].long()
    q = torch.arange(TILE * TILE, device=t.device)
    px = (t % s.tiles_x)[:, None] * TILE + q[None, :] % TILE
    py = (t // s.tiles_x)[:, None] * TILE + q[None, :] // TILE
    inside = (px < s.width) & (py < s.height)
    pix = torch.where(inside, py * s.width + px, torch.zeros_like(px))
    last = s.n_contrib.flatten().long()[pix]
    seen = inside & (s.entry_pos[begin:end, None] < last)
    mean = s.means[gid].to(dtype)
    conic = s.conics[gid].to(dtype)
    dx = mean[:, 0, None] - px.to(dtype)
    dy = mean[:, 1, None] - py.to(dtype)
    a, b, c = conic[:, 0, None], conic[:, 1, None], conic[:, 2, None]
    power = -0.5 * (a * dx * dx + c * dy * dy) - b * dx * dy
    G = torch.exp(power)
    alpha = s.opacities[gid].to(dtype)[:, None] * G
    return gid, pix, seen, dx, dy, a, b, c, power, G, alpha


def _chunks(s, size=8192):
    for begin in range(0, s.entries, size):
        yield begin, min(begin + size, s.entries)


def _drop_ambiguous_pixels(s):
    """Zeroes dL_dpixel where the float32 kernel and a float64 reference could
    disagree on a `continue` (alpha within 0.1% of 1/255, power near 0): such
    a pixel then adds nothing either way, and the check stays exact."""
    ambiguous = torch.zeros(s.height * s.width, dtype=torch.bool, device=s.means.device)
    for begin, end in _chunks(s):
        _, pix, seen, *_, power, _, alpha = _pairs(s, begin, end, torch.float64)
        bad = seen & (((alpha * 255 - 1).abs() < 1e-3) | (power > -1e-5))
        ambiguous[pix[bad]] = True
    s.dL_dpixels[:, ambiguous.view(s.height, s.width)] = 0
    s.ambiguous_pixels = int(ambiguous.sum())


def reference(s):
    """float64 gradients [dL_dmeans, dL_dconics, dL_dopacities, dL_dcolors],
    and for each the sum of |terms| (the scale of float32 rounding)."""
    f64 = torch.float64
    grad = torch.zeros(s.points, 9, dtype=f64, device=s.means.device)
    mag = torch.zeros_like(grad)
    dLp = s.dL_dpixels.to(f64).reshape(CHANNELS, -1)
    col = s.colors.to(f64)
    for begin, end in _chunks(s):
        gid, pix, seen, dx, dy, a, b, c, power, G, alpha = _pairs(s, begin, end, f64)
        used = (seen & (power <= 0) & (alpha >= 1 / 255)).to(f64)
        d = dLp[:, pix] * used  # [3, E, Q]
        dL_dalpha = (col[gid].t()[:, :, None] * d).sum(0)
        dL_dpower = alpha * dL_dalpha
        terms = torch.stack([
            dL_dpower * (-a * dx - b * dy), dL_dpower * (-c * dy - b * dx),
            -0.5 * dx * dx * dL_dpower, -dx * dy * dL_dpower, -0.5 * dy * dy * dL_dpower,
            G * dL_dalpha,
            alpha * d[0], alpha * d[1], alpha * d[2]], 2)  # [E, Q, 9]
        grad.index_add_(0, gid, terms.sum(1))
        mag.index_add_(0, gid, terms.abs().sum(1))
    split = lambda t: [t[:, 0:2], t[:, 2:5], t[:, 5], t[:, 6:9]]
    return split(grad), split(mag)


def run(kernel, s, outputs):
    kernel(*kernel_inputs(s), *outputs)


def fresh_outputs(s):
    return [b.clone() for b in s.base]
