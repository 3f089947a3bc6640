// Tensor accessors (a class held by value whose pure `operator[]` returns a
// smaller view, then an element): `&grad[ch][n]` is one field keyed by its
// own address, so lanes that add to the same element reduce whatever their
// indices are. auto batches an element the warp shares (uniform or likely
// uniform indices); one whose address varies across lanes is left alone
// (DW0051: single elements gain little), one distinct per lane too (DW0027);
// --variant=serial batches it. A written accessor, or an impure subscript,
// stays an unknown address form.
// RUN: %distwar-rewrite --no-cuda-sdk %s --report --report-file=%t.txt -- %shim > %t.cu
// RUN: %distwar-rewrite --no-cuda-sdk --variant=serial %s -- %shim > %t.serial.cu
// RUN: grep -v '^ *//' %t.serial.cu | %FileCheck %s --check-prefix=SERIAL
// RUN: %if nvcc %{ %nvcc-check %t.serial.cu %}
// RUN: %FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: grep -v '^ *//' %t.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk %t.cu -- %shim -I %runtime_include | diff %t.cu -
// RUN: %if nvcc %{ %nvcc-check %t.cu %}

template <typename T, int N> struct View {
  __device__ View(T *d, const long *st) : data(d), strides(st) {}
  __device__ View<T, N - 1> operator[](long i) const {
    return View<T, N - 1>(data + strides[0] * i, strides + 1);
  }
  T *data;
  const long *strides;
};
template <typename T> struct View<T, 1> {
  __device__ View(T *d, const long *st) : data(d), strides(st) {}
  __device__ T &operator[](long i) const { return data[strides[0] * i]; }
  T *data;
  const long *strides;
};

// REPORT-DAG: compositeBackward buffer=grad_features key=&grad_features[ch][n] type=float group=compositeBackward@{{[0-9]+}} [DW0051 element-key-varies
// REPORT-DAG: compositeBackward buffer=grad_alphas key=&grad_alphas[k][lane] type=float group=compositeBackward@{{[0-9]+}} [DW0027 distinct-keys
// CHECK-LABEL: __global__ void compositeBackward(
// CHECK: atomicAdd(&grad_alphas[k][lane], a);
// CHECK-NEXT: atomicAdd(&grad_features[ch][n], 2.f * a);
// SERIAL-LABEL: __global__ void compositeBackward(
// SERIAL: ::distwar::Fields<float, 1, ::distwar::AlwaysSet<0, 1>> distwar_batch1;
// SERIAL: distwar_batch1.set(0, &grad_features[ch][n], 2.f * a);
// SERIAL: ::distwar::reduceSerial(
// SERIAL: distwar_batch1,
// SERIAL: &grad_features[ch][n],
// SERIAL: DISTWAR_SITE_THRESHOLD(
// SERIAL: distwar_sites_accessor_subscripts_cu,
// SERIAL: 1),
// SERIAL: [&](int distwar_slot) ->
// SERIAL: float * {
// SERIAL: if (distwar_slot == 0)
// SERIAL: return &grad_features[ch][n];
// SERIAL: return nullptr;
// SERIAL: });
__global__ void compositeBackward(View<float, 2> grad_features,
                                  View<float, 2> grad_alphas,
                                  const View<float, 2> alphas,
                                  const View<long, 2> idx, int C, int K,
                                  int P) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x;
  for (int pid = tid; pid < C * P; pid += blockDim.x * gridDim.x) {
    const int ch = pid / P;
    const int p = pid % P;
    for (int k = 0; k < K; ++k) {
      const long n = idx[k][p];
      if (n < 0)
        continue;
      const float a = alphas[k][p];
      atomicAdd(&grad_alphas[k][lane], a);
      atomicAdd(&grad_features[ch][n], 2.f * a);
    }
  }
}

// The same element for the whole warp: a butterfly with no key check.
// REPORT-DAG: group uniformElement#0: batched (butterfly-uniform) key=&grad[j][c] type=float sites=1 slots=1
__global__ void uniformElement(View<float, 2> grad, const float *__restrict__ x,
                               int n, int c) {
  for (int j = 0; j < n; j++) {
    const float v = x[j * 32 + threadIdx.x % 32];
    atomicAdd(&grad[j][c], v);
  }
}

// The kernel moves its accessor: not the same object at the reduction.
// REPORT-DAG: reassigned type=float [DW0005 address-form
__global__ void reassigned(View<float, 2> grad, View<float, 2> grad_next,
                           const int *ids, int n) {
  for (int j = 0; j < n; j++) {
    atomicAdd(&grad_next[j][ids[j]], 1.f);
    grad_next = grad;
  }
}
