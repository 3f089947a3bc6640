// Calls that write only memory the thread owns do not stand between a
// group's atomics: a method that stores only into its own object, called on
// a local (`d -= e`, a matrix's `J[0][1] = x` through an operator[] that
// returns a reference into the matrix), and a library function whose
// parameters cannot be written through (the `__assert_fail` that `assert`
// calls). A method called through a pointer, or one that stores elsewhere,
// still counts as a call that may write (DW0011).
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %FileCheck %s < %t.txt
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

// CHECK-DAG: group compound#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=3 slots=3
// CHECK-DAG: group matrix#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=float sites=3 slots=3
// CHECK-DAG: group perType#0: batched (butterfly{{( or serial, chosen at run time)?}}) key=id type=scalar_t sites=2 slots=2
// CHECK-DAG: group throughPointer@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0011 call-between
// CHECK-DAG: group storesElsewhere@{{[0-9]+}}: unchanged key=id type=float sites=2 [DW0011 call-between

#include <assert.h>

struct vec3 {
  float x, y, z;
  __device__ vec3 &operator-=(const vec3 &o) {
    x -= o.x;
    y -= o.y;
    z -= o.z;
    return *this;
  }
  __device__ vec3 operator-(const vec3 &o) const {
    vec3 r = *this;
    r -= o;
    return r;
  }
};

// A glm-style matrix: columns by reference, bounds checked with assert.
struct col3 {
  float v[3];
  __device__ float &operator[](int i) {
    assert(i < 3);
    return v[i];
  }
};
struct mat3 {
  col3 c[3];
  __device__ col3 &operator[](int i) {
    assert(i < 3);
    return c[i];
  }
};

__global__ void compound(float *dmean, const int *ids,
                         const vec3 *__restrict__ p, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    vec3 d = p[threadIdx.x];
    atomicAdd(&dmean[id * 3 + 0], d.x);
    d -= p[j];
    atomicAdd(&dmean[id * 3 + 1], d.y);
    const vec3 e = d - p[j];
    atomicAdd(&dmean[id * 3 + 2], e.z);
  }
}

__global__ void matrix(float *dcov, const int *ids,
                       const float *__restrict__ a, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    const float g = a[j * 256 + threadIdx.x];
    mat3 J;
    atomicAdd(&dcov[id * 3 + 0], g);
    J[0][0] = g;
    J[1][1] = 2.f * g;
    atomicAdd(&dcov[id * 3 + 1], J[0][0]);
    atomicAdd(&dcov[id * 3 + 2], J[1][1]);
  }
}

// An AT_DISPATCH_FLOATING_TYPES-style kernel: the local's operators are
// those of a type that depends on the template parameter.
template <typename scalar_t> struct pair2 {
  scalar_t a, b;
  __device__ pair2 &operator*=(scalar_t s) {
    a *= s;
    b *= s;
    return *this;
  }
};

template <typename scalar_t>
__global__ void perType(scalar_t *grad, const int *ids,
                        const scalar_t *__restrict__ x, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    pair2<scalar_t> q{x[j * 256 + threadIdx.x], x[j]};
    atomicAdd(&grad[id * 2 + 0], q.a * scalar_t(2));
    q *= scalar_t(0.5);
    atomicAdd(&grad[id * 2 + 1], q.b - q.a);
  }
}
template __global__ void perType<float>(float *, const int *, const float *,
                                        int);
template __global__ void perType<double>(double *, const int *,
                                         const double *, int);

// The object is reached through a pointer: it may be a destination.
__global__ void throughPointer(float *g, const int *ids, vec3 *s,
                               const float *__restrict__ a, int n) {
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    atomicAdd(&g[id * 2 + 0], a[j]);
    *s -= vec3{a[j], 0.f, 0.f};
    atomicAdd(&g[id * 2 + 1], a[j]);
  }
}

// The method stores through its object's pointer member.
struct sink {
  float *out;
  __device__ void put(float v) { out[0] = v; }
};

__global__ void storesElsewhere(float *g, const int *ids,
                                const float *__restrict__ a, int n) {
  sink k{g};
  for (int j = 0; j < n; j++) {
    const int id = ids[j];
    atomicAdd(&g[id * 2 + 0], a[j]);
    k.put(a[j]);
    atomicAdd(&g[id * 2 + 1], a[j]);
  }
}
