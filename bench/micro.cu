/* SPDX-License-Identifier: Apache-2.0 */
// syncguard microbenchmark (bench/run.sh builds it with plain nvcc).
//
//   micro [SCALE [CASE...]]
//                     SCALE multiplies every iteration count (default 1;
//                     run.sh passes 0.1 under compute-sanitizer); CASEs,
//                     when given, are the only cases run (profiling one)
//
// Prints "case,iterations,us_per_iter" per case: the mean host time of one
// iteration, after a warmup of a tenth of the iterations. CUDA init and all
// allocations happen before any timing. Cases:
//   d2h_pinned_SIZE   cudaMemcpyAsync D2H into cudaMallocHost memory on a
//                     created stream + cudaStreamSynchronize, then the host
//                     reads the first byte (guarded by syncguard)
//   d2h_pinned_4x4KiB four D2H async copies of 4 KiB into neighbouring pages
//                     of one pinned buffer + one cudaStreamSynchronize (the
//                     four guards are released by one mprotect)
//   h2d_pinned_4KiB   same, host-to-device from pinned memory (guarded)
//   d2h_pageable_4KiB D2H async into malloc'ed memory + sync (not guarded)
//   d2d_1MiB          device-to-device async + sync (not guarded)
//   event_record_query  cudaEventRecord + cudaEventQuery on an idle stream
//   stream_query      cudaStreamQuery on an idle stream
// Kernel launches (what decoding launch arguments costs, issue 12): an
// empty kernel taking four device pointers and two ints, launched on a
// created stream, with a cudaStreamSynchronize every 256 launches (the
// same in every configuration); compare native and preloaded side by side:
//   launch_6args_nopinned  before the process has any pinned memory
//                          (syncguard: one atomic load)
//   launch_6args           after it has (syncguard: the kernel's cached
//                          layout, each pointer looked up among the pinned
//                          ranges: the target is within 0.2 us of native)
//   launch_mapped_sync     the same kernel given a 4 KiB pinned buffer, then
//                          cudaStreamSynchronize each time (syncguard
//                          guards the allocation, the sync releases it)
// Exit 1 on a CUDA error (message on stderr).
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CK(call)                                                        \
  do {                                                                  \
    cudaError_t e_ = (call);                                            \
    if (e_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,     \
              cudaGetErrorString(e_));                                  \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

static double scale = 1.0;

__global__ void six(unsigned char *a, unsigned char *b, unsigned char *c, unsigned char *d,
                    int x, int y) {
  if (x == y + 1 && a == b) *c = *d;  // never true: keeps the arguments live
}
static volatile unsigned char sink;
static char **only;  // the cases named on the command line, or none

static bool wanted(const char *name) {
  if (!only || !*only) return true;
  for (char **c = only; *c; c++)
    if (strcmp(*c, name) == 0) return true;
  return false;
}

template <class F>
static void bench(const char *name, long iters, F body) {
  if (!wanted(name)) return;
  iters = (long)(iters * scale);
  if (iters < 10) iters = 10;
  for (long i = 0; i < iters / 10 + 1; i++) body();
  auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iters; i++) body();
  auto t1 = std::chrono::steady_clock::now();
  double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
  printf("%s,%ld,%.4f\n", name, iters, us / iters);
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc > 1) scale = atof(argv[1]);
  if (argc > 2) only = argv + 2;
  if (!(scale > 0)) {
    fprintf(stderr, "usage: micro [SCALE>0 [CASE...]]\n");
    return 1;
  }
  const size_t KiB = 1024, MiB = 1024 * KiB, BIG = 64 * MiB;
  CK(cudaSetDevice(0));
  cudaStream_t s;
  cudaEvent_t ev;
  CK(cudaStreamCreate(&s));
  CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  unsigned char *dev, *dev2, *pinned;
  CK(cudaMalloc(&dev, BIG));
  CK(cudaMalloc(&dev2, MiB));
  CK(cudaMemset(dev, 7, BIG));
  long launches = 0;
  auto launch_six = [&](unsigned char *arg) {
    six<<<1, 32, 0, s>>>(dev, dev2, arg, dev, 1, 1);
    CK(cudaGetLastError());
    if (++launches % 256 == 0) CK(cudaStreamSynchronize(s));
  };
  CK(cudaDeviceSynchronize());
  bench("launch_6args_nopinned", 200000, [&] { launch_six(dev2); });
  CK(cudaStreamSynchronize(s));
  CK(cudaMallocHost(&pinned, BIG));
  memset(pinned, 1, BIG);
  unsigned char *pageable = (unsigned char *)malloc(4 * KiB);
  memset(pageable, 1, 4 * KiB);
  CK(cudaDeviceSynchronize());

  struct { const char *name; size_t bytes; long iters; } d2h[] = {
      {"d2h_pinned_4KiB", 4 * KiB, 20000},
      {"d2h_pinned_1MiB", MiB, 5000},
      {"d2h_pinned_64MiB", BIG, 200},
  };
  for (auto &c : d2h)
    bench(c.name, c.iters, [&] {
      CK(cudaMemcpyAsync(pinned, dev, c.bytes, cudaMemcpyDeviceToHost, s));
      CK(cudaStreamSynchronize(s));
      sink = pinned[0];
    });
  bench("d2h_pinned_4x4KiB", 10000, [&] {
    for (int k = 0; k < 4; k++)
      CK(cudaMemcpyAsync(pinned + k * 4 * KiB, dev + k * 4 * KiB, 4 * KiB,
                         cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    sink = pinned[0];
  });
  bench("h2d_pinned_4KiB", 20000, [&] {
    CK(cudaMemcpyAsync(dev, pinned, 4 * KiB, cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
    pinned[0] = sink;
  });
  bench("d2h_pageable_4KiB", 20000, [&] {
    CK(cudaMemcpyAsync(pageable, dev, 4 * KiB, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    sink = pageable[0];
  });
  bench("d2d_1MiB", 20000, [&] {
    CK(cudaMemcpyAsync(dev2, dev, MiB, cudaMemcpyDeviceToDevice, s));
    CK(cudaStreamSynchronize(s));
  });
  bench("event_record_query", 100000, [&] {
    CK(cudaEventRecord(ev, s));
    cudaError_t e = cudaEventQuery(ev);  // the record may still be queued
    if (e != cudaErrorNotReady) CK(e);
  });
  CK(cudaStreamSynchronize(s));
  bench("stream_query", 200000, [&] { CK(cudaStreamQuery(s)); });
  bench("launch_6args", 200000, [&] { launch_six(dev2); });
  CK(cudaStreamSynchronize(s));
  unsigned char *small_pinned;  // a 4 KiB allocation: one page to guard
  CK(cudaMallocHost(&small_pinned, 4 * KiB));
  bench("launch_mapped_sync", 20000, [&] {
    six<<<1, 32, 0, s>>>(dev, dev2, small_pinned, dev, 1, 1);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
  });

  CK(cudaStreamSynchronize(s));
  CK(cudaEventDestroy(ev));
  CK(cudaStreamDestroy(s));
  CK(cudaFreeHost(small_pinned));
  CK(cudaFreeHost(pinned));
  CK(cudaFree(dev2));
  CK(cudaFree(dev));
  free(pageable);
  return 0;
}
