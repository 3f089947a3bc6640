// --form-choice=run-time: --variant=auto writes a butterfly group with the
// serial form too where the
// serial form could reduce it differently (a key checked at run time, or
// lanes that skip the group): its loop becomes a generic lambda that
// runForms calls in the version the site's value picks, and the launch's
// tuner searches form and threshold together (the fourth member of the
// launch's site reference). A uniform key that every lane reduces keeps the
// butterfly alone (both forms are one tree there), and so does a batch of
// more than 16 fields (both versions in one kernel take the registers of
// the serial form's, which grow with the batch).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %distwar-rewrite --no-cuda-sdk --form-choice=run-time --format-style=none %s --report --report-file=%t/auto.txt -- %shim > %t/auto.cu
// RUN: %FileCheck %s --check-prefix=REPORT < %t/auto.txt
// RUN: grep -v '^ *//' %t/auto.cu | %FileCheck %s
// RUN: %distwar-rewrite --no-cuda-sdk --form-choice=run-time --format-style=none %s --report=json --report-file=%t/auto.json -- %shim > /dev/null
// RUN: grep -c '"serial_form": true' %t/auto.json | grep -x 2
//
// One form by default (--form-choice=rewrite-time), with FormChoice in
// .distwar.yaml, and with --variant=butterfly.
// RUN: %distwar-rewrite --no-cuda-sdk %s -- %shim > %t/one.cu
// RUN: grep -v '^ *//' %t/one.cu | %FileCheck %s --check-prefix=ONE
// RUN: %distwar-rewrite --no-cuda-sdk --variant=butterfly %s -- %shim | grep -v '^ *//' | %FileCheck %s --check-prefix=ONE
// RUN: mkdir -p %t/project && cp %s %t/project/k.cu
// RUN: printf 'FormChoice: run-time\n' > %t/project/.distwar.yaml
// RUN: %distwar-rewrite --no-cuda-sdk %t/project/k.cu -- %shim | grep -v '^ *//' | grep -c 'OrSerial(' | grep -x 2
// RUN: %distwar-rewrite --no-cuda-sdk --form-choice=rewrite-time %t/project/k.cu -- %shim | grep -v '^ *//' | %FileCheck %s --check-prefix=ONE
// RUN: not %distwar-rewrite --no-cuda-sdk --form-choice=sometimes %s -- %shim 2>&1 | %FileCheck %s --check-prefix=BAD-FLAG
// RUN: printf 'FormChoice: later\n' > %t/project/.distwar.yaml
// RUN: not %distwar-rewrite --no-cuda-sdk %t/project/k.cu -- %shim 2>&1 | %FileCheck %s --check-prefix=BAD-YAML
//
// RUN: %distwar-rewrite --no-cuda-sdk --form-choice=run-time %t/auto.cu -- %shim -I %runtime_include | diff %t/auto.cu -
// RUN: %if nvcc %{ %nvcc-check %t/auto.cu %}
// RUN: %if nvcc %{ %nvcc-check %t/one.cu %}

// REPORT-DAG: group skips#0: batched (butterfly-uniform or serial, chosen at run time) key=key
// REPORT-DAG: group loaded#0: batched (butterfly or serial, chosen at run time) key=id
// REPORT-DAG: group straight#0: batched (butterfly-uniform) key=key
// REPORT-DAG: group wide#0: batched (butterfly-uniform) key=key
// REPORT-DAG: group strip#0: batched (butterfly-uniform) key=key type=float sites=2 slots=2 strip

// CHECK-LABEL: __global__ void skips(
// CHECK: { auto distwar_forms0 = [&](auto distwar_serial0) { for (int j = 0; j < n; ++j) {
// CHECK: ::distwar::reduceButterflyUniformOrSerial(distwar_serial0, distwar_batch0, distwar_active0, distwar_key0, DISTWAR_SITE_THRESHOLD(distwar_sites_run_time_form_cu, 0),
// CHECK: } }; ::distwar::runForms(DISTWAR_SITE_THRESHOLD(distwar_sites_run_time_form_cu, 0), distwar_forms0); }
// ONE-LABEL: __global__ void skips(
// ONE-NOT: OrSerial
// ONE: reduceButterflyUniform(
__global__ void skips(const float *__restrict__ x, float *g, int n, int key) {
  for (int j = 0; j < n; ++j) {
    const float v = x[j * 32 + threadIdx.x % 32];
    if (v < 0.f)
      continue;
    atomicAdd(&g[2 * key], v);
    atomicAdd(&g[2 * key + 1], 2.f * v);
  }
}

// A key loaded at a uniform address of a buffer that may change: likely the
// same in every lane, checked at run time.
// CHECK-LABEL: __global__ void loaded(
// CHECK: ::distwar::reduceButterflyOrSerial(distwar_serial0, distwar_batch0, true, distwar_key0,
// ONE-LABEL: __global__ void loaded(
// ONE-NOT: OrSerial
// ONE: reduceButterfly(
__global__ void loaded(const float *__restrict__ x, const int *ids, float *g,
                       int n) {
  for (int j = 0; j < n; ++j) {
    const int id = ids[j];
    const float v = x[j * 32 + threadIdx.x % 32];
    atomicAdd(&g[2 * id], v);
    atomicAdd(&g[2 * id + 1], v * v);
  }
}

// CHECK-LABEL: __global__ void straight(
// CHECK: ::distwar::reduceButterflyUniform(distwar_batch0, true,
// ONE-LABEL: __global__ void straight(
// ONE: reduceButterflyUniform(
__global__ void straight(const float *__restrict__ x, float *g, int key) {
  const float v = x[threadIdx.x];
  atomicAdd(&g[2 * key], v);
  atomicAdd(&g[2 * key + 1], v * v);
}

// A strip reduces the laps of its loop together, which the serial form does
// not do: one form.
// CHECK-LABEL: __global__ void strip(
// CHECK-NOT: OrSerial
// CHECK: ::distwar::reduceStrip(
__global__ void strip(const float *__restrict__ x, float *g, int n, int key) {
  for (int j = 0; j < n; ++j) {
    const float v = x[j * 32 + threadIdx.x % 32];
    atomicAdd(&g[2 * key], v);
    atomicAdd(&g[2 * key + 1], v * v);
  }
}

// Twenty fields: the butterfly alone.
// CHECK-LABEL: __global__ void wide(
// CHECK-NOT: OrSerial
// CHECK: ::distwar::reduceButterflyUniform(
__global__ void wide(const float *__restrict__ x, float *g, int n, int key) {
  for (int j = 0; j < n; ++j) {
    const float v = x[j * 32 + threadIdx.x % 32];
    if (v < 0.f)
      continue;
#pragma unroll
    for (int c = 0; c < 20; ++c)
      atomicAdd(&g[20 * key + c], v);
  }
}

// CHECK-LABEL: void launch(
// CHECK: distwar_tuner0("skips", {{[{][{]}}&distwar_sites_run_time_form_cu, "skips#0", false, true}});
// CHECK: distwar_tuner1("loaded", {{[{][{]}}&distwar_sites_run_time_form_cu, "loaded#0", false, true}});
// CHECK: distwar_tuner2("straight", {{[{][{]}}&distwar_sites_run_time_form_cu, "straight#0"}});
// CHECK: distwar_tuner3("strip", {{[{][{]}}&distwar_sites_run_time_form_cu, "strip#0"}});
// ONE-LABEL: void launch(
// ONE-NOT: false, true}
void launch(const float *x, const int *ids, float *g, int n) {
  skips<<<4, 64>>>(x, g, n, 1);
  loaded<<<4, 64>>>(x, ids, g, n);
  straight<<<4, 64>>>(x, g, 2);
  strip<<<4, 64>>>(x, g, n, 3);
}

// BAD-FLAG: --form-choice takes run-time or rewrite-time, not 'sometimes'
// BAD-YAML: .distwar.yaml: FormChoice takes run-time or rewrite-time, not 'later'
