// SPDX-License-Identifier: Apache-2.0
// Runtime-API versions of the issue 11 rules 1 and 2 (tests/gpu/run.sh,
// NOHANG_CASES): never hang a correct program, only what the driver
// accepted and runs orders anything.
//
//   nohang MODE
//
// "_race" modes touch a buffer of a copy still in flight (behind a ~20 ms
// spin kernel, or a gate another thread opens 200 ms later): under
// syncguard a report, then correct data (exit 66); the "_ok" twins must be
// silent and must not hang. "check: ok" when the data were right, else
// "check: MISMATCH" (exit 1). Exit 2: CUDA error; 77: not supported here.
//
//   hostfn_fill_ok        cudaLaunchHostFunc fills a pinned staging buffer;
//                         cudaMemcpyAsync H2D from it after it, same stream
//   hostfn_fill_race      the host function runs on another non-blocking
//                         stream while the copy is in flight
//   hostfn_consumer_ok    D2H copy, a host function reading the buffer, a
//                         second D2H copy into it, one stream
//   hostfn_consumer_race  the reading host function on another stream
//   gate_fill_ok          the host fills the source of an H2D copy behind a
//                         cuStreamWaitValue32 gate, then opens the gate
//   gate_fill_race        another thread opens the gate 200 ms later while
//                         the host fills the source
//   legacy_query_race     blocking stream a: D2H copy in flight;
//                         cudaStreamQuery(cudaStreamLegacy) not ready; an
//                         event recorded and synchronized on blocking stream
//                         b; read
//   legacy_query_ok       a memset on the legacy stream instead of the query
#include <cuda.h>
#include <pthread.h>
#include <time.h>

#include "rules.cuh"

static const uint32_t SECOND = 0x2222abcdu;

static unsigned device_wrong(const uint32_t *dev, uint32_t want) {
  uint32_t *back = (uint32_t *)malloc(BYTES);
  CK(cudaMemcpy(back, dev, BYTES, cudaMemcpyDeviceToHost));
  unsigned bad = wrong(back, want);
  free(back);
  return bad;
}

static cudaStream_t nonblocking(void) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return s;
}

// ---- host functions ----
static uint32_t *host_buf;
static volatile int fn_done;
static volatile unsigned consumer_bad = ~0u;

static void CUDART_CB fill_fn(void *) {
  for (size_t i = 0; i < N; i++) ((volatile uint32_t *)host_buf)[i] = NEW;
  fn_done = 1;
}

static void CUDART_CB consume_fn(void *) {
  consumer_bad = wrong(host_buf, NEW);
  fn_done = 1;
}

static int hostfn_fill(int ok) {
  cudaStream_t a = nonblocking(), b = nonblocking();
  uint32_t *dev = device_of(0);
  host_buf = pinned_of(OLD);
  CK(cudaDeviceSynchronize());
  spin_on(a);
  if (ok) {
    CK(cudaLaunchHostFunc(a, fill_fn, NULL));
    CK(cudaMemcpyAsync(dev, host_buf, BYTES, cudaMemcpyHostToDevice, a));
  } else {
    CK(cudaMemcpyAsync(dev, host_buf, BYTES, cudaMemcpyHostToDevice, a));
    CK(cudaLaunchHostFunc(b, fill_fn, NULL));
  }
  while (!fn_done) {
  }
  CK(cudaStreamSynchronize(a));
  return verdict(device_wrong(dev, ok ? NEW : OLD), "the device after the copy");
}

static int hostfn_consumer(int ok) {
  cudaStream_t a = nonblocking(), b = nonblocking();
  uint32_t *dev = device_of(NEW), *dev2 = device_of(SECOND);
  host_buf = pinned_of(OLD);
  CK(cudaDeviceSynchronize());
  spin_on(a);
  CK(cudaMemcpyAsync(host_buf, dev, BYTES, cudaMemcpyDeviceToHost, a));
  if (ok) {
    CK(cudaLaunchHostFunc(a, consume_fn, NULL));
    CK(cudaMemcpyAsync(host_buf, dev2, BYTES, cudaMemcpyDeviceToHost, a));
  } else {
    CK(cudaLaunchHostFunc(b, consume_fn, NULL));
  }
  while (!fn_done) {
  }
  CK(cudaStreamSynchronize(a));
  if (consumer_bad) return verdict(consumer_bad, "the host function's read");
  return verdict(wrong(host_buf, ok ? SECOND : NEW), "after the stream");
}

// ---- a cuStreamWaitValue32 gate, through the runtime's entry-point look-up ----
typedef CUresult (*wait_value_fn)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);
static volatile uint32_t *gate_word;

static void *open_gate_later(void *) {
  struct timespec t = {0, 200 * 1000 * 1000};
  nanosleep(&t, NULL);
  *gate_word = 1;
  __sync_synchronize();
  return NULL;
}

static int gate_fill(int ok) {
  wait_value_fn wait_value = NULL;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuStreamWaitValue32", (void **)&wait_value, 12000,
                                        cudaEnableDefault, &q));
  if (!wait_value || q != cudaDriverEntryPointSuccess) {
    printf("SKIP: no cuStreamWaitValue32\n");
    return 77;
  }
  cudaStream_t a = nonblocking();
  uint32_t *dev = device_of(0);
  host_buf = pinned_of(OLD);
  uint32_t *word;
  CK(cudaHostAlloc(&word, 4096, cudaHostAllocMapped));
  *word = 0;
  gate_word = word;
  void *dword;
  CK(cudaHostGetDevicePointer(&dword, word, 0));
  CK(cudaDeviceSynchronize());
  if (wait_value((CUstream)a, (CUdeviceptr)dword, 1, CU_STREAM_WAIT_VALUE_GEQ) != CUDA_SUCCESS) {
    printf("SKIP: cuStreamWaitValue32 refused\n");
    return 77;
  }
  CK(cudaMemcpyAsync(dev, host_buf, BYTES, cudaMemcpyHostToDevice, a));
  pthread_t t;
  if (!ok) pthread_create(&t, NULL, open_gate_later, NULL);
  for (size_t i = 0; i < N; i++) ((volatile uint32_t *)host_buf)[i] = NEW;
  if (ok) {
    *gate_word = 1;
    __sync_synchronize();
  } else {
    pthread_join(t, NULL);
  }
  CK(cudaStreamSynchronize(a));
  return verdict(device_wrong(dev, ok ? NEW : OLD), "the device after the copy");
}

// ---- a not-ready query of the legacy stream orders nothing ----
static int legacy_query(int ok) {
  cudaStream_t a, b;
  CK(cudaStreamCreateWithFlags(&a, cudaStreamDefault));
  CK(cudaStreamCreateWithFlags(&b, cudaStreamDefault));
  cudaEvent_t e;
  CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  uint32_t *dev = device_of(NEW), *scratch;
  host_buf = pinned_of(OLD);
  CK(cudaMalloc(&scratch, 64));
  CK(cudaDeviceSynchronize());
  spin_on(a);
  CK(cudaMemcpyAsync(host_buf, dev, BYTES, cudaMemcpyDeviceToHost, a));
  if (ok) {
    CK(cudaMemsetAsync(scratch, 1, 64, cudaStreamLegacy));
  } else {
    cudaError_t q = cudaStreamQuery(cudaStreamLegacy);
    if (q != cudaErrorNotReady) {
      printf("SKIP: the legacy stream was ready already (%s)\n", cudaGetErrorString(q));
      return 77;
    }
  }
  CK(cudaEventRecord(e, b));
  CK(cudaEventSynchronize(e));
  return verdict(wrong(host_buf, NEW), "after synchronizing an event of b");
}

int main(int argc, char **argv) {
  const char *m = argc == 2 ? argv[1] : "";
  if (is(m, "hostfn_fill_ok") || is(m, "hostfn_fill_race")) return hostfn_fill(is(m, "hostfn_fill_ok"));
  if (is(m, "hostfn_consumer_ok") || is(m, "hostfn_consumer_race"))
    return hostfn_consumer(is(m, "hostfn_consumer_ok"));
  if (is(m, "gate_fill_ok") || is(m, "gate_fill_race")) return gate_fill(is(m, "gate_fill_ok"));
  if (is(m, "legacy_query_ok") || is(m, "legacy_query_race")) return legacy_query(is(m, "legacy_query_ok"));
  fprintf(stderr, "usage: %s MODE (modes: see the top of nohang.cu)\n", argv[0]);
  return 2;
}
