#!/usr/bin/env python3
"""Random CUDA backward-style kernels for distwar-rewrite (seeded, stdlib only).

Each kernel scatters gradients with atomicAdd the ways real renderers do:
fields of vector types, stride-K arrays, channel loops with compile-time trip
counts (literal, constexpr, template parameter), macros (one atomic, x/y/z
as statements or in do { } while (0), address from a macro), templates on type and channel count, integer
counters, keys from parameters, loads and loop variables, divergence
(continue, if, nested ifs, if/else and else-if branches, early return), and
reads of a destination between sites (which the tool must refuse). Every
kernel is valid CUDA; the tool's output must be too.

  gen_kernels.py --seed S --files F --kernels K --out DIR
writes DIR/fuzz_<i>.cu, F files of K kernels each.
"""
import argparse
import os
import random

PRELUDE = """\
#define ADD1(PTR, VAL) atomicAdd((PTR), (VAL))
#define ADD3(buf, i, v)                                                        \\
  atomicAdd(&buf[i].x, v.x);                                                   \\
  atomicAdd(&buf[i].y, v.y);                                                   \\
  atomicAdd(&buf[i].z, v.z)
#define ADD3_DO(buf, i, v)                                                     \\
  do {                                                                         \\
    atomicAdd(&buf[i].x, v.x);                                                 \\
    atomicAdd(&buf[i].y, v.y);                                                 \\
    atomicAdd(&buf[i].z, v.z);                                                 \\
  } while (0)
#define AT(buf, i) (&(buf)[i])
constexpr int kChannels = 3;
"""

VEC_FIELDS = {"float2": "xy", "float3": "xyz", "float4": "xyzw"}


class Kernel:
    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.params = []
        self.lines = []
        self.templated = rng.random() < 0.25
        self.tparams = []
        self.counter = 0

    def fresh(self, prefix):
        self.counter += 1
        return "%s%d" % (prefix, self.counter)

    def value(self, ty="float"):
        rng = self.rng
        base = rng.choice(["v", "w * v", "v + w", "(v - 0.5f) * w",
                           "v * v + w"])
        if ty == "T":
            return "T(%s)" % base
        return base

    def param(self, decl):
        self.params.append(decl)

    def emit(self, indent, text):
        self.lines.append("  " * indent + text)

    def atomics(self, indent, key, ty):
        """One group's atomics on primitive `key`; returns nothing."""
        rng = self.rng
        n = rng.randint(1, 4)
        for _ in range(n):
            kind = rng.choice(["scalar", "vec", "stride", "channel", "macro1",
                               "macro3", "macroaddr", "int", "between",
                               "state"])
            if ty == "T" and kind in ("vec", "macro3", "int"):
                kind = "scalar"
            elem = "T" if ty == "T" else "float"
            if kind == "scalar":
                b = self.fresh("g")
                self.param("%s *%s" % (elem, b))
                self.emit(indent, "atomicAdd(&%s[%s], %s);" % (b, key, self.value(ty)))
            elif kind == "vec":
                vt = rng.choice(list(VEC_FIELDS))
                b = self.fresh("m")
                self.param("%s *%s" % (vt, b))
                for f in VEC_FIELDS[vt][: rng.randint(1, len(VEC_FIELDS[vt]))]:
                    self.emit(indent, "atomicAdd(&%s[%s].%s, %s);" % (b, key, f, self.value()))
            elif kind == "stride":
                b = self.fresh("s")
                k = rng.randint(2, 6)
                self.param("%s *%s" % (elem, b))
                for c in rng.sample(range(k), rng.randint(1, k)):
                    form = rng.choice(["&%s[%s * %d + %d]", "%s + %s * %d + %d"])
                    addr = form % (b, key, k, c)
                    self.emit(indent, "atomicAdd(%s, %s);" % (addr, self.value(ty)))
            elif kind == "channel":
                b = self.fresh("c")
                self.param("%s *%s" % (elem, b))
                if self.templated and "C" in self.tparams:
                    trip = "C"
                else:
                    trip = rng.choice(["3", "kChannels", "4"])
                ch = self.fresh("ch")
                lower = rng.choice(["0", "0", "1"])
                self.emit(indent, "for (int %s = %s; %s < %s; ++%s)" % (ch, lower, ch, trip, ch))
                self.emit(indent + 1, "atomicAdd(&%s[%s * (%s) + %s], %s * %s);"
                          % (b, key, trip, ch, self.value(ty), ch))
            elif kind == "macro1":
                b = self.fresh("a")
                self.param("%s *%s" % (elem, b))
                self.emit(indent, "ADD1(&%s[%s], %s);" % (b, key, self.value(ty)))
            elif kind == "macro3":
                b = self.fresh("p")
                self.param("float3 *%s" % b)
                vec = self.fresh("d")
                self.emit(indent, "const float3 %s = make_float3(v, w, v * w);" % vec)
                # The x/y/z macro as statements or as a do-while(0).
                macro = rng.choice(["ADD3", "ADD3_DO"])
                self.emit(indent, "%s(%s, %s, %s);" % (macro, b, key, vec))
            elif kind == "macroaddr":
                b = self.fresh("r")
                self.param("%s *%s" % (elem, b))
                self.emit(indent, "atomicAdd(AT(%s, %s), %s);" % (b, key, self.value(ty)))
            elif kind == "int":
                b = self.fresh("n")
                ity = rng.choice(["int", "unsigned int", "unsigned long long"])
                one = {"int": "1", "unsigned int": "1u", "unsigned long long": "1ull"}[ity]
                self.param("%s *%s" % (ity, b))
                self.emit(indent, "atomicAdd(&%s[%s], %s);" % (b, key, one))
            elif kind == "between":
                # A read of a destination between two sites: must be refused.
                b = self.fresh("x")
                self.param("%s *%s" % (elem, b))
                self.emit(indent, "atomicAdd(&%s[%s], %s);" % (b, key, self.value(ty)))
                self.emit(indent, "w += (float)%s[%s + 1];" % (b, key))
                self.emit(indent, "atomicAdd(&%s[%s + 2], %s);" % (b, key, self.value(ty)))
            elif kind == "state":
                self.emit(indent, "w = w * 0.5f + v;")
        if rng.random() < 0.3:
            self.emit(indent, "if (w > 1.f) {")
            b = self.fresh("u")
            self.param("%s *%s" % (elem, b))
            self.emit(indent + 1, "atomicAdd(&%s[%s], %s);" % (b, key, self.value(ty)))
            self.emit(indent, "}")

    def guarded(self, indent, key, ty):
        """One group, sometimes under nested ifs or in one branch of an
        if/else or else-if chain (some conditions with side effects)."""
        rng = self.rng
        shape = rng.random()
        if shape < 0.15:
            self.emit(indent, "if (v > 0.2f) {")
            self.emit(indent + 1, "w += v;")
            self.emit(indent + 1, "if (w < 4.f) {")
            self.atomics(indent + 2, key, ty)
            self.emit(indent + 1, "}")
            self.emit(indent + 1, "w *= 0.5f;")
            self.emit(indent, "}")
        elif shape < 0.3:
            arm = rng.choice(["then", "else", "elseif", "sideeffect"])
            cond = "v * j > 1.f"
            if arm == "sideeffect":
                cond = "(w += 1.f) > 2.f"
            if arm == "else":
                self.emit(indent, "if (%s) {" % cond)
                self.emit(indent + 1, "w -= v;")
                self.emit(indent, "} else {")
                self.atomics(indent + 1, key, ty)
                self.emit(indent, "}")
            elif arm == "elseif":
                self.emit(indent, "if (v > 2.f) {")
                self.emit(indent + 1, "w = 0.f;")
                self.emit(indent, "} else if (w > 0.5f) {")
                self.atomics(indent + 1, key, ty)
                self.emit(indent, "} else")
                self.emit(indent + 1, "w += 1.f;")
            else:
                self.emit(indent, "if (%s) {" % cond)
                self.atomics(indent + 1, key, ty)
                self.emit(indent, "} else {")
                self.emit(indent + 1, "w -= v;")
                self.emit(indent, "}")
        else:
            self.atomics(indent, key, ty)

    def body(self):
        rng = self.rng
        ty = "T" if self.templated and "T" in self.tparams else "float"
        self.emit(1, "const int tid = blockIdx.x * blockDim.x + threadIdx.x;")
        if rng.random() < 0.3:
            self.emit(1, "if (tid >= n) return;")
        self.emit(1, "float v = vals[tid % 64], w = 1.f;")
        shape = rng.choice(["flat", "loop", "loop", "ifkey"])
        if shape == "flat":
            key = rng.choice(["ids[tid]", "id", "tid / 4"])
            if key == "id":
                self.emit(1, "const int id = ids[tid];")
            self.atomics(1, key, ty)
        elif shape == "ifkey":
            self.emit(1, "const int id = ids[tid];")
            self.emit(1, "if (id >= 0) {")
            self.atomics(2, "id", ty)
            self.emit(1, "}")
        else:
            self.emit(1, "for (int j = 0; j < n; ++j) {")
            self.emit(2, "const int id = ids[(tid + j) % 64];")
            if rng.random() < 0.4:
                self.emit(2, "if (v * j > 3.f) continue;")
            self.emit(2, "v = v * 0.9f + 0.1f;")
            self.guarded(2, rng.choice(["id", "id", "j"]), ty)
            if rng.random() < 0.3:
                self.atomics(2, "id + 1", ty)
            self.emit(1, "}")

    def render(self):
        if self.templated:
            self.tparams = self.rng.choice([["T"], ["C"], ["T", "C"]])
        self.body()
        head = ""
        params = ["const int *ids", "const float *vals", "int n"] + self.params
        if self.templated:
            tp = ", ".join("typename T" if p == "T" else "int C" for p in self.tparams)
            head = "template <%s>\n" % tp
        text = "%s__global__ void %s(%s) {\n%s\n}\n" % (
            head, self.name, ", ".join(params), "\n".join(self.lines))
        if self.templated:
            for args in self.instantiations():
                types = []
                for p in params:
                    ty = p.rsplit("*", 1)[0] + "*" if "*" in p else p.rsplit(" ", 1)[0]
                    if ty.startswith("T "):
                        ty = args["T"] + ty[1:]
                    types.append(ty)
                targs = ", ".join(args[p] for p in self.tparams)
                text += "template __global__ void %s<%s>(%s);\n" % (
                    self.name, targs, ", ".join(types))
        return text

    def instantiations(self):
        out = []
        for t in ["float", "double"]:
            for c in ["3", "4"]:
                out.append({"T": t, "C": c})
        seen, uniq = set(), []
        for a in out:
            k = tuple(a[p] for p in self.tparams)
            if k not in seen:
                seen.add(k)
                uniq.append(a)
        return uniq


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--files", type=int, default=12)
    ap.add_argument("--kernels", type=int, default=25)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for f in range(args.files):
        parts = ["// Generated by gen_kernels.py --seed %d (file %d).\n" % (args.seed, f),
                 PRELUDE]
        for k in range(args.kernels):
            parts.append(Kernel(rng, "fuzz%d_%d" % (f, k)).render())
        with open(os.path.join(args.out, "fuzz_%d.cu" % f), "w") as out:
            out.write("\n".join(parts))


if __name__ == "__main__":
    main()
