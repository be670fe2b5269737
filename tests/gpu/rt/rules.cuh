// SPDX-License-Identifier: Apache-2.0
// What the issue 11 runtime-API programs share (edges.cu, nohang.cu): the
// error check, the buffers' size and contents (device and pinned buffers
// filled with a word), a spin kernel that keeps a
// copy after it in flight, and the verdict.
#ifndef SG_RT_RULES_CUH
#define SG_RT_RULES_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                             \
  do {                                                                       \
    cudaError_t e_ = (call);                                                 \
    if (e_ == cudaErrorNotSupported) {                                       \
      printf("SKIP: %s: %s\n", #call, cudaGetErrorString(e_));               \
      exit(77);                                                              \
    }                                                                        \
    if (e_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,          \
              cudaGetErrorString(e_));                                       \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

static const size_t N = (1u << 20) / sizeof(uint32_t);  // 1 MiB of uint32
static const size_t BYTES = N * sizeof(uint32_t);
static const uint32_t NEW = 0x5eed1234u, OLD = 0x0badf00du;

__global__ void spin(unsigned long long ns) {
  unsigned long long t0, t;
  long long c0 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns && (unsigned long long)(clock64() - c0) < 8 * ns);
}

static void spin_on(cudaStream_t s) {
  spin<<<1, 1, 0, s>>>(20ull * 1000 * 1000);
  CK(cudaGetLastError());
}

// How many words of h are not want (the read under test).
static unsigned wrong(const volatile uint32_t *h, uint32_t want) {
  unsigned n = 0;
  for (size_t i = 0; i < N; i++) n += h[i] != want;
  return n;
}

static int verdict(unsigned bad, const char *when) {
  printf("%s: %u of %zu words wrong\ncheck: %s\n", when, bad, N, bad ? "MISMATCH" : "ok");
  fflush(stdout);
  return bad ? 1 : 0;
}

static uint32_t *device_of(uint32_t word) {
  uint32_t *d;
  CK(cudaMalloc(&d, BYTES));
  uint32_t *h = (uint32_t *)malloc(BYTES);
  for (size_t i = 0; i < N; i++) h[i] = word;
  CK(cudaMemcpy(d, h, BYTES, cudaMemcpyHostToDevice));
  free(h);
  return d;
}

static uint32_t *pinned_of(uint32_t word) {
  uint32_t *h;
  CK(cudaMallocHost(&h, BYTES));
  for (size_t i = 0; i < N; i++) h[i] = word;
  return h;
}

static int is(const char *mode, const char *name) { return !strcmp(mode, name); }

#endif
