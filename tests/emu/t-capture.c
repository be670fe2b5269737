/* SPDX-License-Identifier: Apache-2.0 */
/* Stream capture: captured work is recorded, not run; the graph holds it
 * in stream order; forks and joins through events; the operations stream
 * capture does not allow fail and invalidate the capture. */
#include "sgemu.h"
#include "t-util.h"

#define N 4096

static int calls;

static void CUDA_CB count_call(void *data)
{
    (void)data;
    __atomic_add_fetch(&calls, 1, __ATOMIC_SEQ_CST);
}

static void CUDA_CB callback(CUstream s, CUresult st, void *data)
{
    (void)s, (void)st, (void)data;
}

static size_t node_count(CUgraph g)
{
    size_t n = 0;
    SGT_CHECK(cuGraphGetNodes(g, NULL, &n));
    return n;
}

static CUgraphNodeType node_type(CUgraph g, size_t i)
{
    CUgraphNode nodes[16];
    size_t n = 16;
    SGT_CHECK(cuGraphGetNodes(g, nodes, &n));
    SGT_EXPECT(i < n);
    CUgraphNodeType t;
    SGT_CHECK(cuGraphNodeGetType(nodes[i], &t));
    return t;
}

/* Work on a capturing stream is recorded in order, not executed. */
static void records_not_runs(CUstream s, CUdeviceptr dev)
{
    unsigned char *host = pinned_zeroed(N);
    CUstreamCaptureStatus st;
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuStreamIsCapturing(s, &st));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
    SGT_CHECK(cuMemsetD8Async(dev, MARK, N, s));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, N, s));
    SGT_CHECK(cuLaunchHostFunc(s, count_call, NULL));

    cuuint64_t id = 0;
    CUgraph during;
    const CUgraphNode *deps;
    size_t ndeps;
    SGT_CHECK(cuStreamGetCaptureInfo(s, &st, &id, &during, &deps, NULL, &ndeps));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_ACTIVE && id != 0 && ndeps == 1);

    CUgraph g;
    SGT_CHECK(cuStreamEndCapture(s, &g));
    SGT_EXPECT(g == during);
    SGT_CHECK(cuStreamIsCapturing(s, &st));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_NONE);
    SGT_CHECK(cuCtxSynchronize());
    SGT_EXPECT(all_zero(host, N) && calls == 0);        /* nothing ran */

    SGT_EXPECT(node_count(g) == 3);
    SGT_EXPECT(node_type(g, 0) == CU_GRAPH_NODE_TYPE_MEMSET);
    SGT_EXPECT(node_type(g, 1) == CU_GRAPH_NODE_TYPE_MEMCPY);
    SGT_EXPECT(node_type(g, 2) == CU_GRAPH_NODE_TYPE_HOST);
    CUgraphNode nodes[3];
    size_t n = 3, nd = 0;
    SGT_CHECK(cuGraphGetNodes(g, nodes, &n));
    SGT_CHECK(cuGraphNodeGetDependencies(nodes[2], NULL, NULL, &nd));
    SGT_EXPECT(nd == 1);                                /* stream order */
    CUDA_MEMCPY3D p;
    SGT_CHECK(cuGraphMemcpyNodeGetParams(nodes[1], &p));
    SGT_EXPECT(p.dstMemoryType == CU_MEMORYTYPE_HOST && p.dstHost == host && p.WidthInBytes == N &&
               p.Height == 1 && p.Depth == 1);
    SGT_EXPECT(p.srcMemoryType == CU_MEMORYTYPE_DEVICE && p.srcDevice == dev);

    /* Launched, it runs. */
    CUgraphExec e;
    SGT_CHECK(cuGraphInstantiate(&e, g, 0));
    SGT_CHECK(cuGraphLaunch(e, s));
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(all_marked(host, N) && calls == 1);
    SGT_CHECK(cuGraphExecDestroy(e));
    SGT_CHECK(cuGraphDestroy(g));
}

/* A fork through an event joins the other stream to the capture; it must
 * be joined back before the capture ends. */
static void fork_and_join(CUstream s, CUstream t, CUdeviceptr dev)
{
    CUevent fork, back;
    SGT_CHECK(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    SGT_CHECK(cuEventCreate(&back, CU_EVENT_DISABLE_TIMING));
    CUstreamCaptureStatus st;
    CUgraph g;

    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuMemsetD8Async(dev, 1, N, s));
    SGT_CHECK(cuEventRecord(fork, s));
    SGT_EXPECT(cuEventQuery(fork) == CUDA_ERROR_CAPTURED_EVENT);   /* invalidates */
    SGT_CHECK(cuStreamIsCapturing(s, &st));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_INVALIDATED);
    SGT_EXPECT(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED && g == NULL);

    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuMemsetD8Async(dev, 1, N, s));
    SGT_CHECK(cuEventRecord(fork, s));
    SGT_CHECK(cuStreamWaitEvent(t, fork, 0));          /* t joins */
    SGT_CHECK(cuStreamIsCapturing(t, &st));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
    SGT_CHECK(cuMemsetD8Async(dev, 2, N, t));
    SGT_CHECK(cuMemsetD8Async(dev, 3, N, s));
    SGT_CHECK(cuEventRecord(back, t));
    SGT_CHECK(cuStreamWaitEvent(s, back, 0));          /* joined back */
    SGT_CHECK(cuStreamEndCapture(s, &g));
    SGT_CHECK(cuStreamIsCapturing(t, &st));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_NONE);
    SGT_EXPECT(node_count(g) == 3);
    SGT_CHECK(cuGraphDestroy(g));

    /* Not joined back. */
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuEventRecord(fork, s));
    SGT_CHECK(cuStreamWaitEvent(t, fork, 0));
    SGT_CHECK(cuMemsetD8Async(dev, 2, N, t));
    SGT_EXPECT(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_UNJOINED && g == NULL);
    SGT_CHECK(cuStreamIsCapturing(t, &st));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_NONE);
    SGT_CHECK(cuMemsetD8Async(dev, 0, N, t));          /* t works normally again */
    SGT_CHECK(cuStreamSynchronize(t));

    /* The captured event stays one the host cannot use. */
    SGT_EXPECT(cuEventSynchronize(fork) == CUDA_ERROR_CAPTURED_EVENT);
    SGT_CHECK(cuEventRecord(fork, t));
    SGT_CHECK(cuEventSynchronize(fork));
}

/* What stream capture does not allow. */
static void prohibited(CUstream blocking, CUstream s, CUdeviceptr dev)
{
    CUgraph g;
    CUstreamCaptureStatus st;
    unsigned char pageable[64];
    CUevent outside;
    SGT_CHECK(cuEventCreate(&outside, CU_EVENT_DISABLE_TIMING));
    SGT_CHECK(cuEventRecord(outside, s));

    SGT_EXPECT(cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL) == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    SGT_EXPECT(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED) == CUDA_ERROR_ILLEGAL_STATE);
    SGT_EXPECT(cuStreamSynchronize(s) == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    SGT_EXPECT(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);

    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    SGT_EXPECT(cuMemcpyDtoHAsync(pageable, dev, sizeof pageable, s) == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    SGT_EXPECT(cuMemsetD8Async(dev, 0, 1, s) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    SGT_EXPECT(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);

    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    SGT_EXPECT(cuStreamAddCallback(s, callback, NULL, 0) == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    SGT_EXPECT(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);

    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    SGT_EXPECT(cuStreamWaitEvent(s, outside, 0) == CUDA_ERROR_STREAM_CAPTURE_ISOLATION);
    SGT_EXPECT(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);

    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    SGT_EXPECT(cuCtxSynchronize() == CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    SGT_EXPECT(cuStreamEndCapture(s, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);

    /* A capturing blocking stream makes the legacy stream unusable; a
     * capturing non-blocking one (s) does not. */
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
    SGT_CHECK(cuStreamIsCapturing(NULL, &st));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_NONE);
    SGT_CHECK(cuStreamEndCapture(s, &g));
    SGT_CHECK(cuGraphDestroy(g));
    SGT_CHECK(cuStreamBeginCapture(blocking, CU_STREAM_CAPTURE_MODE_RELAXED));
    SGT_EXPECT(cuStreamIsCapturing(NULL, &st) == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
    SGT_CHECK(cuStreamIsCapturing(blocking, &st));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);    /* asking does not invalidate */
    SGT_EXPECT(cuMemsetD8Async(dev, 0, 1, NULL) == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
    SGT_CHECK(cuStreamIsCapturing(blocking, &st));
    SGT_EXPECT(st == CU_STREAM_CAPTURE_STATUS_INVALIDATED);
    SGT_EXPECT(cuStreamEndCapture(blocking, &g) == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    SGT_EXPECT(cuStreamEndCapture(blocking, &g) == CUDA_ERROR_ILLEGAL_STATE);
    SGT_CHECK(cuStreamSynchronize(NULL));
}

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    CUstream s, t, blocking;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&t, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&blocking, 0));
    CUdeviceptr dev = device_with_pattern(N, 1);
    records_not_runs(s, dev);
    fork_and_join(s, t, dev);
    prohibited(blocking, s, dev);
    return pass("t-capture", "captured work is recorded in stream order, not run; capture rules");
}
