// SPDX-License-Identifier: Apache-2.0
// Device writes into host memory that are not copies (issue 12), through the
// runtime: a CUDA C kernel writing mapped pinned memory
// (cudaHostAlloc(..., cudaHostAllocMapped)), given its host address (unified
// addressing) or its device pointer (cudaHostGetDevicePointer).
// tests/gpu/run.sh (MAPPED_CASES) builds it with the static and the shared
// runtime.
//
//   mapped MODE
//
// Each mode puts a ~20 ms spin kernel on the stream first, so that the
// kernel under test is still pending when the host goes on. "_race" modes
// read (or write) the memory before observing the kernel: under syncguard a
// report, then correct data (exit 66); the "_ok" twins must be silent.
// Prints "check: ok" when the data read were right, else "check: MISMATCH"
// (exit 1). Exit 2: CUDA error; 77: not supported here.
//
//   kernel_race        fill<<<>>>(host pointer), host reads at once
//   kernel_sync_ok     ... after cudaStreamSynchronize
//   kernel_alias_race  fill<<<>>>(cudaHostGetDevicePointer's pointer)
//   kernel_event_ok    ... after cudaEventSynchronize of an event after it
//   kernel_write_race  the host writes a word the kernel fills: with
//                      kernel_args=2 syncguard makes the write wait for the
//                      kernel (boundedly), so it survives
//   memset_race        cudaMemsetAsync on pinned memory, host reads at once
//   memset_sync_ok     ... after cudaStreamSynchronize
//   flag_poll_ok       a D2H copy, then cuStreamWriteValue32 (through
//                      cudaGetDriverEntryPointByVersion) of 1 into a pinned flag on
//                      the same stream; the host spins on the flag, then
//                      reads the copy: the poll observed it (item 4)
//   flag_poll_race     the same with the flag written on another stream
#include <cuda.h>

#include "rules.cuh"

static const uint32_t MINE = 0x600dcafeu;

__global__ void fill(uint32_t *p, size_t n, uint32_t v) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    p[i] = v;
}



static uint32_t *mapped_old(void) {
  uint32_t *h;
  CK(cudaHostAlloc(&h, BYTES, cudaHostAllocMapped));
  for (size_t i = 0; i < N; i++) h[i] = OLD;
  return h;
}

// spin, then fill(p) on s.
static void spin_then_fill(cudaStream_t s, uint32_t *p) {
  spin_on(s);
  fill<<<64, 256, 0, s>>>(p, N, NEW);
  CK(cudaGetLastError());
}

static int kernel(const char *mode) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint32_t *h = mapped_old(), *d = h;
  if (strstr(mode, "alias") || strstr(mode, "event")) CK(cudaHostGetDevicePointer((void **)&d, h, 0));
  cudaEvent_t ev;
  CK(cudaEventCreate(&ev));
  CK(cudaDeviceSynchronize());
  spin_then_fill(s, d);
  if (is(mode, "kernel_sync_ok")) CK(cudaStreamSynchronize(s));
  if (is(mode, "kernel_event_ok")) {
    CK(cudaEventRecord(ev, s));
    CK(cudaEventSynchronize(ev));
  }
  if (is(mode, "kernel_write_race")) {
    ((volatile uint32_t *)h)[7] = MINE;  // the race: the kernel may overwrite it
    CK(cudaStreamSynchronize(s));
    uint32_t word = h[7];
    h[7] = NEW;
    printf("word 7 after the kernel: %#x (the host wrote %#x)\n", word, MINE);
    if (word != MINE) {
      printf("check: MISMATCH the kernel overwrote the host's early write\n");
      return 1;
    }
    return verdict(wrong(h, NEW), "the kernel's other words");
  }
  return verdict(wrong(h, NEW), mode);  // the race, unless synchronized above
}

static int memset_mode(const char *mode) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint32_t *h = mapped_old();
  CK(cudaDeviceSynchronize());
  spin_on(s);
  CK(cudaMemsetAsync(h, 0x5e, BYTES, s));  // every byte 0x5e
  if (is(mode, "memset_sync_ok")) CK(cudaStreamSynchronize(s));
  return verdict(wrong(h, 0x5e5e5e5eu), mode);
}

typedef CUresult (*write_value_fn)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

static int flag_mode(const char *mode) {
  write_value_fn write_value = NULL;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuStreamWriteValue32", (void **)&write_value, 12000,
                                       cudaEnableDefault, &q));
  if (!write_value || q != cudaDriverEntryPointSuccess) {
    printf("SKIP: no cuStreamWriteValue32\n");
    return 77;
  }
  cudaStream_t s, fs;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&fs, cudaStreamNonBlocking));
  if (is(mode, "flag_poll_ok")) fs = s;
  uint32_t *h = mapped_old(), *d, *flag;
  CK(cudaMalloc(&d, BYTES));
  CK(cudaMemset(d, 0x5e, BYTES));
  CK(cudaHostAlloc(&flag, sizeof *flag, cudaHostAllocMapped));
  *flag = 0;
  CK(cudaDeviceSynchronize());
  spin_on(s);
  CK(cudaMemcpyAsync(h, d, BYTES, cudaMemcpyDeviceToHost, s));
  if (write_value((CUstream)fs, (CUdeviceptr)(uintptr_t)flag, 1, 0) != CUDA_SUCCESS) {
    printf("SKIP: cuStreamWriteValue32 on pinned memory failed\n");
    return 77;
  }
  while (*(volatile uint32_t *)flag != 1) {
  }
  return verdict(wrong(h, 0x5e5e5e5eu), mode);  // the race when the flag was another stream's
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mapped MODE\n");
    return 2;
  }
  if (!strncmp(argv[1], "kernel_", 7)) return kernel(argv[1]);
  if (!strncmp(argv[1], "memset_", 7)) return memset_mode(argv[1]);
  if (!strncmp(argv[1], "flag_", 5)) return flag_mode(argv[1]);
  fprintf(stderr, "unknown mode %s\n", argv[1]);
  return 2;
}
