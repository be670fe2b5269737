/* SPDX-License-Identifier: Apache-2.0 */
// Runtime-API async copies for the GPU acceptance suite (tests/gpu/run.sh).
//
//   copies MODE
//
// Every mode puts a ~20 ms spin kernel on the stream before the copy, so a
// host access that does not wait for the copy really runs ahead of it.
// The program prints sum=... and expected=... and then "check: ok", or
// "check: MISMATCH" and exits 1 (under syncguard a mismatch means syncguard
// let the early access see wrong data). Exit 2: CUDA error or bad usage.
//
// D2H modes: the host sums the pinned destination at once (race) or after a
// synchronization (silent twins); "expected" is the sum after a full sync.
//   d2h-race            nothing between the copy and the read
//   d2h-stream-sync     cudaStreamSynchronize(s)
//   d2h-event-sync      cudaEventRecord(e, s) + cudaEventSynchronize(e)
//   d2h-device-sync     cudaDeviceSynchronize()
//   d2h-query-poll      cudaStreamQuery(s) until it stops saying NotReady
//   d2h-null-race       copy on stream 0 (legacy, or per-thread when built so)
//   d2h-null-sync       copy on stream 0 + cudaStreamSynchronize(0)
//   d2h-nonblocking-null    copy on a cudaStreamNonBlocking stream + cudaStreamSynchronize(0): still a race
//   d2h-nonblocking-legacy  same + cudaStreamSynchronize(cudaStreamLegacy): still a race
//   d2h-pageable        malloc'd destination: the copy is synchronous, no race
// H2D modes: the host overwrites the pinned source; the device must still get
// the original data (syncguard completes the copy before letting the write in).
//   h2d-race            overwrite right after cudaMemcpyAsync
//   h2d-sync            cudaStreamSynchronize(s) before the overwrite
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                             \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,          \
              cudaGetErrorString(e_));                                       \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

static const size_t N = (4u << 20) / sizeof(uint32_t);  // 4 MiB of uint32
static const unsigned long long SPIN_NS = 20ull * 1000 * 1000;

__host__ __device__ static inline uint32_t pattern(size_t i) {
  return (uint32_t)i * 2654435761u + 12345u;  // never all zero
}

// Busy-waits ns nanoseconds by %globaltimer; the clock64 bound only guards
// against a timer that does not tick.
__global__ void spin(unsigned long long ns) {
  unsigned long long t0, t;
  long long c0 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns && (unsigned long long)(clock64() - c0) < 8 * ns);
}

__global__ void fill(uint32_t *buf, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    buf[i] = pattern(i);
}

static unsigned long long sum(const uint32_t *p, size_t n) {
  unsigned long long s = 0;
  for (size_t i = 0; i < n; i++) s += p[i];
  return s;
}

static unsigned long long pattern_sum(size_t n) {
  unsigned long long s = 0;
  for (size_t i = 0; i < n; i++) s += pattern(i);
  return s;
}

// The program's verdict; copy_ok = the data after a full sync is right.
static int report(unsigned long long got, unsigned long long want, int copy_ok) {
  int ok = got == want && copy_ok;
  printf("sum=%llu\nexpected=%llu\n", got, want);
  printf("check: %s\n", ok ? "ok" : copy_ok ? "MISMATCH" : "MISMATCH (wrong data even after sync)");
  fflush(stdout);
  return ok ? 0 : 1;
}

static void spin_on(cudaStream_t s) {
  spin<<<1, 1, 0, s>>>(SPIN_NS);
  CK(cudaGetLastError());
}

static int d2h(const char *mode) {
  const size_t bytes = N * sizeof(uint32_t);
  int pageable = !strcmp(mode, "d2h-pageable");
  int null_stream = !strncmp(mode, "d2h-null-", 9);
  int nonblocking = !strncmp(mode, "d2h-nonblocking-", 16);

  uint32_t *dev, *host;
  CK(cudaMalloc(&dev, bytes));
  if (pageable) {
    host = (uint32_t *)malloc(bytes);
    if (!host) { perror("malloc"); return 2; }
  } else {
    CK(cudaMallocHost(&host, bytes));
  }
  memset(host, 0, bytes);

  cudaStream_t s = 0;
  if (!null_stream)
    CK(cudaStreamCreateWithFlags(&s, nonblocking ? cudaStreamNonBlocking
                                                 : cudaStreamDefault));
  cudaEvent_t ev;
  CK(cudaEventCreate(&ev));
  CK(cudaDeviceSynchronize());  // setup done; only the copy below is in flight

  spin_on(s);
  fill<<<264, 256, 0, s>>>(dev, N);
  CK(cudaGetLastError());
  CK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s));

  if (!strcmp(mode, "d2h-stream-sync") || !strcmp(mode, "d2h-null-sync")) {
    CK(cudaStreamSynchronize(s));
  } else if (!strcmp(mode, "d2h-event-sync")) {
    CK(cudaEventRecord(ev, s));
    CK(cudaEventSynchronize(ev));
  } else if (!strcmp(mode, "d2h-device-sync")) {
    CK(cudaDeviceSynchronize());
  } else if (!strcmp(mode, "d2h-query-poll")) {
    cudaError_t e;
    while ((e = cudaStreamQuery(s)) == cudaErrorNotReady) {
    }
    CK(e);
  } else if (!strcmp(mode, "d2h-nonblocking-null")) {
    CK(cudaStreamSynchronize(0));  // does not wait for a non-blocking stream
  } else if (!strcmp(mode, "d2h-nonblocking-legacy")) {
    CK(cudaStreamSynchronize(cudaStreamLegacy));  // nor does this
  }  // d2h-race, d2h-null-race, d2h-pageable: nothing

  unsigned long long got = sum(host, N);  // the access under test

  CK(cudaDeviceSynchronize());
  unsigned long long after = sum(host, N);
  int rc = report(got, after, after == pattern_sum(N));
  CK(cudaEventDestroy(ev));
  if (s) CK(cudaStreamDestroy(s));
  if (pageable) free(host); else CK(cudaFreeHost(host));
  CK(cudaFree(dev));
  return rc;
}

static int h2d(const char *mode) {
  const size_t bytes = N * sizeof(uint32_t);
  int sync = !strcmp(mode, "h2d-sync");
  uint32_t *dev, *src, *back = (uint32_t *)malloc(bytes);
  if (!back) { perror("malloc"); return 2; }
  CK(cudaMalloc(&dev, bytes));
  CK(cudaMemset(dev, 0, bytes));
  CK(cudaMallocHost(&src, bytes));
  for (size_t i = 0; i < N; i++) src[i] = pattern(i);
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  CK(cudaDeviceSynchronize());

  spin_on(s);
  CK(cudaMemcpyAsync(dev, src, bytes, cudaMemcpyHostToDevice, s));
  if (sync) CK(cudaStreamSynchronize(s));

  for (size_t i = 0; i < N; i++) src[i] = 0;  // the access under test

  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(back, dev, bytes, cudaMemcpyDeviceToHost));  // pageable: synchronous
  int rc = report(sum(back, N), pattern_sum(N), 1);
  CK(cudaStreamDestroy(s));
  CK(cudaFreeHost(src));
  CK(cudaFree(dev));
  free(back);
  return rc;
}

static const char *const MODES[] = {
    "d2h-race", "d2h-stream-sync", "d2h-event-sync", "d2h-device-sync",
    "d2h-query-poll", "d2h-null-race", "d2h-null-sync", "d2h-nonblocking-null",
    "d2h-nonblocking-legacy", "d2h-pageable", "h2d-race", "h2d-sync"};

int main(int argc, char **argv) {
  for (size_t i = 0; argc == 2 && i < sizeof MODES / sizeof *MODES; i++)
    if (!strcmp(argv[1], MODES[i]))
      return !strncmp(argv[1], "h2d-", 4) ? h2d(argv[1]) : d2h(argv[1]);
  fprintf(stderr, "usage: %s MODE (modes: see the top of copies.cu)\n", argv[0]);
  return 2;
}
