"""Fixed cases of the differential tester: self-written kernels of the shapes
of the team's repros (../shared/repros: r1, r1b, d1-d6), in the harness's
calling convention, and of rewrite paths the generator does not reach (j1,
j2: one butterfly joined across per-lane continues; j3: an offset added
after the key; j4: tensor-accessor elements keyed by their address; j5: pointers
passed whole; j6, j7: the block strategy, which needs `__restrict__` inputs
and which the generated kernels, reading a plain `const float *thr`, never
get; j8: a primitive's run-time channels keyed by their addresses; j9: an
int counter reusing its primitive's key match; j10, j11: a texel's channels
in a loop of run-time trip count, versioned, and the same loop reading back
its own adds, which must run as written; j12, j13: a uniform-key loop run
in strips; j14: a primitive's run of channels through a helper's pointer,
versioned; j15: the same with the count read through a reference
parameter; j16: adjacent float members of a struct element, added as
float4 atomics where aligned), and of what users write around their
atomics (user_code.py), one or more a defect class: u1a-u1g, lambdas and
helpers that change a key, read a destination (through a capture, a
__device__ pointer, a struct member) or shrink the trip count between two
sites; u2a-u2c, writes through methods returning references; u3a, u3b, a
local key array changed through a pointer; u4a, u4b, operator[] reading
threadIdx or keeping state in a key; u5a-u5c, a lane's own test of a
pointer or key whose input changes before the next site or after the
site; u6a-u6g, shapes whose rewrite nvcc must accept (a hoisted `const int
K` array bound, a `constexpr` used after the group, keys of enum and
anonymous-namespace types, lane-dependent conditions naming locals, names
of a group's block where the reduction cannot see them).
Each of r1-d6 was
wrong with an earlier tool, so a GPU run with that tool must report every one
of them; they are kernels 0..len(CASES)-1 of every generated set.

A case is (name, features, helpers, params, body): params are
(declaration, kind, ...) with kind "in" (then the launcher's expression, in
which `{ns}` is the kernel's namespace and `{buf:NAME}` the pointer of the
buffer NAME), "atomic"/"store" (a new buffer: then its element type and
count), "view" (a class constructed from a new atomic buffer: element type,
count, stride), "buffer" (a new atomic buffer NAME that is no parameter:
element type, count) or "symbol" (a __device__ pointer of the helpers that
the launcher points at buffer NAME). The body may use `tid`.
"""
import re


ELEM = {"float": "kF32", "int": "kI32"}


def grads(*names):
    """Float gradient buffers of DT_KEYS elements."""
    return [("float *%s" % n, "atomic", "float", "DT_KEYS") for n in names]


IDS = ("const int *ids", "in", "a.in.ids")
X = ("const float *x", "in", "a.in.x")
THR = ("const float *thr", "in", "a.in.thr")
N = ("int n", "in", "a.in.n")

CASES = [
    # r1: a helper adds through a pointer that each lane offsets to its own
    # primitive (Pulsar's draw()); runtime channel count.
    ("r1", ["devfn-ptr", "key-lane"],
     ["__device__ void addColour(float *grad_col, const float *g, int n_channels) {\n"
      "  for (int c = 0; c < n_channels; ++c) { // runtime trip count\n"
      "    atomicAdd(grad_col + c, g[c]);\n  }\n}"],
     [("float *grad_colours", "atomic", "float", "DT_KEYS * 3"),
      ("const int *prim_of_pixel", "in", "a.in.ids"),
      ("const float *grad_pix", "in", "a.in.x"),
      ("int n_channels", "in", "3")],
     ["  const int prim = prim_of_pixel[tid % DT_IDS];",
      "  addColour(grad_colours + prim * n_channels, grad_pix + tid * DT_TRIPS,",
      "            n_channels);"]),
    # r1b: accumulate(float *grad, float3 g) with a per-lane pointer.
    ("r1b", ["devfn-ptr", "key-lane"],
     ["__device__ void accumulate(float *grad, float3 g) {\n"
      "  atomicAdd(&grad[0], g.x);\n  atomicAdd(&grad[1], g.y);\n"
      "  atomicAdd(&grad[2], g.z);\n}"],
     [("float *grads", "atomic", "float", "DT_KEYS * 3"),
      ("const int *prim_of_pixel", "in", "a.in.ids"),
      X],
     ["  const float *g = x + tid * DT_TRIPS;",
      "  accumulate(grads + 3 * prim_of_pixel[tid % DT_IDS],",
      "             make_float3(g[0], g[1], g[2]));"]),
    # d1: a declaration hoisted to the loop body's head shadows an outer name
    # that the body reads before it.
    ("d1", ["shadow", "continue", "key-uniform", "state"], [],
     grads("ga", "gb") + [
      IDS, X, THR,
      ("float *out", "store", "float", "DT_TCAP"), N],
     ["  float w = 0.25f, acc = 0.f;",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j] + w;",
      "    if (v < thr[tid] + 0.25f)",
      "      continue;",
      "    const float w = v * 2.f;",
      "    const int id = ids[j];",
      "    atomicAdd(&ga[id], w);",
      "    atomicAdd(&gb[id], v);",
      "    acc += w;",
      "  }",
      "  out[tid] = acc;"]),
    # d1b: a local between the sites shadows a buffer parameter.
    ("d1b", ["shadow", "continue", "key-uniform"], [],
     grads("ga", "gb", "gc") + [
      IDS, X,
      ("float *out", "store", "float", "DT_TCAP"), N],
     ["  float acc = 0.f;",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    if (v < 0.5f)",
      "      continue;",
      "    const int id = ids[j];",
      "    atomicAdd(&ga[id], v);",
      "    float *ga = gc;",
      "    atomicAdd(&gb[id], v);",
      "    acc += (float)(ga != nullptr);",
      "  }",
      "  out[tid] = acc;"]),
    # d2: a helper's buffer parameter differs per lane, key constant.
    ("d2", ["devfn-buf", "key-uniform"],
     ["__device__ void addAt0(float *g, float *h, float v) {\n"
      "  atomicAdd(&g[0], v);\n  atomicAdd(&h[0], v * 2.f);\n}"],
     grads("ga", "gb", "gc") + [
      X],
     ["  addAt0((threadIdx.x & 1) ? ga : gb, gc, x[tid * DT_TRIPS]);"]),
    # d2b: the same with a uniform key inside a loop.
    ("d2b", ["devfn-buf", "key-uniform"],
     ["__device__ void addGrad(float *g, float *h, int id, float v) {\n"
      "  atomicAdd(&g[id], v);\n  atomicAdd(&h[id], v * 2.f);\n}"],
     grads("ga", "gb", "gc") + [
      IDS, X,
      N],
     ["  float *dst = (threadIdx.x & 1) ? ga : gb;",
      "  for (int j = 0; j < n; j++)",
      "    addGrad(dst, gc, ids[j], x[tid * DT_TRIPS + j]);"]),
    # d3: a per-lane goto picks the key.
    ("d3", ["goto", "key-mixed"], [],
     grads("ga", "gb") + [
      X],
     ["  int key = 1;",
      "  if (x[tid * DT_TRIPS] < 0.5f) goto done;",
      "  key = 2;",
      "done:;",
      "  const float v = x[tid * DT_TRIPS + 1];",
      "  atomicAdd(&ga[key], v);",
      "  atomicAdd(&gb[key], v * 2.f);"]),
    # d4: a destination read through another name between the sites. One
    # key per warp (fewer than DT_KEYS warps in every launch shape), so the
    # first iteration's read misses the warp's own add.
    ("d4", ["read-between", "read-alias", "key-mixed"], [],
     grads("ga", "gb") + [
      X,
      ("int *flag", "store", "int", "DT_TCAP"), N],
     ["  const float *p = ga;",
      "  const int warps = (blockDim.x + 31) / 32;",
      "  const int id = (int)(blockIdx.x * warps + threadIdx.x / 32) % DT_KEYS;",
      "  int seen = 0;",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j] + 2.f;",
      "    atomicAdd(&ga[id], v);",
      "    const float r = p[id];",
      "    atomicAdd(&gb[id], v);",
      "    seen += (r >= v) ? 1 : 1000;",
      "  }",
      "  flag[tid] = seen;"]),
    # d5: a `make_` function that writes memory, speculated into lanes that
    # continued.
    ("d5", ["make-call", "continue", "tiles", "key-uniform"],
     ["__device__ float make_weight(int *calls, int tid, float v) {\n"
      "  calls[tid] += 1;\n  return v * 0.5f;\n}"],
     grads("ga", "gb") + [
      IDS, X, THR,
      ("int *calls", "store", "int", "DT_TCAP"), N],
     ["  __shared__ float s[32];",
      "  if (threadIdx.x < 32)",
      "    s[threadIdx.x] = x[threadIdx.x];",
      "  calls[tid] = 0;",
      "  __syncthreads();",
      "  for (int j = 0; j < min(32, n); j++) {",
      "    const float a = s[j];",
      "    if (a < thr[tid])",
      "      continue;",
      "    const float w = make_weight(calls, tid, a);",
      "    if (w < 0.1f)",
      "      continue;",
      "    const int id = ids[j];",
      "    atomicAdd(&ga[id], w);",
      "    atomicAdd(&gb[id], a);",
      "  }"]),
    # d5b: a `make_` key function that reads threadIdx.
    ("d5b", ["make-call", "key-mixed"],
     ["__device__ int make_key(int j) {\n"
      "  return (j * 4 + (int)(threadIdx.x % 32) / 8) % DT_KEYS;\n}"],
     grads("ga", "gb") + [
      X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    const int id = make_key(j);",
      "    atomicAdd(&ga[id], x[tid * DT_TRIPS + j]);",
      "    atomicAdd(&gb[id], 1.f);",
      "  }"]),
    # j1: colour channels, a per-lane continue, then geometry fields of the
    # same primitive (one batch joined across the continue; the lanes that
    # continued still add their colour).
    ("j1", ["join-continue", "continue", "channel", "key-uniform"], [],
     grads("ga", "gb") + [
      ("float *gc", "atomic", "float", "DT_KEYS * 3"),
      IDS, X, THR, N],
     ["  const float t = thr[tid];",
      "  for (int j = 0; j < n; j++) {",
      "    const int id = ids[j];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    if (v < t - 0.25f)",
      "      continue;",
      "    for (int c = 0; c < 3; c++)",
      "      atomicAdd(&gc[id * 3 + c], v * (c + 1));",
      "    if (v > t + 0.25f)",
      "      continue;",
      "    atomicAdd(&ga[id], 2.f * v);",
      "    atomicAdd(&gb[id], v * v);",
      "  }"]),
    # j2: three parts, a key shared by half-warps, a two-branch field in the
    # second part, state carried across iterations.
    ("j2", ["join-continue", "continue", "lane-cond-else", "key-mixed",
            "state"], [],
     grads("ga", "gb", "gc", "gd") + [
      X, THR,
      ("float *out", "store", "float", "DT_TCAP"), N],
     ["  const float t = thr[tid];",
      "  float T = 1.f;",
      "  for (int j = 0; j < n; j++) {",
      "    const int id = (j + (int)(threadIdx.x % 32) / 16) % DT_KEYS;",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[id], v);",
      "    T *= 0.9f;",
      "    if (v > t)",
      "      continue;",
      "    if (v > 0.5f * t)",
      "      atomicAdd(&gb[id], T);",
      "    else",
      "      atomicAdd(&gc[id], v * T);",
      "    if (v < 0.25f * t)",
      "      continue;",
      "    atomicAdd(&gd[id], 1.f);",
      "  }",
      "  out[tid] = T;"]),
    # j3: an offset added after a key computed into a local (a point's
    # coordinates behind `p_ind`), with constants and a channel loop; the
    # key differs between quarter-warps.
    ("j3", ["key-offset", "channel", "key-mixed"], [],
     [("float *gp", "atomic", "float", "DT_KEYS * 4"), IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    const int p_ind = ids[(j + (int)(threadIdx.x % 32) / 8) % n] * 4;",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(gp + p_ind + 0, v);",
      "    atomicAdd(gp + p_ind + 1, 2.f * v);",
      "    for (int c = 0; c < 2; c++)",
      "      atomicAdd(gp + p_ind + 2 + c, v * (c + 3));",
      "  }"]),
    # j4: elements of a tensor accessor held by value, keyed by their own
    # address: a row per half-warp, and one element shared by the warp.
    ("j4", ["accessor", "key-mixed", "key-uniform"],
     ["struct Row {\n"
      "  float *data;\n"
      "  __host__ __device__ float &operator[](long j) const { return data[j]; }\n"
      "};\n"
      "struct Grid2 {\n"
      "  __host__ __device__ Grid2(float *d, long s) : data(d), stride(s) {}\n"
      "  __host__ __device__ Row operator[](long i) const {\n"
      "    return Row{data + stride * i};\n  }\n"
      "  float *data;\n  long stride;\n};"],
     [("Grid2 grid", "view", "float", "2 * DT_KEYS", "DT_KEYS"),
      ("Grid2 shared", "view", "float", "DT_KEYS", "1"),
      IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    const int id = ids[j];",
      "    const int row = (int)(threadIdx.x % 32) / 16;",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&grid[row][id], v);",
      "    atomicAdd(&grid[1 - row][id], 0.5f * v);",
      "    atomicAdd(&shared[id][0], v * v);",
      "  }"]),
    # j5: pointers passed whole: a loss accumulator the same in every lane
    # (after the loop) and a row computed into a local per quarter-warp,
    # whose field 0 is `row` itself.
    ("j5", ["pointer", "key-mixed", "key-uniform"], [],
     [("float *loss", "atomic", "float", "1"),
      ("float *gr", "atomic", "float", "DT_KEYS * 3"), IDS, X, N],
     ["  float sq = 0.f;",
      "  for (int j = 0; j < n; j++) {",
      "    float *row = gr + ids[(j + (int)(threadIdx.x % 32) / 8) % n] * 3;",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(row, v);",
      "    atomicAdd(row + 1, 2.f * v);",
      "    atomicAdd(&row[2], 3.f * v);",
      "    sq += v * v;",
      "  }",
      "  atomicAdd(loss, sq);"]),
    # j6: the block strategy: a pixel's k-th primitive, pixels outside the
    # image returning first, a field under a per-lane test (lane-set), one
    # under a grid-uniform test, an int counter (a second table).
    ("j6", ["block", "key-lane", "lane-cond-field", "cond-field", "int"], [],
     grads("ga", "gb", "gc") + [
      ("int *gn", "atomic", "int", "DT_KEYS"),
      ("const int *__restrict__ ids", "in", "a.in.ids"),
      ("const float *__restrict__ x", "in", "a.in.x"),
      ("const float *__restrict__ thr", "in", "a.in.thr"),
      N, ("int npix", "in", "a.in.npix")],
     ["  if (tid >= npix)",
      "    return;",
      "  const float t = thr[tid];",
      "  for (int j = 0; j < n; j++) {",
      "    const int id = ids[(tid + j) % DT_IDS];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[id], v);",
      "    if (v > t)",
      "      atomicAdd(&gb[id], v * t);",
      "    if (n > 2)",
      "      atomicAdd(&gc[id], 0.5f * v);",
      "    atomicAdd(&gn[id], 1);",
      "  }"]),
    # j7: the block strategy with an unsigned key shared by quarter-warps, a
    # channel loop, and a third group after two tables (it stays serial).
    ("j7", ["block", "key-mixed", "channel"], [],
     [("float *gp", "atomic", "float", "DT_KEYS * 3")] +
     grads("ga", "gb") + [
      ("const int *__restrict__ ids", "in", "a.in.ids"),
      ("const float *__restrict__ x", "in", "a.in.x"), N],
     ["  for (int j = 0; j < n; j++) {",
      "    const unsigned id =",
      "        (unsigned)ids[(j + (int)(threadIdx.x % 32) / 8) % DT_IDS];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    for (int c = 0; c < 3; c++)",
      "      atomicAdd(&gp[id * 3 + c], v * (c + 1));",
      "    const int k = (id + 1) % DT_KEYS;",
      "    atomicAdd(&ga[k], v);",
      "    atomicAdd(&ga[(k + 1) % DT_KEYS], -v);",
      "    const int m = (id + 2) % DT_KEYS;",
      "    atomicAdd(&gb[m], 2.f * v);",
      "    atomicAdd(&gb[(m + 3) % DT_KEYS], v);",
      "  }"]),
    # j8: a primitive's run-time channels through a helper's pointer
    # parameter, indexed from the key (the sphere colours): keyed by the
    # element's address; the loop body has no braces; called under a per-lane
    # test in the pixel's loop.
    ("j8", ["devfn-ptr", "key-lane", "lane-cond-field"],
     ["__device__ __forceinline__ void addChannels(float *g, const int id,\n"
      "                                            const int nc, const float w) {\n"
      "  for (int c = 0; c < nc; ++c)\n"
      "    atomicAdd(&g[id * nc + c], w * (c + 1));\n}"],
     [("float *gc", "atomic", "float", "DT_KEYS * 3"), IDS, X, N,
      ("int nc", "in", "3")],
     ["  for (int j = 0; j < n; j++) {",
      "    const int id = ids[(tid + j) % DT_IDS];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    if (v > 0.25f)",
      "      addChannels(gc, id, nc, v);",
      "  }"]),
    # j9: a primitive's float gradients and its int counter, one const key
    # shared by quarter-warps, a per-lane branch between the two groups:
    # the counter reuses the float group's key match when the same lanes
    # reach it (KeptPeers).
    ("j9", ["key-mixed", "lane-cond-field", "mixed-types"], [],
     grads("ga", "gb") + [("int *gn", "atomic", "int", "DT_KEYS"), IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    const int id = ids[(j + (int)(threadIdx.x % 32) / 4) % DT_IDS];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[id], v);",
      "    if (v > 0.5f)",
      "      atomicAdd(&gb[id], v * v);",
      "    float s = v;",
      "    if (v < 0.25f)",
      "      s = sqrtf(v) + 1.f;",
      "    atomicAdd(&gn[id], 1);",
      "    atomicAdd(&ga[(id + 1) % DT_KEYS], s);",
      "  }"]),
    # j10: a texel's channels, a loop of run-time trip count (versioned):
    # keys shared by quarter-warps, one corner under a test of its key, the
    # loop reading a plain const input at the channel (the versions run
    # where that read's range misses the adds: always here).
    ("j10", ["channel", "key-mixed", "lane-cond-field"], [],
     [("float *gt", "atomic", "float", "DT_KEYS * 4"), IDS, X,
      ("int nc", "in", "3")],
     ["  const int t = ids[(tid / 4) % DT_IDS] * 4;",
      "  const int u = (t + 4) % (DT_KEYS * 4);",
      "  const float *xs = x + tid * DT_TRIPS;",
      "  for (int c = 0; c < nc; ++c) {",
      "    const float v = xs[c];",
      "    if (t >= 8)",
      "      atomicAdd(gt + t + c, v);",
      "    atomicAdd(gt + u + c, 0.5f * v);",
      "  }"]),
    # j11: the same loop reading back what it added in the iteration before
    # (each thread its own four elements): the versions would miss those
    # adds, so the run-time test sends every lane to the loop as written.
    ("j11", ["channel", "key-lane"], [],
     [("float *gt", "atomic", "float", "DT_TCAP * 4"), IDS, X,
      ("int nc", "in", "3")],
     ["  const int t = 4 * (tid + (ids[0] & 0)) + 1;",
      "  const float *prev = gt + t - 1;",
      "  for (int c = 0; c < nc; ++c) {",
      "    const float v = x[tid * DT_TRIPS + c] + 0.5f * prev[c];",
      "    atomicAdd(gt + t + c, v);",
      "  }"]),
    # j12: a loop whose key is its counter (the same texel in every lane),
    # run in strips of two laps reduced together: a condition `!=` that each
    # lap tests and that is never tested past its first failure, a statement
    # after the group that stays in each lap, nothing read in the body.
    ("j12", ["key-uniform", "strip"], [],
     grads("ga", "gb") + [X, N],
     ["  const float v0 = x[tid * DT_TRIPS];",
      "  float s = 0.f;",
      "  for (int j = 0; j != n; ++j) {",
      "    const float v = v0 * (float)(j + 1);",
      "    atomicAdd(&ga[j % DT_KEYS], v);",
      "    atomicAdd(&gb[j % DT_KEYS], 0.5f * v);",
      "    s += v;",
      "  }",
      "  atomicAdd(&ga[(tid + 1) % DT_KEYS], s);"]),
    # j13: strips as the body of an outer loop without braces, in warps
    # whole (the halving) and partial (lanes returned: plain atomics), each
    # warp's version chosen once as the strip loop starts.
    ("j13", ["key-uniform", "strip"], [],
     grads("ga") + [X, N],
     ["  if (tid >= 40)",
      "    return;",
      "  const float v0 = x[tid * DT_TRIPS];",
      "  for (int r = 0; r < 2; ++r)",
      "    for (int j = 0; j < n; ++j) {",
      "      atomicAdd(&ga[(j + 3 * r) % DT_KEYS], v0 * (float)(j + r + 1));",
      "    }"]),
    # j14: a primitive's run of channels in a row of a helper's pointer
    # parameter, written through a macro (Pulsar's ATOMICADD): the loop is
    # versioned, the run keyed by its first address; with 6 channels the
    # loop runs as written.
    ("j14", ["devfn-ptr", "key-lane", "channel", "macro"],
     ["#define DT_ADD_ROW(P, V) atomicAdd((P), (V))\n"
      "__device__ void addRow(float *g, int prim, int nc, float w, const float *v) {\n"
      "  for (int c = 0; c < nc; ++c)\n"
      "    DT_ADD_ROW(&g[prim * nc + c], w * v[c]);\n}"],
     [("float *ga", "atomic", "float", "DT_KEYS * 3"),
      ("float *gb", "atomic", "float", "DT_KEYS * 6"),
      ("const int *prim_of_pixel", "in", "a.in.ids"), X,
      ("int nc", "in", "3")],
     ["  const int prim = prim_of_pixel[tid % DT_IDS] % DT_KEYS;",
      "  const float *v = x + tid * DT_TRIPS;",
      "  addRow(ga, prim, nc, 0.5f, v);",
      "  addRow(gb, prim, 2 * nc, 0.25f, v);"]),
    # j15: Pulsar's draw(): the channel count a member of a reference
    # parameter (or a reference to an int), the row a per-lane pointer the
    # caller offsets; the loop stores nothing but its float adds, so the
    # count is read once and the loop versioned (3 channels) or run as
    # written (5). drawRowAt reads a float through a pointer parameter in
    # the loop: left as written (DW0047).
    ("j15", ["devfn-ptr", "key-lane", "channel"],
     ["struct DtCam {\n  float focal;\n  unsigned nc;\n};\n"
      "__device__ void drawRow(const DtCam &cam, float *grad_col,\n"
      "                        const float *gp, float w) {\n"
      "  for (unsigned c = 0; c < cam.nc; ++c)\n"
      "    atomicAdd(grad_col + c, gp[c] * w);\n}\n"
      "__device__ void drawRowAt(const DtCam *cam, float *grad_col,\n"
      "                          const float *gp) {\n"
      "  for (unsigned c = 0; c < cam->nc; ++c)\n"
      "    atomicAdd(grad_col + c, gp[c] * cam->focal);\n}\n"
      "__device__ void drawRowRef(const int &nc, float *grad_col,\n"
      "                           const float *gp) {\n"
      "  for (int c = 0; c < nc; ++c)\n"
      "    atomicAdd(grad_col + c, 0.125f * gp[c]);\n}"],
     [("float *ga", "atomic", "float", "DT_KEYS * 3"),
      ("float *gb", "atomic", "float", "DT_KEYS * 5"),
      ("const int *prim_of_pixel", "in", "a.in.ids"), X,
      ("int nc", "in", "3")],
     ["  const int prim = prim_of_pixel[tid % DT_IDS] % DT_KEYS;",
      "  DtCam cam{1.f, (unsigned)nc};",
      "  drawRow(cam, ga + prim * nc, x + tid * DT_TRIPS, 0.5f);",
      "  drawRowAt(&cam, ga + prim * nc, x + tid * DT_TRIPS + 1);",
      "  drawRowRef(nc, ga + prim * nc, x + tid * DT_TRIPS + 2);",
      "  cam.nc = (unsigned)(nc + 2);",
      "  drawRow(cam, gb + prim * (nc + 2), x + tid * DT_TRIPS, 0.25f);",
      "  drawRowAt(&cam, gb + prim * (nc + 2), x + tid * DT_TRIPS + 1);"]),
    # d6: a user's own atomicAdd wrapper (it counts its calls).
    # (The wrapper is the generator's: Kernel.user_wrapper.)
    ("d6", ["user-atomic", "key-uniform"], [],
     grads("ga", "gb") + [
      IDS, X,
      N],
     ["  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    const int id = ids[j];",
      "    dbg::atomicAdd(&ga[id], v);",
      "    dbg::atomicAdd(&gb[id], v * 2.f);",
      "  }"]),
    # j16: Pulsar's per-sphere camera gradients (four float3, 48 bytes) and
    # a quad of floats, through pointer members of by-value parameters:
    # adjacent members of one element, marked Adjacent and added as float4
    # atomics where aligned. The camera's last float3 is under a uniform
    # condition that is false (its block of four falls back to single
    # atomics); the quads of `rv` start one float into their buffer, so no
    # vector of theirs is aligned and every field is added alone. The values
    # are read before the first add (a read between adds of a buffer that is
    # not __restrict__ keeps them apart, DW0047), and are positive: the
    # tester's tolerance scales with the result, so negative terms that
    # cancel the buffer's start value would fail it in any order.
    ("j16", ["key-lane", "adjacent"],
     ["struct DtCamGrad {\n  float3 pos, ax, ay, az;\n};\n"
      "struct DtQuad {\n  float a, b, c, d;\n};\n"
      "struct DtCamView {\n  DtCamGrad *g;\n"
      "  __host__ __device__ DtCamView(float *b, int)\n"
      "      : g(reinterpret_cast<DtCamGrad *>(b)) {}\n};\n"
      "struct DtFloat4View {\n  float4 *q;\n"
      "  __host__ __device__ DtFloat4View(float *b, int)\n"
      "      : q(reinterpret_cast<float4 *>(b)) {}\n};\n"
      "struct DtQuadView {\n  DtQuad *r;\n"
      "  __host__ __device__ DtQuadView(float *b, int)\n"
      "      : r(reinterpret_cast<DtQuad *>(b + 1)) {}\n};"],
     [("DtCamView cv", "view", "float", "DT_KEYS * 12", "12"),
      ("DtFloat4View qv", "view", "float", "DT_KEYS * 4", "4"),
      ("DtQuadView rv", "view", "float", "DT_KEYS * 4 + 1", "4"),
      ("const int *prim_of_pixel", "in", "a.in.ids"), X,
      ("int nc", "in", "3")],
     ["  const int prim = prim_of_pixel[tid % DT_IDS] % DT_KEYS;",
      "  const float v[4] = {x[tid * DT_TRIPS], x[tid * DT_TRIPS + 1],",
      "                      x[tid * DT_TRIPS + 2], x[tid * DT_TRIPS + 3]};",
      "  atomicAdd(&cv.g[prim].pos.x, v[0]);",
      "  atomicAdd(&cv.g[prim].pos.y, v[1]);",
      "  atomicAdd(&cv.g[prim].pos.z, v[2]);",
      "  atomicAdd(&cv.g[prim].ax.x, v[3]);",
      "  atomicAdd(&cv.g[prim].ax.y, 0.25f * v[0]);",
      "  atomicAdd(&cv.g[prim].ax.z, 0.25f * v[1]);",
      "  atomicAdd(&cv.g[prim].ay.x, 0.25f * v[2]);",
      "  atomicAdd(&cv.g[prim].ay.y, 0.25f * v[3]);",
      "  atomicAdd(&cv.g[prim].ay.z, 0.5f * v[0]);",
      "  if (nc == 4) {",
      "    atomicAdd(&cv.g[prim].az.x, 0.5f * v[1]);",
      "    atomicAdd(&cv.g[prim].az.y, 0.5f * v[2]);",
      "    atomicAdd(&cv.g[prim].az.z, 0.5f * v[3]);",
      "  }",
      "  atomicAdd(&qv.q[prim].x, v[1]);",
      "  atomicAdd(&qv.q[prim].y, v[2]);",
      "  atomicAdd(&qv.q[prim].z, v[3]);",
      "  atomicAdd(&qv.q[prim].w, v[0]);",
      "  atomicAdd(&rv.r[prim].a, v[2]);",
      "  atomicAdd(&rv.r[prim].b, v[3]);",
      "  atomicAdd(&rv.r[prim].c, v[0]);",
      "  atomicAdd(&rv.r[prim].d, v[1]);"]),
    # u1a: a lambda capturing by reference changes the key between two adds.
    ("u1a", ["lambda-rekey", "key-uniform"], [],
     grads("ga", "gb") + [IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    int id = ids[j];",
      "    auto rekey = [&] { id = (id + 5) % DT_KEYS; };",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[id], v);",
      "    rekey();",
      "    atomicAdd(&gb[id], 2.f * v);",
      "  }"]),
    # u1b: a lambda reads a destination through its capture between two
    # adds (d4's keys: one per warp, values above every start value, so a
    # deferred add is always missed by the read).
    ("u1b", ["lambda-read", "read-between", "key-mixed"], [],
     grads("ga", "gb") + [X, ("int *flag", "store", "int", "DT_TCAP"), N],
     ["  const int warps = (blockDim.x + 31) / 32;",
      "  const int id = (int)(blockIdx.x * warps + threadIdx.x / 32) % DT_KEYS;",
      "  auto peek = [&] { return ga[id]; };",
      "  int seen = 0;",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j] + 2.f;",
      "    atomicAdd(&ga[id], v);",
      "    seen += (peek() >= v) ? 1 : 1000;",
      "    atomicAdd(&gb[id], v);",
      "  }",
      "  flag[tid] = seen;"]),
    # u1c: the same read by a helper through a __device__ pointer to the
    # destination.
    ("u1c", ["devfn-read", "global-ptr", "read-between", "key-mixed"],
     ["__device__ const float *view;\n"
      "__device__ float viewAt(int i) { return view[i]; }"],
     grads("ga", "gb") + [X, ("int *flag", "store", "int", "DT_TCAP"), N,
                          ("view", "symbol", "ga")],
     ["  const int warps = (blockDim.x + 31) / 32;",
      "  const int id = (int)(blockIdx.x * warps + threadIdx.x / 32) % DT_KEYS;",
      "  int seen = 0;",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j] + 2.f;",
      "    atomicAdd(&ga[id], v);",
      "    seen += (viewAt(id) >= v) ? 1 : 1000;",
      "    atomicAdd(&gb[id], v);",
      "  }",
      "  flag[tid] = seen;"]),
    # u1d: the same read by a helper through a struct argument's member.
    ("u1d", ["devfn-read", "read-between", "key-mixed"],
     ["struct Src {\n  const float *p;\n};\n"
      "__device__ float readAt(const Src &s, int i) { return s.p[i]; }"],
     grads("ga", "gb") + [X, ("int *flag", "store", "int", "DT_TCAP"), N],
     ["  const int warps = (blockDim.x + 31) / 32;",
      "  const int id = (int)(blockIdx.x * warps + threadIdx.x / 32) % DT_KEYS;",
      "  int seen = 0;",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j] + 2.f;",
      "    atomicAdd(&ga[id], v);",
      "    seen += (readAt(Src{ga}, id) >= v) ? 1 : 1000;",
      "    atomicAdd(&gb[id], v);",
      "  }",
      "  flag[tid] = seen;"]),
    # u1e: adds through the members of a struct-of-pointers parameter, a
    # third member (the first's buffer) read between them.
    ("u1e", ["struct-param", "read-between", "key-mixed"],
     ["struct Grads {\n  float *a;\n  float *b;\n  const float *ra;\n};"],
     [("ga", "buffer", "float", "DT_KEYS"), ("gb", "buffer", "float", "DT_KEYS"),
      ("Grads gr", "in",
       "{ns}::Grads{(float *){buf:ga}, (float *){buf:gb}, (const float *){buf:ga}}"),
      X, ("int *flag", "store", "int", "DT_TCAP"), N],
     ["  const int warps = (blockDim.x + 31) / 32;",
      "  const int id = (int)(blockIdx.x * warps + threadIdx.x / 32) % DT_KEYS;",
      "  int seen = 0;",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j] + 2.f;",
      "    atomicAdd(&gr.a[id], v);",
      "    seen += (gr.ra[id] >= v) ? 1 : 1000;",
      "    atomicAdd(&gr.b[id], v);",
      "  }",
      "  flag[tid] = seen;"]),
    # u1f: a uniform-key loop (j12's strips) whose trip count a lambda
    # called between the adds shrinks.
    ("u1f", ["lambda-shrink", "key-uniform"], [],
     grads("ga", "gb") + [X, N],
     ["  const float v0 = x[tid * DT_TRIPS];",
      "  int m = n;",
      "  auto shrink = [&] { --m; };",
      "  for (int j = 0; j < m; ++j) {",
      "    const float v = v0 * (float)(j + 1);",
      "    atomicAdd(&ga[j % DT_KEYS], v);",
      "    shrink();",
      "    atomicAdd(&gb[j % DT_KEYS], 0.5f * v);",
      "  }"]),
    # u1g: the same, shrunk by some lanes only.
    ("u1g", ["lambda-shrink", "key-uniform"], [],
     grads("ga", "gb") + [IDS, X, THR, N],
     ["  const float t = thr[tid];",
      "  int m = n;",
      "  auto shrink = [&] { --m; };",
      "  for (int j = 0; j < m; j++) {",
      "    const int id = ids[j];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[id], v);",
      "    if (v > t)",
      "      shrink();",
      "    atomicAdd(&gb[id], v * v);",
      "  }"]),
    # u2a: a by-value parameter's buffer pointer moved between two adds
    # through a method returning it by reference, its key set through a
    # function returning it by reference.
    ("u2a", ["ref-method", "key-uniform"],
     ["struct Prim {\n  float *g;\n  int id;\n"
      "  __device__ float *&grad() { return g; }\n"
      "  __device__ int &key() { return id; }\n};\n"
      "__device__ int &key_of(Prim &p) { return p.id; }"],
     [("gp", "buffer", "float", "DT_KEYS * 2"),
      ("Prim p", "in", "{ns}::Prim{(float *){buf:gp}, 0}"), IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    key_of(p) = ids[j];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&p.g[p.id], v);",
      "    p.grad() += DT_KEYS;",
      "    atomicAdd(&p.g[p.id], 2.f * v);",
      "    p.grad() -= DT_KEYS;",
      "  }"]),
    # u2b: a local's key changed between adds through key_of() and key().
    ("u2b", ["ref-method", "key-uniform"],
     ["struct Prim {\n  float *g;\n  int id;\n"
      "  __device__ float *&grad() { return g; }\n"
      "  __device__ int &key() { return id; }\n};\n"
      "__device__ int &key_of(Prim &p) { return p.id; }"],
     grads("ga", "gb") + [IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    Prim q{ga, ids[j]};",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&q.g[q.id], v);",
      "    key_of(q) = (q.id + 3) % DT_KEYS;",
      "    atomicAdd(&q.g[q.id], 2.f * v);",
      "    q.key() = (q.key() + 1) % DT_KEYS;",
      "    atomicAdd(&gb[q.key()], v);",
      "  }"]),
    # u2c: a key and a buffer pointer changed between adds through at().
    ("u2c", ["ref-method", "key-uniform"],
     ["struct Keys {\n  int k[2];\n"
      "  __device__ int &at(int i) { return k[i]; }\n};\n"
      "struct Bufs {\n  float *p[2];\n"
      "  __device__ float *&at(int i) { return p[i]; }\n};"],
     grads("ga", "gb", "gc", "gd") + [IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    Keys acc{{ids[j], ids[j]}};",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[acc.k[0]], v);",
      "    acc.at(0) = (acc.k[1] + 7) % DT_KEYS;",
      "    atomicAdd(&gb[acc.k[0]], v);",
      "    Bufs bufs{{gc, gd}};",
      "    atomicAdd(&bufs.p[0][acc.k[1]], v);",
      "    bufs.at(0) = bufs.p[1];",
      "    atomicAdd(&bufs.p[0][acc.k[1]], 2.f * v);",
      "  }"]),
    # u3a: a local key array written through a pointer, before the adds and
    # between them.
    ("u3a", ["alias-array", "key-uniform"], [],
     grads("ga", "gb", "gc") + [IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    int k[2];",
      "    int *pk = k;",
      "    pk[0] = 40;",
      "    pk[1] = ids[j];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[k[0]], v);",
      "    atomicAdd(&gb[k[1]], v);",
      "    pk[0] = k[1];",
      "    atomicAdd(&gc[k[0]], 2.f * v);",
      "  }"]),
    # u3b: a key that starts uniform (the loop counter) made per lane
    # through a pointer to it.
    ("u3b", ["alias-array", "key-mixed"], [],
     grads("ga", "gb") + [X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    int k[2] = {j % DT_KEYS, 0};",
      "    int *pk = &k[0];",
      "    *pk = (k[0] + (int)(threadIdx.x & 1)) % DT_KEYS;",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[k[0]], v);",
      "    atomicAdd(&gb[k[0]], 0.5f * v);",
      "  }"]),
    # u4a: keys through operator[] that read threadIdx (one reads no
    # memory at all).
    ("u4a", ["subscript-lane", "key-mixed"],
     ["struct LaneIds {\n  const int *ids;\n"
      "  __device__ int operator[](int j) const {\n"
      "    return ids[(j + (int)(threadIdx.x & 3)) % DT_IDS];\n  }\n};\n"
      "struct LaneKey {\n"
      "  __device__ int operator[](int j) const {\n"
      "    return (j * 5 + (int)(threadIdx.x & 3)) % DT_KEYS;\n  }\n};"],
     grads("ga", "gb", "gc") + [
         ("LaneIds li", "in", "{ns}::LaneIds{a.in.ids}"), X, N],
     ["  const LaneKey lk{};",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[li[j]], v);",
      "    atomicAdd(&gb[li[j]], 2.f * v);",
      "    atomicAdd(&gc[lk[j]], v);",
      "    atomicAdd(&gc[(lk[j] + 1) % DT_KEYS], 0.5f * v);",
      "  }"]),
    # u4b: keys through operator[] that count their calls (a local and a
    # by-value parameter): the same text, another key at each add.
    ("u4b", ["subscript-state", "key-uniform"],
     ["struct Counter {\n  int calls;\n"
      "  __device__ int operator[](int j) { return (j + calls++) % DT_KEYS; }\n};\n"
      "struct CountedIds {\n  const int *ids;\n  int calls;\n"
      "  __device__ int operator[](int j) {\n"
      "    ++calls;\n    return ids[(j + calls) % DT_IDS];\n  }\n};"],
     grads("ga", "gb", "gc", "gd") + [
         ("CountedIds ci", "in", "{ns}::CountedIds{a.in.ids, 0}"), X, N],
     ["  Counter c{0};",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[c[j]], v);",
      "    atomicAdd(&gb[c[j]], v);",
      "    atomicAdd(&gc[ci[j]], v);",
      "    atomicAdd(&gd[ci[j]], 2.f * v);",
      "  }"]),
    # u5a: a lane adds through a pointer it tested itself, then the test's
    # input changes before the next add.
    ("u5a", ["laneset-ptr", "key-uniform"], [],
     grads("ga") + [("float *gb", "atomic", "float", "DT_KEYS + 1"), IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    int id = ids[j];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    float *slot = (id & 1) ? &ga[id] : nullptr;",
      "    if (slot)",
      "      atomicAdd(slot, v);",
      "    id += 1;",
      "    atomicAdd(&gb[id], v);",
      "  }"]),
    # u5b: the same with the test on the key itself, per-lane keys.
    ("u5b", ["laneset-ptr", "key-lane"], [],
     grads("ga") + [("float *gb", "atomic", "float", "DT_KEYS + 1"),
                    ("float *gc", "atomic", "float", "DT_KEYS + 1"), IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    int id = ids[(tid + j) % DT_IDS];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    if (id & 1)",
      "      atomicAdd(&ga[id], v);",
      "    id += 1;",
      "    if (id & 1)",
      "      atomicAdd(&gc[id], 2.f * v);",
      "    atomicAdd(&gb[id], v);",
      "  }"]),
    # u5c: a field under a test of its own key, the key changed after the
    # add: an add reduced later must not test the changed key.
    ("u5c", ["laneset-ptr", "key-mixed"], [],
     [("float *ga", "atomic", "float", "DT_KEYS + 1"), X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    int k = (j + (v > 0.5f)) % DT_KEYS;",
      "    if (v < 0.75f) {",
      "      if ((k & 1) == 0)",
      "        atomicAdd(&ga[k], v);",
      "      k += 1;",
      "    }",
      "  }"]),
    # u6a: an array bound `const int K` declared after a per-lane continue.
    ("u6a", ["const-array", "continue", "key-uniform"], [],
     grads("ga", "gb") + [IDS, X, THR, N],
     ["  const float t = thr[tid];",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    if (v < t)",
      "      continue;",
      "    const int K = 4;",
      "    float tmp[K];",
      "    for (int c = 0; c < K; ++c)",
      "      tmp[c] = v * (float)(c + 1);",
      "    const int id = ids[j];",
      "    atomicAdd(&ga[id], tmp[0]);",
      "    atomicAdd(&gb[id], tmp[K - 1]);",
      "  }"]),
    # u6b: a `constexpr int K` of the group used after it.
    ("u6b", ["constexpr-after", "continue", "key-uniform"],
     ["template <int S> __device__ float scaled(float v) { return v * (float)S; }"],
     [("float *gp", "atomic", "float", "DT_KEYS * 3"), IDS, X, THR,
      ("float *out", "store", "float", "DT_TCAP"), N],
     ["  const float t = thr[tid];",
      "  float acc = 0.f;",
      "  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    if (v < t)",
      "      continue;",
      "    constexpr int K = 3;",
      "    const int id = ids[j];",
      "    atomicAdd(&gp[id * K + 0], v);",
      "    atomicAdd(&gp[id * K + 2], 0.5f * v);",
      "    static_assert(K == 3, \"three fields\");",
      "    acc += scaled<K>(v);",
      "  }",
      "  out[tid] = acc;"]),
    # u6c: a key of enum type.
    ("u6c", ["enum-key", "key-uniform"],
     ["enum Prim : int { kFirstPrim = 0, kLastPrim = DT_KEYS - 1 };"],
     grads("ga", "gb") + [IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    const Prim id = (Prim)ids[j];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[id], v);",
      "    atomicAdd(&gb[id], 2.f * v);",
      "  }"]),
    # u6d: keys whose types are an enum and an alias of an anonymous
    # namespace.
    ("u6d", ["anon-type", "enum-key", "key-uniform"],
     ["namespace {\nenum Prim : int { kFirstPrim = 0, kLastPrim = DT_KEYS - 1 };\n"
      "using Index = int;\n} // namespace"],
     grads("ga", "gb", "gc", "gd") + [IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    const Prim id = (Prim)ids[j];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[id], v);",
      "    atomicAdd(&gb[id], 2.f * v);",
      "    const Index k = ids[(j + 1) % DT_IDS];",
      "    atomicAdd(&gc[k], v);",
      "    atomicAdd(&gd[k], 2.f * v);",
      "  }"]),
    # u6e: a key member, a base pointer and a field enum of types in an
    # anonymous namespace.
    ("u6e", ["anon-type", "enum-key", "key-uniform"],
     ["namespace {\nstruct Key {\n  int v;\n};\ntypedef float real;\n"
      "enum Slot : int { kSlotA, kSlotB };\n} // namespace"],
     grads("ga") + [("float *gb", "atomic", "float", "DT_KEYS * 2"), IDS, X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    const Key k{ids[j]};",
      "    real *const da = ga;",
      "    const real v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&da[k.v], v);",
      "    atomicAdd(&gb[k.v * 2 + kSlotB], v);",
      "    atomicAdd(&gb[k.v * 2 + kSlotA], 2.f * v);",
      "  }"]),
    # u6f: fields under lane-dependent conditions naming locals (one
    # declared in a block of its own).
    ("u6f", ["lane-cond-field", "key-uniform"], [],
     grads("ga", "gb", "gc") + [IDS, X, THR, N],
     ["  const float t = thr[tid];",
      "  for (int j = 0; j < n; j++) {",
      "    const int id = ids[j];",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    atomicAdd(&ga[id], v);",
      "    const bool hit = v > t;",
      "    if (hit)",
      "      atomicAdd(&gb[id], v);",
      "    {",
      "      const float u = 0.5f * v;",
      "      if (u > 0.25f * t)",
      "        atomicAdd(&gc[id], u);",
      "    }",
      "  }"]),
    # u6g: names of the block around a group, out of scope where a
    # reduction at the iteration's end stands: a field under a test of a
    # local that is also its key; a `constexpr` stride.
    ("u6g", ["laneset-ptr", "constexpr-after", "key-mixed"], [],
     [("float *ga", "atomic", "float", "DT_KEYS + 1"),
      ("float *gq", "atomic", "float", "DT_KEYS * 2"), X, N],
     ["  for (int j = 0; j < n; j++) {",
      "    const float v = x[tid * DT_TRIPS + j];",
      "    const int id = (j + (v > 0.5f)) % DT_KEYS;",
      "    if (v < 0.75f) {",
      "      int k = id;",
      "      k += 1;",
      "      if ((k & 1) == 0)",
      "        atomicAdd(&ga[k], v);",
      "    }",
      "    if (v > 0.25f) {",
      "      constexpr int S = 2;",
      "      atomicAdd(&gq[id * S + 1], v);",
      "      atomicAdd(&gq[id * S + 0], 2.f * v);",
      "    }",
      "  }"]),
]


# The cases of shapes gen_difftest.py --avoid can leave out
# (gen_difftest.KNOWN_COMPILE_BUGS).
AVOIDABLE = {"u6b": "constexpr-after", "u6c": "enum-key-type",
             "u6d": "enum-key-type", "u6g": "laneset-local"}


# Threads a block of these cases needs: d5's first warp loads the shared
# array every lane reads (the harness skips smaller launch shapes).
MIN_BLOCK = {"d5": 32}


def build(kernel, index, avoid=()):
    """Fills `kernel` (a gen_difftest.Kernel) with fixed case `index`; a
    case whose shape is in `avoid` keeps its parameters and buffers (the
    numbering and the launcher stay) and gets an empty body."""
    name, features, helpers, params, body = CASES[index]
    kernel.label = "%s_%s" % (kernel.name, name)
    kernel.min_block = MIN_BLOCK.get(name, 1)
    kernel.lines = list(body)
    if AVOIDABLE.get(name) in avoid:
        features = []
        kernel.lines = ["  // left out: --avoid=%s" % AVOIDABLE[name]]
    kernel.feature("fixed", *features)
    kernel.helpers = [(h, frozenset()) for h in helpers]
    buffers = {}

    def launcher_expr(text):
        text = text.replace("{ns}", kernel.name)
        return re.sub(r"\{buf:(\w+)\}",
                      lambda m: "a.out[%d]" % buffers[m.group(1)], text)

    for decl, kind, *rest in params:
        pname = decl.split("*")[-1].split(" ")[-1]
        if kind == "in":
            kernel.in_param(decl, launcher_expr(rest[0]))
        elif kind == "buffer":
            buffers[decl] = kernel.buffer(ELEM[rest[0]], "kAtomic", rest[1],
                                          name=decl)
        elif kind == "symbol":
            kernel.globals_setup.append(
                "cudaMemcpyToSymbol(%s::%s, &a.out[%d], sizeof(void *));"
                % (kernel.name, decl, buffers[rest[0]]))
        elif kind == "view":
            # A class holding a new atomic buffer and its stride.
            elem, count, stride = rest
            b = kernel.buffer({"float": "kF32"}[elem], "kAtomic", count,
                              name=pname)
            ctype = decl.split(" ")[0]
            kernel.in_param(decl, "%s::%s((%s *)a.out[%d], %s)" %
                            (kernel.name, ctype, elem, b, stride))
        else:
            buffers[pname] = kernel.out_param(
                rest[0], rest[1], ELEM[rest[0]], pname,
                role="kAtomic" if kind == "atomic" else "kStore")
    if "user-atomic" in features:
        kernel.user_wrapper()
    return kernel
