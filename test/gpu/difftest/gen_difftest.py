#!/usr/bin/env python3
"""Seeded CUDA backward-style kernels for the GPU differential tester.

Every kernel scatters non-negative values with atomicAdd and is generated
from its own random stream, random.Random("<seed>:<index>"), so any one of
them can be printed again by its seed and index. The shapes are those of
real backward kernels and of the tool's known traps (docs in README.md):
__device__ helpers with per-lane pointer parameters, keys that are per lane,
warp-uniform (shared ids at the loop counter between barriers, blockIdx) or
mixed, nested ifs and continues at several depths, early returns, per-lane
loop bounds, several groups per loop, float/double/int fields, fields under a
kernel-parameter null test, state updated between sites, aliasing
parameters, reads of a destination between sites (directly and through an
alias), gotos, `#pragma unroll` channel loops, templates, shadowing
declarations, `make_*` helpers with side effects and a user `atomicAdd`
wrapper; and, in about half of them, from a second random stream, what
users write around their atomics (user_code.py: lambdas, functions
returning references, accessors, struct and global pointers, enums,
templates, macros, gotos). Kernels 0.. are the fixed cases of
fixed_cases.py (the team's repros), the generated ones follow.

Rules that keep the comparison sound (the harness relies on them):
  * atomic values are >= 0 and start values are >= 0, so a float element's
    value is its sum of magnitudes;
  * values read from a destination only feed `seen`, an observation of
    `r >= (own value added before)`, which the plain kernel always satisfies;
    they never steer control flow, keys or other values;
  * every address is in bounds for every launch shape of the harness, and
    kernels with barriers never diverge around a barrier: only whole blocks
    return before one, single lanes only after the last.

  gen_difftest.py --seed S --kernels N --per-tu K --out DIR
      DIR/tu_<t>.cu (K kernels each, namespaced k<index> inside DIFFTEST_NS),
      DIR/meta.cpp (buffer specs, features), DIR/tus.inc, DIR/manifest.json
  gen_difftest.py --seed S --kernels N --print INDEX
      one kernel as a standalone .cu file on stdout (for a lit test)
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixed_cases  # noqa: E402
import user_code  # noqa: E402

# Shapes that can be left out (--avoid) while the tool turns them into code
# nvcc rejects: d14, `#pragma unroll` on the line where a group starts
# (`_Pragma("unroll")` is written instead), and user_code.py's. The fixed
# cases of such a shape are written with an empty body. None is left out by
# default.
KNOWN_COMPILE_BUGS = ["d14"] + user_code.KNOWN_COMPILE_BUGS
AVOID = user_code.AVOID

ELEM = {"float": "kF32", "double": "kF64", "int": "kI32",
        "unsigned": "kU32", "unsigned long long": "kU64"}
VEC_LANES = {"float2": "xy", "float3": "xyz", "float4": "xyzw"}
ONE = {"int": "1", "unsigned": "1u", "unsigned long long": "1ull"}

# Every feature a kernel can have; the coverage table lists them in order.
FEATURES = [
    "fixed", "devfn-ptr", "devfn-buf", "key-lane", "key-uniform", "key-mixed",
    "nested-if", "else-arm", "continue", "continue-deep", "early-return",
    "return-in-loop", "loop-term", "per-lane-bound", "tiles", "tile-cost",
    "block-return", "late-return", "multi-group",
    "double", "int", "mixed-types", "cond-field", "lane-cond-field",
    "lane-cond-else", "lane-cond-nested", "state",
    "alias-param", "read-between", "read-alias", "goto", "unroll-channel",
    "channel", "template", "shadow", "make-call", "user-atomic", "macro",
    "vector-field", "side-effect-cond", "join-continue", "key-offset",
    "accessor", "pointer", "block", "strip", "adjacent",
] + user_code.USER_FEATURES

PRELUDE = """\
#include "DiffTestAbi.h"

#ifndef DIFFTEST_NS
#error "define DIFFTEST_NS (the namespace of this variant)"
#endif

#define DT_ADD1(PTR, VAL) atomicAdd((PTR), (VAL))
#define DT_ADD3(buf, i, v)                                                     \\
  atomicAdd(&buf[i].x, v.x);                                                   \\
  atomicAdd(&buf[i].y, v.y);                                                   \\
  atomicAdd(&buf[i].z, v.z)
""" + user_code.USER_PRELUDE + """\
constexpr int kDtChannels = 3;
"""


class Param:
    """A kernel parameter and how the launcher fills it."""

    def __init__(self, decl, arg):
        self.decl = decl  # "float *g1"
        self.arg = arg    # launcher expression


class Kernel:
    """One generated kernel: helpers, the kernel, its launcher and buffers."""

    def __init__(self, seed, index):
        self.seed = seed
        self.index = index
        self.name = "k%d" % index
        self.label = self.name
        self.rng = random.Random("%d:%d" % (seed, index))
        self.features = set()
        self.body_features = set()  # features of the whole iteration
        self.params = []
        self.buffers = []  # (name, elem, role, count, optional)
        self.helpers = []
        self.globals_setup = []  # launcher statements before the launch
        self.pre = []    # declarations at the top of the kernel body
        self.lines = []
        self.counter = 0
        self.tparams = []  # ("int C", "3") / ("typename Real", "double")
        self.tags = []  # stack of feature sets of the sites being written
        self.key_tags = {}  # key variable -> features of how it is computed
        self.float_dests = []  # (parameter, buffer) of float gradients
        self.uses_seen = False
        self.min_block = 1  # threads a block needs (fixed case d5: 32)

    # -- bookkeeping -------------------------------------------------------
    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def emit(self, depth, text):
        self.lines.append(("  " * depth + text, self.current_tags()))

    def current_tags(self):
        return frozenset().union(*self.tags)

    def feature(self, *names):
        """The kernel has these features; so do the sites being written."""
        for n in names:
            assert n in FEATURES, n
            self.features.add(n)
            if self.tags:
                self.tags[-1].add(n)
            else:
                self.body_features.add(n)

    def helper(self, text):
        """A device function; its atomics carry the features of the site
        that called for it."""
        self.helpers.append((text, self.current_tags()))

    def tagging(self, names=()):
        """Context: the sites written inside have these features too."""
        kernel = self

        class Scope:
            def __enter__(self):
                kernel.tags.append(set())
                kernel.feature(*names)
                return kernel.tags[-1]

            def __exit__(self, *exc):
                kernel.tags.pop()
        return Scope()

    def buffer(self, elem, role, count, optional=False, name=None):
        """Allocates a harness buffer; returns its index."""
        self.buffers.append((name or "b%d" % len(self.buffers), elem, role,
                             count, optional))
        return len(self.buffers) - 1

    def out_param(self, ctype, count, elem, name, optional=False,
                  role="kAtomic", const=False):
        """A new buffer and the parameter that receives it."""
        b = self.buffer(elem, role, count, optional, name)
        cast = "(%s%s *)a.out[%d]" % ("const " if const else "", ctype, b)
        if optional:
            cast = "a.withOptional ? %s : nullptr" % cast
        self.params.append(Param("%s%s *%s" % ("const " if const else "",
                                               ctype, name), cast))
        return b

    def in_param(self, decl, arg):
        self.params.append(Param(decl, arg))

    def user_wrapper(self):
        """A user's own atomicAdd wrapper that also counts its calls (d6):
        dbg::atomicAdd in the kernel's namespace."""
        if any("namespace dbg" in h for h, _ in self.helpers):
            return
        sink = self.buffer("kU32", "kAtomic", 1, name="wrapper_calls")
        self.helper(
            "__device__ unsigned *dt_wrapper_calls;\n"
            "namespace dbg {\n"
            "__device__ void atomicAdd(float *p, float v) {\n"
            "  ::atomicAdd(p, v);\n  ::atomicAdd(dt_wrapper_calls, 1u);\n}\n"
            "} // namespace dbg")
        self.globals_setup.append(
            "cudaMemcpyToSymbol(%s::dt_wrapper_calls, &a.out[%d], "
            "sizeof(void *));" % (self.name, sink))

    def alias_param(self, of_buffer, ctype, name, const=False):
        """A second parameter that receives an existing buffer."""
        self.params.append(Param(
            "%s%s *%s" % ("const " if const else "", ctype, name),
            "(%s%s *)a.out[%d]" % ("const " if const else "", ctype,
                                   of_buffer)))

    # -- values --------------------------------------------------------------
    def value(self, elem="float"):
        """A non-negative value of this iteration (a, t, state)."""
        r = self.rng
        base = r.choice(["a", "a * w", "a + t", "T * a", "expf(-a)",
                         "a * a + 0.5f", "fabsf(a - t)", "w * 0.5f + a",
                         "(a + 1.f) * (t + 0.25f)"])
        if elem == "float":
            return base
        if elem == "double":
            return "(double)(%s)" % base
        return r.choice([ONE[elem], ONE[elem], "(%s)(a * 8.f)" % elem,
                         "(%s)(t * 4.f) + %s" % (elem, ONE[elem])])

    def lane_cond(self):
        return self.rng.choice(["a < 0.2f", "a > t", "w > 3.f", "(tid & 3) == 1",
                                "(threadIdx.x & 31) < 7", "a * t > 0.3f",
                                "T < 0.5f"])

    def uniform_cond(self):
        return self.rng.choice(["n > 12", "blockIdx.x == 1", "(blockIdx.x & 1) == 0"])


    # -- text ------------------------------------------------------------------
    def kernel_lines(self):
        """The kernel's text: (line, features of the sites on it)."""
        none = frozenset()
        out = [("namespace %s {" % self.name, none)]
        for text, tags in self.helpers:
            out += [(line, tags) for line in text.split("\n")]
        if self.tparams:
            out.append(("template <%s>" % ", ".join(p for p, _ in self.tparams),
                        none))
        out.append(("__global__ void backward(", none))
        out += [("    %s%s" % (p.decl, "," if i + 1 < len(self.params) else ") {"),
                 none) for i, p in enumerate(self.params)]
        out.append(("  const int tid = blockIdx.x * blockDim.x + threadIdx.x;", none))
        out += [("  " + line, none) for line in self.pre]
        out += [line if isinstance(line, tuple) else (line, none)
                for line in self.lines]
        out.append(("}", none))
        out.append(("} // namespace %s" % self.name, none))
        return out

    def kernel_text(self):
        return "\n".join(line for line, _ in self.kernel_lines())

    def launch_text(self):
        targs = ""
        if self.tparams:
            targs = "<%s>" % ", ".join(v for _, v in self.tparams)
        args = ",\n      ".join(p.arg for p in self.params)
        lines = ["    case %d: {" % self.local]
        lines += ["      " + s for s in self.globals_setup]
        lines.append("      %s::backward%s<<<a.grid, a.block, a.shared>>>("
                     "\n      %s);" % (self.name, targs, args))
        lines.append("      return;")
        lines.append("    }")
        return "\n".join(lines)


class Gen(Kernel, user_code.UserCode):
    """The random kernel: a prologue, a flat body or a loop, an epilogue;
    in some, user constructs around the sites (user_code.py)."""

    def generate(self):
        self.user_init(self.seed, self.index)
        r = self.rng
        self.shape = r.choice(["flat", "loop", "loop", "loop", "tiles", "tiles"])
        if r.random() < 0.2:
            self.feature("template")
            self.tparams.append(("int C", r.choice(["2", "3", "4"])))
            if r.random() < 0.5:
                self.tparams.append(("typename Real", r.choice(["float", "double"])))
        self.in_param("const float *%sx" % (
            "__restrict__ " if r.random() < 0.5 else ""), "a.in.x")
        self.in_param("const float *thr", "a.in.thr")
        self.in_param("const int *%sids" % (
            "__restrict__ " if r.random() < 0.5 else ""), "a.in.ids")
        self.in_param("const int *trips", "a.in.trips")
        self.in_param("int n", "a.in.n")
        self.in_param("int npix", "a.in.npix")
        self.out_param("float", "DT_TCAP", "kF32", "out", role="kStore")
        self.uses_calls = False
        self.emit(1, "const float t = thr[tid];")
        self.emit(1, "float w = 1.f, T = 1.f;")
        self.emit(1, "int seen = 0;")
        self.shadow_outer = None
        if self.shape == "flat":
            self.flat()
        else:
            self.loop()
        self.emit(1, "out[tid] = w + T;")
        if self.uses_seen:
            self.out_param("int", "DT_TCAP", "kI32", "obs", role="kStore")
            self.emit(1, "obs[tid] = seen;")

    # -- keys ----------------------------------------------------------------
    def key_expr(self, in_loop):
        """(expression, kind) of a primitive key in [0, DT_KEYS)."""
        r = self.rng
        kind = r.choice(["lane", "uniform", "uniform", "mixed"])
        if in_loop:
            lane = ["ids[(tid + j) % DT_IDS]", "(tid / 4 + j) % DT_KEYS",
                    "ids[tid % DT_IDS]", "(int)(a * DT_KEYS) % DT_KEYS"]
            uni = ["ids[j]", "(j * 7 + blockIdx.x) % DT_KEYS", "j",
                   "(int)(blockIdx.x % DT_KEYS)"]
            mixed = ["(ids[j] + (threadIdx.x >> 4)) % DT_KEYS",
                     "(j + (a > 0.5f)) % DT_KEYS",
                     "(ids[j] + (int)(threadIdx.x & 1)) % DT_KEYS"]
            if self.shape == "tiles":
                uni += ["sid[j]", "sid[j]", "sid[j]"]
                mixed += ["(sid[j] + (int)((threadIdx.x & 31) >> 4)) % DT_KEYS"]
        else:
            lane = ["ids[tid % DT_IDS]", "(tid / 4) % DT_KEYS",
                    "(int)(a * DT_KEYS) % DT_KEYS"]
            uni = ["(int)(blockIdx.x % DT_KEYS)", "0", "(int)((blockIdx.x * 5 + 3) % DT_KEYS)"]
            mixed = ["(int)((blockIdx.x + (threadIdx.x >> 5)) % DT_KEYS)",
                     "(int)((blockIdx.x * 3 + ((threadIdx.x & 31) >> 4)) % DT_KEYS)"]
        expr = r.choice({"lane": lane, "uniform": uni, "mixed": mixed}[kind])
        self.feature("key-" + kind)
        return expr

    def declare_key(self, depth, in_loop):
        """Declares a key variable (sometimes set through a goto); returns it."""
        r = self.rng
        name = self.fresh("id")
        with self.tagging() as tags:
            self.key_definition(depth, in_loop, name)
            name = self.user_key(depth, in_loop, name)
        self.key_tags[name] = set(tags)
        return name

    def key_definition(self, depth, in_loop, name):
        r = self.rng
        if r.random() < 0.12:
            # A per-lane goto picks one of two keys (d3's shape).
            self.feature("goto")
            e1 = self.key_expr(in_loop)
            e2 = self.key_expr(in_loop)
            label = self.fresh("keyed")
            self.emit(depth, "int %s = %s;" % (name, e1))
            if self.user:
                self.mutable_keys.add(name)
            self.emit(depth, "if (%s) goto %s;" % (self.lane_cond(), label))
            self.emit(depth, "%s = %s;" % (name, e2))
            self.emit(depth, "%s:;" % label)
        elif r.random() < 0.06:
            self.feature("make-call")
            helper = self.fresh("make_key")
            self.helper(
                "__device__ int %s(int j) {\n"
                "  return (j * 4 + (int)(threadIdx.x %% 32) / 8) %% DT_KEYS;\n}"
                % helper)
            self.feature("key-mixed")
            self.emit(depth, "%s %s = %s(%s);" % (
                self.key_type(name), name, helper,
                "j" if in_loop else "(int)blockIdx.x"))
        else:
            expr = self.key_expr(in_loop)
            self.emit(depth, "%s %s = %s;" % (self.key_type(name), name, expr))

    # -- shapes --------------------------------------------------------------
    def flat(self):
        r = self.rng
        if r.random() < 0.4:
            self.feature("early-return")
            self.emit(1, "if (tid >= npix) return;")
        self.emit(1, "const float a = x[tid * DT_TRIPS];")
        self.body_top = (len(self.lines), 1)
        key = self.declare_key(1, in_loop=False)
        for _ in range(r.randint(1, 3)):
            self.group(1, key, in_loop=False)
            if r.random() < 0.3:
                self.state(1)
            if r.random() < 0.25:
                key = self.declare_key(1, in_loop=False)
                self.feature("multi-group")

    def loop(self):
        r = self.rng
        tiles = self.shape == "tiles"
        if tiles:
            self.feature("tiles")
            self.emit(1, "__shared__ int sid[DT_TILE];")
            self.emit(1, "__shared__ float sval[DT_TILE];")
        if r.random() < 0.15:
            # An outer name that a declaration in the body shadows (d1).
            self.shadow_outer = "sh"
            self.emit(1, "float sh = 0.25f;")
        bound = "n"
        term = ""
        early = not tiles and r.random() < 0.3
        if early:
            self.feature("early-return")
            self.emit(1, "if (tid >= npix) return;")
        if r.random() < 0.35:
            self.feature("loop-term")
            self.emit(1, "const bool done = %s;" % r.choice(
                ["tid >= npix", "t > 0.85f", "tid >= npix || t > 0.9f"]))
            term = "!done && "
        if not tiles and r.random() < 0.3:
            self.feature("per-lane-bound")
            bound = r.choice(["trips[tid]", "(int)(t * DT_TRIPS)"])
        if tiles:
            bound = "min(DT_TILE, n)"
            rounds = self.tile_rounds(r.choice(["2", "n / 8"]))
            if rounds != "rounds" and self.tile_rng.random() < 0.3:
                # A return of whole blocks before the barriers: --balance=tiles
                # accepts it (its condition is block-uniform), the block's
                # tile ends. Not where the rounds are the tile's cost: a
                # return before the loop leaves no cost to compute.
                self.feature("block-return")
                self.emit(1, "if (%s) return;" % self.tile_rng.choice(
                    ["blockIdx.x % 4 == 3", "n < 12 && blockIdx.x == 1",
                     "(blockIdx.x & 6) == 2"]))
            self.emit(1, "for (int round = 0; round < %s; ++round) {" % rounds)
            self.emit(2, "__syncthreads();")
            self.emit(2, "for (int i = threadIdx.x; i < DT_TILE; i += blockDim.x) {")
            self.emit(3, "sid[i] = ids[(round * DT_TILE + i + blockIdx.x * 7) % DT_IDS];")
            self.emit(3, "sval[i] = x[(i * 3 + round) % DT_XS];")
            self.emit(2, "}")
            self.emit(2, "__syncthreads();")
            depth = 2
        else:
            depth = 1
        bound = self.user_bound(depth, bound)
        self.emit(depth, "for (int j = 0; %sj < %s; j++) {" % (term, bound))
        self.body(depth + 1)
        self.emit(depth, "}")
        if tiles:
            self.emit(1, "}")
            if self.tile_rng.random() < 0.3:
                # A per-lane return after the block's last barrier: accepted
                # by --balance=tiles; the lane waits at the barrier between
                # tiles.
                self.feature("late-return")
                self.emit(1, "if (%s) return;" % self.tile_rng.choice(
                    ["tid >= npix", "t > 0.9f", "(threadIdx.x & 3) == 2"]))

    def tile_rounds(self, rounds):
        """The rounds of a tiles kernel: in about half of them a number that
        depends on the block's place, declared before the loop, as
        graphdeco's `rounds` from ranges[tile] (--balance=tiles then writes
        a cost kernel that draws the heaviest tiles first). From a stream of
        its own, random.Random("<seed>:<index>:tiles"), so that the kernels
        of the other shapes keep their text, and these everything else. The
        same stream places block-uniform returns before the barriers and
        per-lane ones after the last (loop())."""
        tr = random.Random("%d:%d:tiles" % (self.seed, self.index))
        self.tile_rng = tr
        if tr.random() < 0.5:
            return rounds
        self.feature("tile-cost")
        place = tr.choice(["(int)(blockIdx.x % 3)",
                           "(int)(blockIdx.x & 1) * 2",
                           "ids[blockIdx.x % DT_IDS] % 3",
                           "min(2, (int)blockIdx.x / 4)"])
        self.emit(1, "const int rounds = %s + %s;" % (rounds, place))
        return "rounds"

    def body(self, d):
        """A loop body: a value, keys, then skips, state and groups."""
        r = self.rng
        tiles = self.shape == "tiles"
        if tiles and r.random() < 0.5:
            self.emit(d, "const float a = sval[j] * 0.5f + x[tid * DT_TRIPS + j] * 0.5f;")
        else:
            self.emit(d, "const float a = x[tid * DT_TRIPS + j];")
        self.body_top = (len(self.lines), d)
        closers = []  # blocks opened by goto-skips, closed before their label
        if self.shadow_outer:
            self.feature("shadow")
            self.emit(d, "const float b0 = a + sh;")
            self.skip(d)
            self.emit(d, "const float sh = b0 * 2.f;")
        groups = 0
        key = None
        plan = [r.choice(["skip", "state", "group", "group", "group", "store",
                          "spec", "ret"]) for _ in range(r.randint(2, 5))]
        if "group" not in plan:
            plan.append("group")
        for step in plan:
            if step == "skip":
                if r.random() < 0.2:
                    # A goto to the end of the body, as a continue: the rest
                    # goes in a block so no declaration is jumped over.
                    self.feature("goto", "continue")
                    label = self.fresh("next")
                    self.emit(d, "if (%s) goto %s;" % (self.lane_cond(), label))
                    self.emit(d, "{")
                    closers.append(label)
                    d += 1
                else:
                    self.skip(d)
            elif step == "state":
                self.state(d)
            elif step == "store":
                name = self.fresh("trace")
                self.out_param("float", "DT_XS", "kF32", name, role="kStore")
                self.emit(d, "%s[tid * DT_TRIPS + j] = w * a;" % name)
            elif step == "spec" and r.random() < 0.4:
                self.feature("make-call")
                self.make_weight(d)
            elif step == "ret" and not tiles and r.random() < 0.3:
                self.feature("return-in-loop")
                self.emit(d, "if (a > 0.97f && t > 0.5f) return;")
            elif step == "group":
                if key is None or r.random() < 0.4:
                    key = self.declare_key(d, in_loop=True)
                self.group(d, key, in_loop=True)
                groups += 1
        if groups > 1:
            self.feature("multi-group")
        self.user_body_end(d)
        if self.shadow_outer:
            self.emit(d, "w += sh * 0.125f;")
        for label in reversed(closers):
            d -= 1
            self.emit(d, "}")
            self.emit(d, "%s:;" % label)

    # -- statements ------------------------------------------------------------
    def skip(self, d):
        """A per-lane continue, inside 0 to 3 nested ifs."""
        r = self.rng
        self.feature("continue")
        depth = r.choice([0, 0, 1, 2, 3])
        if depth >= 2:
            self.feature("continue-deep", "nested-if")
        for i in range(depth):
            self.emit(d + i, "if (%s) {" % self.lane_cond())
            if r.random() < 0.4:
                self.emit(d + i + 1, "w = w * 0.5f + 0.25f;")
        self.emit(d + depth, "if (%s)" % self.lane_cond())
        self.emit(d + depth + 1, "continue;")
        for i in reversed(range(depth)):
            if r.random() < 0.3:
                self.emit(d + i, "} else {")
                self.emit(d + i + 1, "T *= 0.875f;")
            self.emit(d + i, "}")

    def state(self, d):
        """Running sums, transmittance, a counter (stored at the end)."""
        self.feature("state")
        update = self.rng.choice([
            "w = w * 0.75f + a;", "T *= 1.f - 0.5f * a;", "w += T * a;",
            "T = T * 0.5f + 0.25f;", "seen += 3;"])
        self.uses_seen = self.uses_seen or update.startswith("seen")
        self.emit(d, update)

    def make_weight(self, d):
        """A `make_` helper that writes memory, between continues (d5)."""
        if not self.uses_calls:
            self.uses_calls = True
            self.out_param("int", "DT_TCAP", "kI32", "calls", role="kStore")
            self.helper(
                "__device__ float make_weight(int *calls, int tid, float v) {\n"
                "  calls[tid] += 1;\n  return v * 0.5f;\n}")
        name = self.fresh("mw")
        self.emit(d, "const float %s = make_weight(calls, tid, a);" % name)
        self.emit(d, "if (%s < 0.1f)" % name)
        self.emit(d + 1, "continue;")
        self.feature("continue")

    def group(self, d, key, in_loop):
        """The atomics of one key, under 0 to 3 ifs or in one arm."""
        with self.tagging():
            self.group_shape(d, key, in_loop)

    def group_shape(self, d, key, in_loop):
        r = self.rng
        shape = r.random()
        if shape < 0.55:
            self.sites(d, key, in_loop)
            return
        if shape < 0.75:
            depth = r.randint(1, 3)
            self.feature("nested-if")
            for i in range(depth):
                cond = self.lane_cond() if r.random() < 0.8 else self.uniform_cond()
                if r.random() < 0.08:
                    self.feature("side-effect-cond")
                    cond = "(w += 0.5f) > 1.5f"
                self.emit(d + i, "if (%s) {" % cond)
                if r.random() < 0.3:
                    self.state(d + i + 1)
            self.sites(d + depth, key, in_loop)
            for i in reversed(range(depth)):
                self.emit(d + i, "}")
            return
        self.feature("else-arm")
        arm = r.choice(["then", "else", "elseif"])
        if arm == "then":
            self.emit(d, "if (%s) {" % self.lane_cond())
            self.sites(d + 1, key, in_loop)
            self.emit(d, "} else {")
            self.emit(d + 1, "T *= 0.75f;")
            self.emit(d, "}")
        elif arm == "else":
            self.emit(d, "if (%s) {" % self.lane_cond())
            self.emit(d + 1, "w = w * 0.5f;")
            self.emit(d, "} else {")
            self.sites(d + 1, key, in_loop)
            self.emit(d, "}")
        else:
            self.emit(d, "if (a > 0.9f) {")
            self.emit(d + 1, "w = 0.f;")
            self.emit(d, "} else if (%s) {" % self.lane_cond())
            self.sites(d + 1, key, in_loop)
            self.emit(d, "} else")
            self.emit(d + 1, "T *= 0.5f;")

    def sites(self, d, key, in_loop):
        """1 to 5 fields of `key`, with state and reads in between."""
        r = self.rng
        elems = set()
        user_elems = set()
        first = len(self.lines)
        for _ in range(r.randint(1, 4)):
            kind = r.choice(["scalar", "scalar", "vec", "stride", "channel",
                             "double", "int", "helper-ptr", "helper-buf",
                             "macro", "cond", "lane-cond", "read", "alias",
                             "user", "state", "alias-dest"])
            with self.tagging(self.key_tags.get(key, ())):
                user_elems |= self.user_between(d, key, in_loop)
                elems.add(self.site(d, kind, key, in_loop))
        with self.tagging(self.key_tags.get(key, ())):
            user_elems |= self.user_between(d, key, in_loop)
        elems.discard(None)
        if not elems:
            # Only state updates were drawn: a group has at least one field.
            with self.tagging(self.key_tags.get(key, ())):
                elems.add(self.site(d, "scalar", key, in_loop))
        for line in self.after_group:
            self.emit(d, line)
        self.after_group = []
        elems |= user_elems
        if len(elems) > 1:
            self.feature("mixed-types")
            self.lines[first:] = [(text, tags | {"mixed-types"})
                                  for text, tags in self.lines[first:]]

    def elem_param(self, elem, stride):
        ctype = elem
        name = self.fresh({"float": "g", "double": "gd", "int": "gi",
                           "unsigned": "gu", "unsigned long long": "gl"}[elem])
        b = self.out_param(ctype, "DT_KEYS * %d" % stride, ELEM[elem], name)
        if elem == "float" and stride == 1:
            self.float_dests.append((name, b))
        return name, b

    def site(self, d, kind, key, in_loop):
        """One field; returns its element type (None: no atomic)."""
        r = self.rng
        if kind == "state":
            self.state(d)
            return None
        if kind == "scalar":
            elem = "float"
            if any(p[0] == "typename Real" for p in self.tparams) and r.random() < 0.6:
                name = self.fresh("gt")
                tval = dict(self.tparams)["typename Real"]
                b = self.out_param("Real", "DT_KEYS", ELEM[tval], name)
                self.params[-1].arg = "(%s *)a.out[%d]" % (tval, b)
                self.emit(d, "atomicAdd(&%s[%s], (Real)(%s));" % (name, key, self.value()))
                if tval == "double":
                    self.feature("double")
                return tval
            name, _ = self.elem_param(elem, 1)
            form = r.choice(["&%s[%s]", "%s + %s"])
            self.emit(d, "atomicAdd(%s, %s);" % (form % (name, key), self.value()))
            return elem
        if kind == "vec":
            self.feature("vector-field")
            vt = r.choice(list(VEC_LANES))
            name = self.fresh("m")
            self.out_param(vt, "DT_KEYS * %d" % len(VEC_LANES[vt]), "kF32", name)
            for f in r.sample(VEC_LANES[vt], r.randint(1, len(VEC_LANES[vt]))):
                self.emit(d, "atomicAdd(&%s[%s].%s, %s);" % (name, key, f, self.value()))
            return "float"
        if kind == "stride":
            k = r.randint(2, 6)
            name, _ = self.elem_param("float", k)
            for c in r.sample(range(k), r.randint(1, k)):
                addr = r.choice(["&%s[%s * %d + %d]", "%s + %s * %d + %d"]) % (name, key, k, c)
                self.emit(d, "atomicAdd(%s, %s);" % (addr, self.value()))
            return "float"
        if kind == "channel":
            self.feature("channel")
            if any(p[0] == "int C" for p in self.tparams):
                trip, count = "C", dict(self.tparams)["int C"]
            else:
                trip = r.choice(["3", "kDtChannels", "4"])
                count = {"kDtChannels": "3"}.get(trip, trip)
            name, _ = self.elem_param("float", int(count))
            ch = self.fresh("ch")
            head = "for (int %s = 0; %s < %s; ++%s)" % (ch, ch, trip, ch)
            if r.random() < 0.6:
                self.feature("unroll-channel")
                if r.random() < 0.5 and "d14" not in AVOID:
                    self.emit(d, "#pragma unroll")
                else:
                    head = '_Pragma("unroll") ' + head
            self.emit(d, head)
            self.emit(d + 1, "atomicAdd(&%s[%s * %s + %s], %s * (float)(%s + 1));"
                      % (name, key, trip, ch, self.value(), ch))
            return "float"
        if kind in ("double", "int"):
            elem = "double" if kind == "double" else r.choice(
                ["int", "unsigned", "unsigned long long"])
            self.feature("double" if kind == "double" else "int")
            name, _ = self.elem_param(elem, 1)
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (name, key, self.value(elem)))
            return elem
        if kind == "helper-ptr":
            return self.helper_ptr(d, key)
        if kind == "helper-buf":
            return self.helper_buf(d, key)
        if kind == "macro":
            self.feature("macro")
            if r.random() < 0.5:
                name, _ = self.elem_param("float", 1)
                self.emit(d, "DT_ADD1(&%s[%s], %s);" % (name, key, self.value()))
            else:
                name = self.fresh("p")
                self.out_param("float3", "DT_KEYS * 3", "kF32", name)
                vec = self.fresh("d")
                self.emit(d, "const float3 %s = make_float3(%s, %s, %s);"
                          % (vec, self.value(), self.value(), self.value()))
                self.emit(d, "DT_ADD3(%s, %s, %s);" % (name, key, vec))
            return "float"
        if kind == "cond":
            # A nullable output (a kernel-parameter null test).
            self.feature("cond-field")
            name = self.fresh("gopt")
            self.out_param("float", "DT_KEYS", "kF32", name, optional=True)
            self.emit(d, "if (%s)" % name)
            self.emit(d + 1, "atomicAdd(&%s[%s], %s);" % (name, key, self.value()))
            return "float"
        if kind == "lane-cond":
            return self.lane_cond_fields(d, key)
        if kind in ("read", "alias"):
            return self.read_between(d, key, kind == "alias")
        if kind == "user":
            return self.user_atomic(d, key)
        if kind == "alias-dest":
            # Adds to one buffer under two parameter names.
            self.feature("alias-param")
            if not self.float_dests:
                name, _ = self.elem_param("float", 1)
                self.emit(d, "atomicAdd(&%s[%s], %s);" % (name, key, self.value()))
            name, b = self.rng.choice(self.float_dests)
            alias = self.fresh("alias")
            self.alias_param(b, "float", alias)
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (alias, key, self.value()))
            return "float"
        raise AssertionError(kind)

    def lane_cond_fields(self, d, key):
        """Fields under a lane-dependent if: one arm, both arms of an if/else
        (other fields or the same ones), or nested ifs."""
        self.feature("lane-cond-field")
        name, _ = self.elem_param("float", 1)
        shape = self.rng.random()
        self.emit(d, "if (%s) {" % self.lane_cond())
        self.emit(d + 1, "atomicAdd(&%s[%s], %s);" % (name, key, self.value()))
        if shape < 0.3:
            self.feature("lane-cond-else")
            other = name if self.rng.random() < 0.5 else self.elem_param("float", 1)[0]
            self.emit(d, "} else {")
            self.emit(d + 1, "atomicAdd(&%s[%s], %s);" % (other, key, self.value()))
        elif shape < 0.5:
            self.feature("lane-cond-nested")
            inner, _ = self.elem_param("float", 1)
            self.emit(d + 1, "if (%s)" % self.lane_cond())
            self.emit(d + 2, "atomicAdd(&%s[%s], %s);" % (inner, key, self.value()))
        self.emit(d, "}")
        return "float"

    def read_between(self, d, key, through_alias):
        """An add, then a read of the same element (the thread's own add is
        in it), then more sites follow in the caller."""
        r = self.rng
        self.feature("read-between")
        elem = r.choice(["float", "float", "int", "double"])
        name, b = self.elem_param(elem, 1)
        src = name
        if through_alias:
            self.feature("read-alias")
            if r.random() < 0.5:
                # The same buffer passed twice.
                self.feature("alias-param")
                src = self.fresh("alias")
                self.alias_param(b, elem, src, const=True)
            else:
                src = self.fresh("p")
                self.pre.append("const %s *%s = %s;" % (elem, src, name))
        v = self.fresh("v")
        self.emit(d, "const %s %s = %s;" % (elem, v, self.value(elem)))
        self.emit(d, "atomicAdd(&%s[%s], %s);" % (name, key, v))
        rv = self.fresh("r")
        self.emit(d, "const %s %s = %s[%s];" % (elem, rv, src, key))
        self.emit(d, "seen += (%s >= %s) ? 1 : 1000;" % (rv, v))
        self.uses_seen = True
        return elem

    def helper_ptr(self, d, key):
        """A __device__ helper whose pointer parameter differs per lane."""
        r = self.rng
        self.feature("devfn-ptr")
        helper = self.fresh("accumulate")
        form = r.choice(["index", "loop", "offset"])
        if form == "index":
            body = ("  atomicAdd(&grad[0], g.x);\n  atomicAdd(&grad[1], g.y);\n"
                    "  atomicAdd(&grad[2], g.z);")
        elif form == "loop":
            body = ("  const float v[3] = {g.x, g.y, g.z};\n"
                    "  for (int c = 0; c < 3; ++c)\n    atomicAdd(grad + c, v[c]);")
        else:
            body = "  atomicAdd(grad, g.x);\n  atomicAdd(grad + 2, g.z + g.y);"
        self.helper("__device__ void %s(float *grad, float3 g) {\n%s\n}"
                    % (helper, body))
        name, _ = self.elem_param("float", 3)
        self.emit(d, "%s(%s + 3 * %s, make_float3(%s, %s, %s));"
                  % (helper, name, key, self.value(), self.value(), self.value()))
        return "float"

    def helper_buf(self, d, key):
        """A helper taking (buffer, key): the buffer uniform or per lane (d2)."""
        r = self.rng
        self.feature("devfn-buf")
        helper = self.fresh("addGrad")
        self.helper(
            "__device__ void %s(float *g, float *h, int id, float v) {\n"
            "  atomicAdd(&g[id], v);\n  atomicAdd(&h[id], v * 2.f);\n}" % helper)
        ga, _ = self.elem_param("float", 1)
        gh, _ = self.elem_param("float", 1)
        if r.random() < 0.5:
            gb, _ = self.elem_param("float", 1)
            buf = "((threadIdx.x & 1) ? %s : %s)" % (ga, gb)
        else:
            buf = ga
        self.emit(d, "%s(%s, %s, %s, %s);" % (helper, buf, gh, key, self.value()))
        return "float"

    def user_atomic(self, d, key):
        """A user's own atomicAdd wrapper that also counts its calls (d6)."""
        self.feature("user-atomic")
        self.user_wrapper()
        name, _ = self.elem_param("float", 1)
        self.emit(d, "dbg::atomicAdd(&%s[%s], %s);" % (name, key, self.value()))
        return "float"

def make_kernel(seed, index):
    if index < len(fixed_cases.CASES):
        k = fixed_cases.build(Kernel(seed, index), index, AVOID)
    else:
        k = Gen(seed, index)
        k.generate()
    return k


def meta_entry(k):
    bufs = ",\n    ".join('{"%s", difftest::%s, difftest::%s, %s, %s}' % (
        n, e, role, count, "true" if opt else "false")
        for n, e, role, count, opt in k.buffers)
    return bufs


def write_set(args):
    os.makedirs(args.out, exist_ok=True)
    total = len(fixed_cases.CASES) + args.kernels
    indices = list(range(total)) if args.only is None else args.only
    kernels = []
    tus = []
    for start in range(0, len(indices), args.per_tu):
        chunk = indices[start:start + args.per_tu]
        tu = len(tus)
        body = []
        for local, index in enumerate(chunk):
            k = make_kernel(args.seed, index)
            k.tu, k.local = tu, local
            kernels.append(k)
            body.append(k)
        text = ["// Generated by gen_difftest.py --seed %d --avoid=%s "
                "(translation unit %d)." % (args.seed, ",".join(AVOID), tu)]
        text += PRELUDE.rstrip("\n").split("\n") + ["namespace DIFFTEST_NS {"]
        for k in body:
            # Line numbers of the sites, for coverage.py.
            k.site_lines = {}
            for line, tags in k.kernel_lines():
                text.append(line)
                if tags:
                    k.site_lines[len(text)] = sorted(tags)
            text.append("")
        text.append("void launch_tu%d(int local, const difftest::LaunchArgs &a) {" % tu)
        text.append("  switch (local) {")
        text += [k.launch_text() for k in body]
        text.append("  }\n}")
        text.append("} // namespace DIFFTEST_NS")
        write_if_changed(os.path.join(args.out, "tu_%d.cu" % tu), "\n".join(text) + "\n")
        tus.append(tu)
    meta = ['// Generated by gen_difftest.py --seed %d.' % args.seed,
            '#include "DiffTestAbi.h"', "", "namespace difftest_meta {"]
    for k in kernels:
        meta.append("const difftest::BufferSpec kBufs%d[] = {\n    %s};"
                    % (k.index, meta_entry(k)))
    meta.append("extern const difftest::KernelSpec kKernels[] = {")
    for k in kernels:
        meta.append('    {%d, "%s", %d, %d, "%s", kBufs%d, %d, %s, %d},' % (
            k.index, k.label, k.tu, k.local, ",".join(sorted(k.features)),
            k.index, len(k.buffers),
            "true" if any(b[4] for b in k.buffers) else "false", k.min_block))
    meta.append("};")
    meta.append("extern const int kKernelCount = %d;" % len(kernels))
    meta.append("extern const unsigned kGeneratorSeed = %du;" % args.seed)
    meta.append("} // namespace difftest_meta")
    write_if_changed(os.path.join(args.out, "meta.cpp"), "\n".join(meta) + "\n")
    for stale in os.listdir(args.out):
        if (stale.startswith("tu_") and stale.endswith(".cu")
                and int(stale[3:-3]) not in tus):
            os.remove(os.path.join(args.out, stale))
    write_if_changed(os.path.join(args.out, "tus.inc"),
                     "".join("DT_TU(%d)\n" % t for t in tus))
    manifest = {"seed": args.seed, "features": FEATURES, "kernels": [
        {"index": k.index, "name": k.label, "tu": k.tu,
         "features": sorted(k.features),
         "body_features": sorted(k.body_features),
         "site_lines": k.site_lines} for k in kernels]}
    write_if_changed(os.path.join(args.out, "manifest.json"),
                     json.dumps(manifest, indent=1) + "\n")


def write_if_changed(path, text):
    """Keeps time stamps (and rebuilds) of unchanged files."""
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def print_kernel(seed, index):
    k = make_kernel(seed, index)
    k.tu, k.local = 0, 0
    print("// gen_difftest.py --seed %d --avoid=%s --print %d: features %s"
          % (seed, ",".join(AVOID), index, ",".join(sorted(k.features))))
    print("#define DIFFTEST_NS standalone")
    print(PRELUDE)
    print("namespace DIFFTEST_NS {")
    print(k.kernel_text())
    print("} // namespace DIFFTEST_NS")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--kernels", type=int, default=1024,
                    help="generated kernels (the fixed cases come first)")
    ap.add_argument("--per-tu", type=int, default=64)
    ap.add_argument("--only", type=lambda s: [int(i) for i in s.split(",")],
                    help="comma-separated kernel indices (a minimal set)")
    ap.add_argument("--print", type=int, metavar="INDEX", dest="print_index")
    ap.add_argument("--avoid", default="",
                    help="known compile bugs of the tool whose shapes are not "
                    "generated (comma-separated, from %s; default: none, as "
                    "in the CMake sets)" % ",".join(KNOWN_COMPILE_BUGS))
    ap.add_argument("--out")
    args = ap.parse_args()
    AVOID[:] = [a for a in args.avoid.split(",") if a]
    for a in AVOID:
        if a not in KNOWN_COMPILE_BUGS:
            ap.error("--avoid: unknown shape %s" % a)
    if args.print_index is not None:
        print_kernel(args.seed, args.print_index)
        return
    if not args.out:
        ap.error("--out is required")
    write_set(args)


if __name__ == "__main__":
    main()
