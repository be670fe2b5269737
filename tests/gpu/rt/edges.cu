// SPDX-License-Identifier: Apache-2.0
// Runtime-API versions of the issue 11 rules (tests/gpu/run.sh, EDGE_CASES):
// only real observations release copies, only asynchronous work is
// guarded, graphs completely, missing observations.
//
//   edges MODE
//
// Each mode puts a ~20 ms spin kernel on the stream first, so a copy after
// it is still in flight when the host goes on. "_race" modes read (or
// write) a buffer the model says is not observed complete: under syncguard
// a report, then correct data (exit 66); the "_ok" twins must be silent.
// The program prints "check: ok" when the data it read were right, else
// "check: MISMATCH" (exit 1). Exit 2: CUDA error; 77: not supported here.
//
//   h2h_ok            cudaMemcpyAsync pinned -> pinned (HostToHost): both
//                     buffers are the program's on return
//   h2h_race          the same call shape from the device: a race
//   elapsed_ok        cudaEventElapsedTime(before, after the copy) polled
//                     until it succeeds, then the read
//   elapsed_race      both events recorded before the copy: a race
//   unified2d_race    cudaMemcpy2D device -> device (cudaMemcpyDefault) on
//                     stream 0 after a copy on stream 0: no host sync
//   unified2d_ok      the same 2D copy into pinned host memory: host sync
//   managed_race      copy into pinned memory, then one into managed memory
//                     on the same stream: its return shows nothing
//   managed_ok        the same, read after cudaStreamSynchronize
//   pool_return_ok    a copy into an allocation of a host-located pool, read
//                     when it returns: it returned once complete (GPU run 20)
//   pool_ok           the same, read after cudaStreamSynchronize
//   graph_record_ok   graph: memcpy node -> event record node; sync event
//   graph_record_race graph: event record node (root), memcpy node
//   graph_host_ok     graph: memcpy node -> host node (cudaGraphAddNode)
//   graph_host_race   graph: host node (root), memcpy node
//   exec_update_ok    cudaGraphExecMemcpyNodeSetParams moves the copy to
//                     another buffer: the old one is not touched
//   exec_update_race  ... and the new one is a race
//   conditional_race  IF node (default 1, assigned at launch) whose body
//                     copies into pinned memory: a race
//   conditional_ok    the same, read after cudaStreamSynchronize
#include "rules.cuh"

static uint32_t *device_new(void) { return device_of(NEW); }
static uint32_t *pinned_old(void) { return pinned_of(OLD); }

static int h2h(int ok) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint32_t *dst = pinned_old(), *src = pinned_old(), *dev = device_new();
  for (size_t i = 0; i < N; i++) src[i] = NEW;
  CK(cudaDeviceSynchronize());
  spin_on(s);
  if (ok) {
    CK(cudaMemcpyAsync(dst, src, BYTES, cudaMemcpyHostToHost, s));
    unsigned bad = wrong(dst, NEW);
    for (size_t i = 0; i < N; i++) src[i] = OLD;  // the program's again
    return verdict(bad, "after a host-to-host cudaMemcpyAsync");
  }
  CK(cudaMemcpyAsync(dst, dev, BYTES, cudaMemcpyDeviceToHost, s));
  return verdict(wrong(dst, NEW), "after a device-to-host cudaMemcpyAsync");
}

static int elapsed(int ok) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint32_t *dst = pinned_old(), *dev = device_new();
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  CK(cudaDeviceSynchronize());
  CK(cudaEventRecord(a, s));
  if (!ok) CK(cudaEventRecord(b, s));
  spin_on(s);
  CK(cudaMemcpyAsync(dst, dev, BYTES, cudaMemcpyDeviceToHost, s));
  if (ok) CK(cudaEventRecord(b, s));
  float ms;
  cudaError_t e;
  while ((e = cudaEventElapsedTime(&ms, a, b)) == cudaErrorNotReady) {
  }
  CK(e);
  return verdict(wrong(dst, NEW), "after cudaEventElapsedTime succeeded");
}

static int unified2d(int ok) {
  uint32_t *dst = pinned_old(), *dev = device_new(), *to;
  if (ok) CK(cudaMallocHost(&to, BYTES));
  else CK(cudaMalloc(&to, BYTES));
  CK(cudaDeviceSynchronize());
  spin_on(0);
  CK(cudaMemcpyAsync(dst, dev, BYTES, cudaMemcpyDeviceToHost, 0));
  CK(cudaMemcpy2D(to, 256, dev, 256, 64, 4, cudaMemcpyDefault));
  return verdict(wrong(dst, NEW), "after a synchronous 2D copy (cudaMemcpyDefault)");
}

static int managed(int ok) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint32_t *dst = pinned_old(), *dev = device_new(), *m;
  CK(cudaMallocManaged(&m, BYTES));
  CK(cudaDeviceSynchronize());
  spin_on(s);
  CK(cudaMemcpyAsync(dst, dev, BYTES, cudaMemcpyDeviceToHost, s));
  CK(cudaMemcpyAsync(m, dev, BYTES, cudaMemcpyDeviceToHost, s));
  if (ok) CK(cudaStreamSynchronize(s));
  return verdict(wrong(dst, NEW), "after an async copy into managed memory");
}

static int pool(int ok) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint32_t *dev = device_new(), *h;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeHost;
  cudaMemPool_t p;
  CK(cudaMemPoolCreate(&p, &props));
  CK(cudaMallocFromPoolAsync((void **)&h, BYTES, p, s));
  CK(cudaStreamSynchronize(s));
  for (size_t i = 0; i < N; i++) h[i] = OLD;
  spin_on(s);
  CK(cudaMemcpyAsync(h, dev, BYTES, cudaMemcpyDeviceToHost, s));
  if (ok) CK(cudaStreamSynchronize(s));
  return verdict(wrong(h, NEW), "a host-pool allocation");
}

static volatile int host_node_ran;
static void CUDART_CB set_ran(void *) { host_node_ran = 1; }

static cudaMemcpy3DParms d2h_params(uint32_t *dst, uint32_t *dev) {
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(dev, BYTES, BYTES, 1);
  p.dstPtr = make_cudaPitchedPtr(dst, BYTES, BYTES, 1);
  p.extent = make_cudaExtent(BYTES, 1, 1);
  p.kind = cudaMemcpyDeviceToHost;
  return p;
}

static int graph_nodes(const char *mode) {
  int ok = strstr(mode, "_ok") != NULL, host = strstr(mode, "host") != NULL;
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint32_t *dst = pinned_old(), *dev = device_new();
  cudaEvent_t e;
  CK(cudaEventCreate(&e));
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t copy, other;
  cudaMemcpy3DParms p = d2h_params(dst, dev);
  cudaGraphNodeParams np = {};
  if (host) {
    np.type = cudaGraphNodeTypeHost;
    np.host.fn = set_ran;
  } else {
    np.type = cudaGraphNodeTypeEventRecord;
    np.eventRecord.event = e;
  }
  if (ok) {
    CK(cudaGraphAddMemcpyNode(&copy, g, NULL, 0, &p));
    CK(cudaGraphAddNode(&other, g, &copy, NULL, 1, &np));
  } else {
    CK(cudaGraphAddNode(&other, g, NULL, NULL, 0, &np));
    CK(cudaGraphAddMemcpyNode(&copy, g, NULL, 0, &p));
  }
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaDeviceSynchronize());
  spin_on(s);
  CK(cudaGraphLaunch(x, s));
  if (host)
    while (!host_node_ran) {
    }
  else
    CK(cudaEventSynchronize(e));
  return verdict(wrong(dst, NEW), host ? "after the graph's host node ran" : "after the graph's event");
}

static int exec_update(int ok) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint32_t *old_dst = pinned_old(), *new_dst = pinned_old(), *dev = device_new();
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t copy;
  cudaMemcpy3DParms p = d2h_params(old_dst, dev);
  CK(cudaGraphAddMemcpyNode(&copy, g, NULL, 0, &p));
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  p = d2h_params(new_dst, dev);
  CK(cudaGraphExecMemcpyNodeSetParams(x, copy, &p));
  CK(cudaDeviceSynchronize());
  spin_on(s);
  CK(cudaGraphLaunch(x, s));
  if (ok) {
    unsigned bad = wrong(old_dst, OLD);
    CK(cudaStreamSynchronize(s));
    return verdict(bad + wrong(new_dst, NEW), "the old destination, then the new one after a sync");
  }
  return verdict(wrong(new_dst, NEW), "the new destination before synchronizing");
}

static int conditional(int ok) {
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint32_t *dst = pinned_old(), *dev = device_new();
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams np = {};
  np.type = cudaGraphNodeTypeConditional;
  np.conditional.handle = h;
  np.conditional.type = cudaGraphCondTypeIf;
  np.conditional.size = 1;
  cudaGraphNode_t cond, copy;
  CK(cudaGraphAddNode(&cond, g, NULL, NULL, 0, &np));
  cudaMemcpy3DParms p = d2h_params(dst, dev);
  cudaError_t e = cudaGraphAddMemcpyNode(&copy, np.conditional.phGraph_out[0], NULL, 0, &p);
  if (e != cudaSuccess) {
    printf("SKIP: a conditional body here takes no copy into pinned host memory: %s\n", cudaGetErrorString(e));
    return 77;
  }
  cudaGraphExec_t x;
  CK(cudaGraphInstantiate(&x, g, 0));
  CK(cudaDeviceSynchronize());
  spin_on(s);
  CK(cudaGraphLaunch(x, s));
  if (ok) CK(cudaStreamSynchronize(s));
  return verdict(wrong(dst, NEW), "the conditional body's destination");
}

int main(int argc, char **argv) {
  const char *m = argc == 2 ? argv[1] : "";
  if (is(m, "h2h_ok") || is(m, "h2h_race")) return h2h(is(m, "h2h_ok"));
  if (is(m, "elapsed_ok") || is(m, "elapsed_race")) return elapsed(is(m, "elapsed_ok"));
  if (is(m, "unified2d_ok") || is(m, "unified2d_race")) return unified2d(is(m, "unified2d_ok"));
  if (is(m, "managed_ok") || is(m, "managed_race")) return managed(is(m, "managed_ok"));
  if (is(m, "pool_ok") || is(m, "pool_return_ok")) return pool(is(m, "pool_ok"));
  if (!strncmp(m, "graph_record_", 13) || !strncmp(m, "graph_host_", 11)) return graph_nodes(m);
  if (is(m, "exec_update_ok") || is(m, "exec_update_race")) return exec_update(is(m, "exec_update_ok"));
  if (is(m, "conditional_ok") || is(m, "conditional_race")) return conditional(is(m, "conditional_ok"));
  fprintf(stderr, "usage: %s MODE (modes: see the top of edges.cu)\n", argv[0]);
  return 2;
}
