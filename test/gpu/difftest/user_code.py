"""What users write around their atomics, for gen_difftest.py.

A mixin of gen_difftest.Gen. The generator's kernels are written from one
random stream per kernel; the constructs here draw from a second one,
random.Random("<seed>:<index>:user"), and never from the first, so a kernel
that gets none of them (about half) is the same text as before they existed,
and one that gets some keeps its skeleton (shape, keys, skips, sites) and
gains lines around it. Their names come from their own counter (u...), so the
skeleton's names do not move either.

The constructs, each a coverage feature:
  lambda-val, lambda-ref   lambdas capturing by value / by reference, called
                           between sites
  lambda-rekey             a lambda that changes the key between sites
  lambda-read              a lambda reading a destination through a capture
                           right after the thread's own add to it
  lambda-site              atomics inside a lambda
  lambda-bound, lambda-shrink  a lambda as the loop bound; `[&] { --m; }`
                           called in a loop whose trip count is m
  devfn-read               a __device__ function reading a destination
                           (through a __device__ global pointer or a struct
                           argument's member) between sites
  ref-method               writes through methods returning references
                           (`p.grad() += DT_KEYS`, `key_of(p) = ...`,
                           `acc.at(0) = ...`) changing a key or a base pointer
  subscript-pure/-state/-lane  user operator[]: a pure view of a destination,
                           a stateful counter, one reading threadIdx, in keys
  struct-param             a struct-of-pointers kernel parameter (adds through
                           a member, reads a destination through another)
  global-ptr               `__device__ float *` destinations
  constant-data            `__constant__` tables in keys and values
  alias-array              a local key array changed through a pointer alias
  enum-key                 enums as keys and as field offsets
  const-array, constexpr-after  `const int K = 4; float tmp[K];` in the
                           iteration; `constexpr int K` used after the atomics
                           (`scaled<K>()`, static_assert)
  anon-type                types of an anonymous namespace as key and pointer
                           types
  laneset-ptr              `(k & 1) ? &g[k] : nullptr` added if set, then
                           `k += 1` before the next site
  template-twice           a __device__ template instantiated twice
  macro-multi              macros expanding to several statements (one also
                           advances its key argument)
  goto-site                a per-lane goto over a site or over a key change

The harness's rules hold: every value added is >= 0 (the lambdas and
helpers only scale, add or square non-negative values); a value read from a
destination is read right after the thread's own add to that element, with
no key change between, and only feeds `seen`; keys stay in [0, DT_KEYS)
(buffers indexed by a key that may be one past are DT_KEYS + 1 long); loop
bounds only shrink.
"""
import random

# Shapes that --avoid can leave out while the tool turns them into code nvcc
# rejects (gen_difftest.py): keys of enum type, named or in an anonymous
# namespace (the tool declares its key variable with the key's type and
# starts it at 0); a `constexpr` local used after its group; an add under a
# test of a local of the block around it (butterfly: the test is evaluated
# again at the end of the iteration, where the local is gone). AVOID is
# gen_difftest.AVOID.
KNOWN_COMPILE_BUGS = ["enum-key-type", "constexpr-after", "laneset-local"]
AVOID = []

# The units an avoided shape leaves out.
UNIT_SHAPES = {"constexpr-after": "constexpr-after",
               "laneset-ptr": "laneset-local"}

USER_FEATURES = [
    "lambda-val", "lambda-ref", "lambda-rekey", "lambda-read", "lambda-site",
    "lambda-bound", "lambda-shrink", "devfn-read", "ref-method",
    "subscript-pure", "subscript-state", "subscript-lane", "struct-param",
    "global-ptr", "constant-data", "alias-array", "enum-key", "const-array",
    "constexpr-after", "anon-type", "laneset-ptr", "template-twice",
    "macro-multi", "goto-site",
]

# The share of generated kernels that get user constructs.
USER_SHARE = 0.55

# Multi-statement macros (in the prelude of every translation unit).
USER_PRELUDE = """\
#define DT_ADD_PAIR(g, h, i, v)                                                \\
  atomicAdd(&(g)[i], (v));                                                     \\
  atomicAdd(&(h)[i], 2.f * (v))
#define DT_ADD_STEP(g, i, v)                                                   \\
  atomicAdd(&(g)[i], (v));                                                     \\
  (i) = ((i) + 1) % DT_KEYS
#define DT_ADD_BLOCK(g, h, i, v)                                               \\
  do {                                                                         \\
    const float dt_v = (v);                                                    \\
    atomicAdd(&(g)[i], dt_v);                                                  \\
    atomicAdd(&(h)[i], 0.5f * dt_v);                                           \\
  } while (0)
"""

# Units written between (or after) a group's sites, with their weights.
UNITS = [
    ("lambda-val", 2), ("lambda-ref", 2), ("rekey", 4), ("lambda-read", 3),
    ("lambda-site", 2), ("devfn-read", 3), ("struct-param", 3),
    ("global-ptr", 2), ("subscript", 4), ("ref-method", 4),
    ("alias-array", 3), ("enum-field", 1), ("const-array", 2),
    ("constexpr-after", 2), ("anon-type", 2), ("laneset-ptr", 4),
    ("template-twice", 2), ("macro-multi", 3), ("goto-site", 2),
    ("constant-data", 1), ("shrink", 2),
]


class UserCode:
    """Gen's user constructs; every draw is from self.urng."""

    # -- set-up and bookkeeping -------------------------------------------------
    def user_init(self, seed, index):
        self.urng = random.Random("%d:%d:user" % (seed, index))
        self.user = self.urng.random() < USER_SHARE
        self.ucounter = 0
        self.mutable_keys = set()
        self.alias_keys = {}   # key expression -> the pointer that aliases it
        self.shrink_call = None  # `ushrinkN();` not yet written in the body
        self.after_group = []  # lines written after the current group
        self.body_top = None  # (index in self.lines, depth) of the body's top

    def ufresh(self, prefix):
        self.ucounter += 1
        return "u%s%d" % (prefix, self.ucounter)

    def uvalue(self):
        """A non-negative float of this iteration."""
        return self.urng.choice([
            "a", "a * w", "a + t", "T * a", "expf(-a)", "a * a + 0.5f",
            "w * 0.5f + a", "(a + 1.f) * (t + 0.25f)"])

    def ulane_cond(self):
        return self.urng.choice(["a < 0.2f", "a > t", "(tid & 3) == 1",
                                 "(threadIdx.x & 31) < 7", "a * t > 0.3f"])

    def uindex(self, in_loop):
        """An index the same in every lane (the loop counter, the block)."""
        return "j" if in_loop else "(int)blockIdx.x"

    def ubuf(self, elem="float", count="DT_KEYS", ctype=None):
        """A new atomic output (kept out of the skeleton's float_dests, whose
        draws must not change)."""
        name = self.ufresh({"float": "g", "double": "gd"}[elem])
        b = self.out_param(ctype or elem, count,
                           {"float": "kF32", "double": "kF64"}[elem], name)
        if ctype:
            self.params[-1].arg = "(%s *)a.out[%d]" % (elem, b)
        return name, b

    def uhelper(self, text):
        self.helper(text)

    def uparam(self, ctype, name, fields):
        """A by-value class parameter built by the launcher from `fields`
        (expressions, `{b}` for buffer b's pointer)."""
        self.in_param("%s %s" % (ctype, name), "%s::%s{%s}" % (
            self.name, ctype, ", ".join(fields)))

    def set_symbol(self, symbol, b):
        """The launcher points the __device__ pointer `symbol` at buffer b."""
        self.globals_setup.append(
            "cudaMemcpyToSymbol(%s::%s, &a.out[%d], sizeof(void *));"
            % (self.name, symbol, b))

    # -- hooks called by Gen -------------------------------------------------------
    def key_type(self, name):
        """`const int` or, in some user kernels, `int` (a key a construct may
        change later)."""
        if self.user and self.urng.random() < 0.45:
            self.mutable_keys.add(name)
            return "int"
        return "const int"

    def user_key(self, depth, in_loop, name):
        """A key derived from `name` by a user construct, or `name`."""
        if not self.user or self.urng.random() < 0.55:
            return name
        r = self.urng
        kind = r.choice(["enum", "anon-int", "anon-box", "constant",
                         "lane-subscript", "alias-array", "alias-array"])
        if kind == "enum" and "enum-key-type" in AVOID:
            return name
        d = depth
        if kind == "enum":
            self.feature("enum-key")
            enum = self.ufresh("Key")
            anon = r.random() < 0.4
            text = "enum %s : int { k%sLo = 0, k%sHi = DT_KEYS - 1 };" % (
                enum, enum, enum)
            if anon:
                self.feature("anon-type")
                text = "namespace {\n%s\n} // namespace" % text
            self.uhelper(text)
            key = self.ufresh("ek")
            self.emit(d, "const %s %s = (%s)(%s);" % (enum, key, enum, name))
        elif kind == "anon-int":
            self.feature("anon-type")
            idx = self.ufresh("Idx")
            self.uhelper("namespace {\nusing %s = int;\n} // namespace" % idx)
            key = self.ufresh("ak")
            self.emit(d, "const %s %s = %s;" % (idx, key, name))
        elif kind == "anon-box":
            self.feature("anon-type")
            box = self.ufresh("Box")
            self.uhelper("namespace {\nstruct %s {\n  int v;\n};\n"
                         "} // namespace" % box)
            var = self.ufresh("bx")
            self.emit(d, "const %s %s{%s};" % (box, var, name))
            key = "%s.v" % var
        elif kind == "constant":
            self.feature("constant-data")
            table = self.ufresh("kPerm")
            self.uhelper("__constant__ int %s[8] = {3, 1, 4, 1, 5, 9, 2, 6};"
                         % table)
            key = self.ufresh("ck")
            self.emit(d, "const int %s = (%s + %s[%s & 7]) %% DT_KEYS;" % (
                key, name, table, self.uindex(in_loop)))
        elif kind == "lane-subscript":
            self.feature("subscript-lane")
            acc = self.lane_subscript()
            key = self.ufresh("lk")
            self.emit(d, "const int %s = (%s + %s[%s]) %% DT_KEYS;" % (
                key, name, acc, self.uindex(in_loop)))
        else:
            self.feature("alias-array")
            arr, ptr = self.ufresh("ka"), self.ufresh("pk")
            self.emit(d, "int %s[2] = {%s, %s};" % (arr, name, name))
            self.emit(d, "int *%s = %s;" % (
                ptr, r.choice([arr, "&%s[0]" % arr])))
            if r.random() < 0.4:
                # The alias makes a key that looked uniform per lane.
                self.emit(d, "%s[0] = (%s[0] + (int)(threadIdx.x & 1)) %% "
                          "DT_KEYS;" % (ptr, arr))
            key = "%s[0]" % arr
            self.alias_keys[key] = (arr, ptr)
        return key

    def user_bound(self, depth, bound):
        """The loop bound, maybe through a lambda or a local that a lambda
        called in the body shrinks."""
        if not self.user:
            return bound
        r = self.urng
        if r.random() < 0.3:
            self.feature("lambda-shrink")
            m, shrink = self.ufresh("m"), self.ufresh("shrink")
            self.emit(depth, "int %s = %s;" % (m, bound))
            self.emit(depth, "auto %s = [&] { --%s; };" % (shrink, m))
            self.shrink_call = "%s();" % shrink
            bound = m
            if r.random() < 0.5:
                self.feature("lambda-bound")
                lam = self.ufresh("bound")
                self.emit(depth, "auto %s = [&] { return %s; };" % (lam, m))
                bound = "%s()" % lam
        elif r.random() < 0.3:
            self.feature("lambda-bound")
            lam = self.ufresh("bound")
            self.emit(depth, "auto %s = [%s] { return %s; };" % (
                lam, r.choice(["=", "&"]), bound))
            bound = "%s()" % lam
        return bound

    def user_between(self, d, key, in_loop):
        """Maybe a unit of user code between a group's sites; returns the
        element types it added."""
        if not self.user or self.urng.random() < 0.62:
            return set()
        names = [u for u, _ in UNITS]
        weights = [w for _, w in UNITS]
        unit = self.urng.choices(names, weights)[0]
        if UNIT_SHAPES.get(unit) in AVOID:
            unit = "lambda-ref"
        # A scope of its own: the unit's features are its sites', not those
        # of the skeleton's site written next.
        with self.tagging():
            return getattr(self, "unit_" + unit.replace("-", "_"))(
                d, key, in_loop)

    def user_body_end(self, d):
        """The shrinking call, where no group wrote it."""
        if self.shrink_call:
            self.emit(d, self.shrink_call)
            self.shrink_call = None

    # -- helpers' types ---------------------------------------------------------------
    def lane_subscript(self):
        """A local accessor whose operator[] reads threadIdx; its name."""
        acc = self.ufresh("lane")
        cls = acc.capitalize()
        self.uhelper(
            "struct %s {\n  const int *ids;\n"
            "  __device__ int operator[](int j) const {\n"
            "    return ids[(j + (int)(threadIdx.x & 3)) %% DT_IDS];\n  }\n};"
            % cls)
        if self.urng.random() < 0.5:
            self.uparam(cls, acc, ["a.in.ids"])
        else:
            self.emit_pre("const %s %s{ids};" % (cls, acc))
        return acc

    def emit_pre(self, text):
        self.pre.append(text)

    # -- units ----------------------------------------------------------------------------
    def unit_lambda_val(self, d, key, in_loop):
        self.feature("lambda-val")
        lam = self.ufresh("mix")
        g, _ = self.ubuf()
        self.emit(d, "auto %s = [=](float v) { return v * 0.5f + a; };" % lam)
        self.emit(d, "atomicAdd(&%s[%s], %s(%s));" % (g, key, lam, self.uvalue()))
        if self.urng.random() < 0.5:
            self.emit(d, "w = %s(w);" % lam)
        return {"float"}

    def unit_lambda_ref(self, d, key, in_loop):
        self.feature("lambda-ref")
        lam = self.ufresh("bump")
        self.emit(d, "auto %s = [&] {" % lam)
        self.emit(d + 1, self.urng.choice(["T = T * 0.5f + 0.25f;",
                                           "w += a;", "seen += 2;"]))
        self.emit(d, "};")
        self.emit(d, "%s();" % lam)
        self.uses_seen = True
        return set()

    def rekey_expr(self, k):
        return self.urng.choice([
            "(%s + 5) %% DT_KEYS" % k, "(%s + (int)(threadIdx.x & 1)) %% DT_KEYS" % k,
            "(%s * 3 + 1) %% DT_KEYS" % k, "(%s + (a > 0.5f)) %% DT_KEYS" % k])

    def unit_rekey(self, d, key, in_loop):
        """A by-reference lambda changes the group's key (if it can be
        assigned) or a copy of it between two adds."""
        self.feature("lambda-rekey")
        lam = self.ufresh("rekey")
        if key in self.mutable_keys and self.urng.random() < 0.6:
            k = key
            out = set()
        else:
            k = self.ufresh("k")
            self.emit(d, "int %s = %s;" % (k, key))
            g, _ = self.ubuf()
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (g, k, self.uvalue()))
            out = {"float"}
        capture = self.urng.choice(["&", "&%s" % k])
        expr = self.rekey_expr(k)
        if capture != "&" and "(a >" in expr:
            capture += ", a"
        self.emit(d, "auto %s = [%s] { %s = %s; };" % (lam, capture, k, expr))
        self.emit(d, "%s();" % lam)
        if k != key:
            g, _ = self.ubuf()
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (g, k, self.uvalue()))
        return out

    def add_then_read(self, d, key, g, read):
        """The thread adds v to g[key], then `read` (an expression of the
        same element) feeds `seen`."""
        v = self.ufresh("v")
        self.emit(d, "const float %s = %s;" % (v, self.uvalue()))
        self.emit(d, "atomicAdd(&%s[%s], %s);" % (g, key, v))
        self.emit(d, "seen += (%s >= %s) ? 1 : 1000;" % (read, v))
        self.uses_seen = True

    def unit_lambda_read(self, d, key, in_loop):
        self.feature("lambda-read")
        g, _ = self.ubuf()
        lam = self.ufresh("peek")
        captures = ["&", "="]
        if key.isidentifier():
            captures.append("%s, %s" % (g, key))
        capture = self.urng.choice(captures)
        self.emit(d, "auto %s = [%s] { return %s[%s]; };" % (lam, capture, g, key))
        self.add_then_read(d, key, g, "%s()" % lam)
        return {"float"}

    def unit_lambda_site(self, d, key, in_loop):
        self.feature("lambda-site")
        g, _ = self.ubuf()
        h, _ = self.ubuf()
        lam = self.ufresh("add")
        self.emit(d, "auto %s = [&](float v) {" % lam)
        self.emit(d + 1, "atomicAdd(&%s[%s], v);" % (g, key))
        self.emit(d + 1, "atomicAdd(&%s[%s], 2.f * v);" % (h, key))
        self.emit(d, "};")
        self.emit(d, "%s(%s);" % (lam, self.uvalue()))
        if self.urng.random() < 0.4:
            self.emit(d, "%s(%s);" % (lam, self.uvalue()))
        return {"float"}

    def unit_devfn_read(self, d, key, in_loop):
        """A helper reads the destination the thread just added to, through
        a __device__ pointer to it or a struct argument's member."""
        self.feature("devfn-read")
        g, b = self.ubuf()
        peek = self.ufresh("peek")
        if self.urng.random() < 0.5:
            self.feature("global-ptr")
            sym = self.ufresh("gview")
            self.uhelper("__device__ const float *%s;\n"
                         "__device__ float %s(int i) { return %s[i]; }"
                         % (sym, peek, sym))
            self.set_symbol(sym, b)
            read = "%s(%s)" % (peek, key)
        else:
            src = self.ufresh("Src")
            self.uhelper("struct %s {\n  const float *p;\n};\n"
                         "__device__ float %s(%s s, int i) { return s.p[i]; }"
                         % (src, peek, self.urng.choice(
                             ["const %s &" % src, src])))
            read = "%s(%s{%s}, %s)" % (peek, src, g, key)
        self.add_then_read(d, key, g, read)
        return {"float"}

    def unit_struct_param(self, d, key, in_loop):
        """Adds through members of a struct-of-pointers parameter; a third
        member reads the first's buffer."""
        self.feature("struct-param")
        cls = self.ufresh("Grads")
        var = cls.lower()
        self.uhelper("struct %s {\n  float *a;\n  float *b;\n"
                     "  const float *ra;\n};" % cls)
        ga, ba = self.buffer_only()
        gb, bb = self.buffer_only()
        self.uparam(cls, var, ["(float *)a.out[%d]" % ba, "(float *)a.out[%d]" % bb,
                               "(const float *)a.out[%d]" % ba])
        if self.urng.random() < 0.6:
            self.add_then_read(d, key, "%s.a" % var, "%s.ra[%s]" % (var, key))
        else:
            self.emit(d, "atomicAdd(&%s.a[%s], %s);" % (var, key, self.uvalue()))
        self.emit(d, "atomicAdd(%s.b + %s, %s);" % (var, key, self.uvalue()))
        return {"float"}

    def buffer_only(self, count="DT_KEYS"):
        """A new float atomic buffer with no parameter of its own."""
        name = self.ufresh("buf")
        return name, self.buffer("kF32", "kAtomic", count, name=name)

    def unit_global_ptr(self, d, key, in_loop):
        self.feature("global-ptr")
        sym = self.ufresh("gbuf")
        _, b = self.buffer_only()
        self.uhelper("__device__ float *%s;" % sym)
        self.set_symbol(sym, b)
        self.emit(d, "atomicAdd(&%s[%s], %s);" % (sym, key, self.uvalue()))
        if self.urng.random() < 0.5:
            self.emit(d, "atomicAdd(%s + %s, %s);" % (sym, key, self.uvalue()))
        return {"float"}

    def unit_subscript(self, d, key, in_loop):
        r = self.urng
        kind = r.choice(["pure", "pure", "state", "lane"])
        self.feature("subscript-" + kind)
        if kind == "pure":
            cls = self.ufresh("View")
            var = cls.lower()
            self.uhelper("struct %s {\n  float *d;\n"
                         "  __device__ float &operator[](int i) const "
                         "{ return d[i]; }\n};" % cls)
            g, b = self.ubuf()
            if r.random() < 0.5:
                self.uparam(cls, var, ["(float *)a.out[%d]" % b])
            else:
                self.emit(d, "const %s %s{%s};" % (cls, var, g))
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (var, key, self.uvalue()))
            if r.random() < 0.5:
                self.add_then_read(d, key, var, "%s[%s]" % (var, key))
            return {"float"}
        g, _ = self.ubuf()
        h, _ = self.ubuf()
        if kind == "state":
            cls = self.ufresh("Count")
            var = cls.lower()
            self.uhelper("struct %s {\n  const int *ids;\n  int calls;\n"
                         "  __device__ int operator[](int j) {\n"
                         "    return (ids[j %% DT_IDS] + calls++) %% DT_KEYS;\n"
                         "  }\n};" % cls)
            if r.random() < 0.5:
                self.uparam(cls, var, ["a.in.ids", "0"])
            else:
                self.emit(d, "%s %s{ids, 0};" % (cls, var))
        else:
            var = self.lane_subscript()
        idx = r.choice([self.uindex(in_loop), key])
        self.emit(d, "atomicAdd(&%s[%s[%s]], %s);" % (g, var, idx, self.uvalue()))
        self.emit(d, "atomicAdd(&%s[%s[%s]], %s);" % (h, var, idx, self.uvalue()))
        return {"float"}

    def prim_class(self):
        """A primitive's buffer and key with methods returning references,
        and a free function returning its key by reference."""
        cls = self.ufresh("Prim")
        self.uhelper(
            "struct %s {\n  float *g;\n  int id;\n"
            "  __device__ float *&grad() { return g; }\n"
            "  __device__ int &key() { return id; }\n};\n"
            "__device__ int &key_of(%s &p) { return p.id; }" % (cls, cls))
        return cls

    def unit_ref_method(self, d, key, in_loop):
        r = self.urng
        self.feature("ref-method")
        form = r.choice(["grad", "key_of", "key", "param", "at", "at-ptr"])
        v1, v2 = self.uvalue(), self.uvalue()
        if form in ("grad", "key_of", "key"):
            cls = self.prim_class()
            p = self.ufresh("p")
            g, _ = self.ubuf(count="DT_KEYS * 2")
            self.emit(d, "%s %s{%s, %s};" % (cls, p, g, key))
            site = r.choice(["&%s.g[%s.id]", "&%s.grad()[%s.key()]"]) % (p, p)
            self.emit(d, "atomicAdd(%s, %s);" % (site, v1))
            if form == "grad":
                self.emit(d, "%s.grad() += DT_KEYS;" % p)
            elif form == "key_of":
                self.emit(d, "key_of(%s) = %s;" % (p, self.rekey_expr("%s.id" % p)))
            else:
                self.emit(d, "%s.key() = %s;" % (p, self.rekey_expr("%s.key()" % p)))
            self.emit(d, "atomicAdd(%s, %s);" % (site, v2))
        elif form == "param":
            # The kernel's own by-value parameter, written through a method.
            cls = self.prim_class()
            p = self.ufresh("pp")
            _, b = self.buffer_only(count="DT_KEYS * 2")
            self.uparam(cls, p, ["(float *)a.out[%d]" % b, "0"])
            self.emit(d, "key_of(%s) = %s;" % (p, key))
            self.emit(d, "atomicAdd(&%s.g[%s.id], %s);" % (p, p, v1))
            self.emit(d, "%s.grad() += DT_KEYS;" % p)
            self.emit(d, "atomicAdd(&%s.g[%s.id], %s);" % (p, p, v2))
            self.emit(d, "%s.grad() -= DT_KEYS;" % p)
        elif form == "at":
            cls = self.ufresh("Keys")
            self.uhelper("struct %s {\n  int k[2];\n"
                         "  __device__ int &at(int i) { return k[i]; }\n};" % cls)
            acc = self.ufresh("acc")
            g, _ = self.ubuf()
            h, _ = self.ubuf()
            self.emit(d, "%s %s{{%s, %s}};" % (cls, acc, key, key))
            self.emit(d, "atomicAdd(&%s[%s.k[0]], %s);" % (g, acc, v1))
            self.emit(d, "%s.at(0) = %s;" % (acc, self.rekey_expr("%s.k[1]" % acc)))
            self.emit(d, "atomicAdd(&%s[%s.k[0]], %s);" % (h, acc, v2))
        else:
            cls = self.ufresh("Bufs")
            self.uhelper("struct %s {\n  float *p[2];\n"
                         "  __device__ float *&at(int i) { return p[i]; }\n};"
                         % cls)
            acc = self.ufresh("bufs")
            g, _ = self.ubuf()
            h, _ = self.ubuf()
            self.emit(d, "%s %s{{%s, %s}};" % (cls, acc, g, h))
            self.emit(d, "atomicAdd(&%s.p[0][%s], %s);" % (acc, key, v1))
            self.emit(d, "%s.at(0) = %s.p[1];" % (acc, acc))
            self.emit(d, "atomicAdd(&%s.p[0][%s], %s);" % (acc, key, v2))
        return {"float"}

    def unit_alias_array(self, d, key, in_loop):
        """A key array written through a pointer between two adds (the
        group's key itself where it is such an array)."""
        r = self.urng
        self.feature("alias-array")
        if key in self.alias_keys and r.random() < 0.7:
            arr, ptr = self.alias_keys[key]
            self.emit(d, "%s[0] = %s;" % (ptr, self.rekey_expr("%s[1]" % arr)))
            return set()
        arr, ptr = self.ufresh("ka"), self.ufresh("pk")
        g, _ = self.ubuf()
        h, _ = self.ubuf()
        self.emit(d, "int %s[2] = {%s, 40 %% DT_KEYS};" % (arr, key))
        self.emit(d, "int *%s = %s;" % (ptr, r.choice([arr, "&%s[0]" % arr])))
        self.emit(d, "atomicAdd(&%s[%s[0]], %s);" % (g, arr, self.uvalue()))
        self.emit(d, r.choice(["%s[0] = %s[1];", "*%s = %s[1];"]) % (ptr, arr))
        self.emit(d, "atomicAdd(&%s[%s[0]], %s);" % (h, arr, self.uvalue()))
        return {"float"}

    def unit_enum_field(self, d, key, in_loop):
        self.feature("enum-key")
        enum = self.ufresh("Field")
        g, _ = self.ubuf(count="DT_KEYS * 3")
        if self.urng.random() < 0.5:
            self.uhelper("enum %s { k%sA, k%sB, k%sC };" % ((enum,) * 4))
            fields = ["k%sA" % enum, "k%sC" % enum]
        else:
            self.uhelper("enum class %s : int { a, b, c };" % enum)
            fields = ["(int)%s::b" % enum, "(int)%s::c" % enum]
        for f in fields:
            self.emit(d, "atomicAdd(&%s[%s * 3 + %s], %s);" % (g, key, f, self.uvalue()))
        return {"float"}

    def unit_const_array(self, d, key, in_loop):
        self.feature("const-array")
        k, tmp, c = self.ufresh("K"), self.ufresh("tmp"), self.ufresh("c")
        g, _ = self.ubuf()
        self.emit(d, "const int %s = 4;" % k)
        self.emit(d, "float %s[%s];" % (tmp, k))
        self.emit(d, "for (int %s = 0; %s < %s; ++%s)" % (c, c, k, c))
        self.emit(d + 1, "%s[%s] = a * (float)(%s + 1);" % (tmp, c, c))
        self.emit(d, "atomicAdd(&%s[%s], %s[0] + %s[%s - 1]);" % (g, key, tmp, tmp, k))
        return {"float"}

    def unit_constexpr_after(self, d, key, in_loop):
        self.feature("constexpr-after")
        k, scaled = self.ufresh("S"), self.ufresh("scaled")
        self.uhelper("template <int S> __device__ float %s(float v) "
                     "{ return v * (float)S; }" % scaled)
        g, _ = self.ubuf(count="DT_KEYS * 3")
        self.emit(d, "constexpr int %s = 3;" % k)
        self.emit(d, "atomicAdd(&%s[%s * %s + 1], %s);" % (g, key, k, self.uvalue()))
        self.emit(d, "atomicAdd(&%s[%s * %s + 2], %s);" % (g, key, k, self.uvalue()))
        self.after_group.append("static_assert(%s == 3, \"three fields\");" % k)
        self.after_group.append("w = w * 0.5f + %s<%s>(a) * 0.125f;" % (scaled, k))
        return {"float"}

    def unit_anon_type(self, d, key, in_loop):
        """A float type of an anonymous namespace as a parameter's and a
        local pointer's type."""
        self.feature("anon-type")
        real = self.ufresh("Real")
        self.uhelper("namespace {\ntypedef float %s;\n} // namespace" % real)
        g, _ = self.ubuf(ctype=real)
        if self.urng.random() < 0.5:
            ptr = self.ufresh("dst")
            self.emit(d, "%s *const %s = %s;" % (real, ptr, g))
            g = ptr
        self.emit(d, "atomicAdd(&%s[%s], (%s)(%s));" % (g, key, real, self.uvalue()))
        return {"float"}

    def unit_laneset_ptr(self, d, key, in_loop):
        """A lane adds where its own test on a pointer passed, then the
        test's input changes before the next add."""
        r = self.urng
        self.feature("laneset-ptr")
        g, _ = self.ubuf()
        h, _ = self.ubuf(count="DT_KEYS + 1")
        form = r.choice(["pointer", "if", "key"])
        if form == "key" and key in self.mutable_keys:
            self.emit(d, "if (%s & 1)" % key)
            self.emit(d + 1, "atomicAdd(&%s[%s], %s);" % (g, key, self.uvalue()))
            self.emit(d, "%s = (%s + 1) %% DT_KEYS;" % (key, key))
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (h, key, self.uvalue()))
            return {"float"}
        if form == "key" and self.body_top:
            # The tested key a local of the whole iteration (declared at its
            # top), changed after its only add: a reduction later in the
            # iteration sees the changed value.
            k = self.ufresh("qk")
            top, depth = self.body_top
            self.lines.insert(top, ("  " * depth + "int %s = 0;" % k,
                                    frozenset()))
            self.emit(d, "%s = %s;" % (k, key))
            self.emit(d, "if ((%s & 1) == 0)" % k)
            self.emit(d + 1, "atomicAdd(&%s[%s], %s);" % (g, k, self.uvalue()))
            self.emit(d, "%s += 1;" % k)
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (h, key, self.uvalue()))
            return {"float"}
        k = self.ufresh("qk")
        self.emit(d, "int %s = %s;" % (k, key))
        if form == "pointer":
            q = self.ufresh("q")
            self.emit(d, "float *%s = (%s & 1) ? &%s[%s] : nullptr;" % (q, k, g, k))
            self.emit(d, "if (%s)" % q)
            self.emit(d + 1, "atomicAdd(%s, %s);" % (q, self.uvalue()))
        else:
            self.emit(d, "if (%s & 1)" % k)
            self.emit(d + 1, "atomicAdd(&%s[%s], %s);" % (g, k, self.uvalue()))
        self.emit(d, "%s += 1;" % k)
        if r.random() < 0.5:
            self.emit(d, "if ((%s & 1) == 0)" % k)
            self.emit(d + 1, "atomicAdd(&%s[%s], %s);" % (h, k, self.uvalue()))
        else:
            # After a tested add, the next add is of the group's key, so the
            # tested one may be reduced alone, later, where the test's input
            # has changed.
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (
                h, k if form == "pointer" else key, self.uvalue()))
        return {"float"}

    def unit_template_twice(self, d, key, in_loop):
        r = self.urng
        self.feature("template-twice")
        fn = self.ufresh("addTwo")
        if r.random() < 0.5:
            self.uhelper(
                "template <typename T> __device__ void %s(T *g, int i, T v) {\n"
                "  atomicAdd(&g[i], v);\n  atomicAdd(&g[i + DT_KEYS], v + v);\n}"
                % fn)
            g, _ = self.ubuf(count="DT_KEYS * 2")
            h, _ = self.ubuf("double", "DT_KEYS * 2")
            self.feature("double")
            self.emit(d, "%s(%s, %s, %s);" % (fn, g, key, self.uvalue()))
            self.emit(d, "%s(%s, %s, (double)(%s));" % (fn, h, key, self.uvalue()))
            return {"float", "double"}
        self.uhelper(
            "template <int S> __device__ void %s(float *g, int i, float v) {\n"
            "  for (int c = 0; c < S; ++c)\n"
            "    atomicAdd(&g[i * S + c], v * (float)(c + 1));\n}" % fn)
        g, _ = self.ubuf(count="DT_KEYS * 2")
        h, _ = self.ubuf(count="DT_KEYS * 3")
        self.emit(d, "%s<2>(%s, %s, %s);" % (fn, g, key, self.uvalue()))
        self.emit(d, "%s<3>(%s, %s, %s);" % (fn, h, key, self.uvalue()))
        return {"float"}

    def unit_macro_multi(self, d, key, in_loop):
        r = self.urng
        self.feature("macro-multi")
        g, _ = self.ubuf()
        h, _ = self.ubuf()
        form = r.choice(["pair", "step", "block"])
        if form == "pair":
            self.emit(d, "DT_ADD_PAIR(%s, %s, %s, %s);" % (g, h, key, self.uvalue()))
        elif form == "block":
            self.emit(d, "DT_ADD_BLOCK(%s, %s, %s, %s);" % (g, h, key, self.uvalue()))
        else:
            if key in self.mutable_keys and r.random() < 0.5:
                k = key
            else:
                k = self.ufresh("mk")
                self.emit(d, "int %s = %s;" % (k, key))
            self.emit(d, "DT_ADD_STEP(%s, %s, %s);" % (g, k, self.uvalue()))
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (h, k, self.uvalue()))
        return {"float"}

    def unit_goto_site(self, d, key, in_loop):
        """A per-lane goto over a braced add, or over a key change."""
        self.feature("goto-site")
        label = self.ufresh("skip")
        g, _ = self.ubuf()
        self.emit(d, "if (%s) goto %s;" % (self.ulane_cond(), label))
        if key in self.mutable_keys and self.urng.random() < 0.5:
            self.emit(d, "%s = (%s + 1) %% DT_KEYS;" % (key, key))
            self.emit(d, "%s:;" % label)
            self.emit(d, "atomicAdd(&%s[%s], %s);" % (g, key, self.uvalue()))
        else:
            self.emit(d, "{")
            self.emit(d + 1, "atomicAdd(&%s[%s], %s);" % (g, key, self.uvalue()))
            self.emit(d, "}")
            self.emit(d, "%s:;" % label)
        return {"float"}

    def unit_constant_data(self, d, key, in_loop):
        self.feature("constant-data")
        table = self.ufresh("kWeight")
        self.uhelper("__constant__ float %s[4] = {0.5f, 1.f, 1.5f, 2.f};" % table)
        g, _ = self.ubuf()
        self.emit(d, "atomicAdd(&%s[%s], (%s) * %s[tid & 3]);" % (
            g, key, self.uvalue(), table))
        return {"float"}

    def unit_shrink(self, d, key, in_loop):
        """The loop's shrinking lambda called between sites."""
        if not self.shrink_call:
            return self.unit_lambda_ref(d, key, in_loop)
        self.emit(d, self.shrink_call)
        self.shrink_call = None
        return set()
