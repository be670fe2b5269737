/* SPDX-License-Identifier: Apache-2.0 */
/* Graphs built node by node: memcpy, memset, host, child-graph and event
 * nodes; a launch runs the nodes in dependency order as one piece of work
 * in stream order, behind the previous launch of the same executable
 * graph; pinned copies land by DMA; the lookups of the instantiate ABIs. */
#define _GNU_SOURCE 1
#include "t-util.h"

#include <dlfcn.h>
#include <sys/mman.h>

#define N 8192                  /* two pages */

static int order[4], norder;

static void CUDA_CB note(void *data)
{
    order[norder++] = (int)(intptr_t)data;
}

static CUDA_MEMCPY3D d2h(void *host, CUdeviceptr dev, size_t n)
{
    CUDA_MEMCPY3D p = { 0 };
    p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    p.srcDevice = dev;
    p.dstMemoryType = CU_MEMORYTYPE_HOST;
    p.dstHost = host;
    p.WidthInBytes = n;
    p.Height = 1;
    p.Depth = 1;
    return p;
}

/* memset -> (child: host 1) -> memcpy -> host 2, launched behind a hold. */
static void build_and_launch(CUcontext ctx, CUstream s, CUstream other)
{
    CUdeviceptr dev = device_with_pattern(N, 3);
    unsigned char *host = pinned_zeroed(N);
    CUgraph g, child, embedded;
    CUgraphNode set, sub, copy, fn, nodes[4];
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphCreate(&child, 0));
    CUDA_HOST_NODE_PARAMS hp = { note, (void *)1 };
    SGT_CHECK(cuGraphAddHostNode(&fn, child, NULL, 0, &hp));

    CUDA_MEMSET_NODE_PARAMS mp = { .dst = dev, .pitch = 0, .value = MARK, .elementSize = 1, .width = N,
                                   .height = 1 };
    SGT_CHECK(cuGraphAddMemsetNode(&set, g, NULL, 0, &mp, ctx));
    SGT_CHECK(cuGraphAddChildGraphNode(&sub, g, &set, 1, child));
    CUDA_MEMCPY3D cp = d2h(host, dev, N);
    SGT_CHECK(cuGraphAddMemcpyNode(&copy, g, &sub, 1, &cp, ctx));
    hp.userData = (void *)2;
    SGT_CHECK(cuGraphAddHostNode(&fn, g, &copy, 1, &hp));
    CUgraphNode twice[2] = { set, set };
    SGT_EXPECT(cuGraphAddEmptyNode(&nodes[0], g, twice, 2) == CUDA_ERROR_INVALID_VALUE);

    /* Structure as the driver reports it; the embedded graph is a clone. */
    size_t n = 4;
    SGT_CHECK(cuGraphGetNodes(g, nodes, &n));
    SGT_EXPECT(n == 4 && nodes[0] == set && nodes[2] == copy);
    n = 4;
    SGT_CHECK(cuGraphGetRootNodes(g, nodes, &n));
    SGT_EXPECT(n == 1 && nodes[0] == set && nodes[1] == NULL);
    SGT_CHECK(cuGraphChildGraphNodeGetGraph(sub, &embedded));
    SGT_EXPECT(embedded != child);
    SGT_EXPECT(cuGraphDestroy(embedded) == CUDA_ERROR_INVALID_VALUE);
    SGT_CHECK(cuGraphDestroy(child));
    n = 0;
    SGT_CHECK(cuGraphGetNodes(embedded, NULL, &n));
    SGT_EXPECT(n == 1);
    CUDA_MEMCPY3D back;
    SGT_CHECK(cuGraphMemcpyNodeGetParams(copy, &back));
    SGT_EXPECT(back.dstHost == host && back.dstMemoryType == CU_MEMORYTYPE_HOST && back.WidthInBytes == N);
    SGT_EXPECT(cuGraphMemcpyNodeGetParams(set, &back) == CUDA_ERROR_INVALID_VALUE);
    unsigned char pageable[16];
    cp = d2h(pageable, dev, sizeof pageable);
    SGT_EXPECT(cuGraphAddMemcpyNode(&nodes[0], g, NULL, 0, &cp, ctx) == CUDA_ERROR_INVALID_VALUE);

    CUgraphExec e;
    SGT_CHECK(cuGraphInstantiate(&e, g, 0));
    SGT_CHECK(cuGraphDestroy(g));                       /* the executable graph has its own copy */

    /* The destination is protected: the copy lands anyway, like DMA. */
    SGT_EXPECT(mprotect(host, N, PROT_NONE) == 0);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(e, s));
    SGT_CHECK(cuGraphLaunch(e, other));                 /* behind the first launch */
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(cuStreamQuery(other) == CUDA_ERROR_NOT_READY);
    SGT_EXPECT(norder == 0);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(other));
    SGT_EXPECT(mprotect(host, N, PROT_READ | PROT_WRITE) == 0);
    SGT_EXPECT(all_marked(host, N));
    SGT_EXPECT(norder == 4 && order[0] == 1 && order[1] == 2 && order[2] == 1 && order[3] == 2);
    SGT_CHECK(cuGraphExecDestroy(e));
    SGT_EXPECT(cuGraphLaunch(e, s) == CUDA_ERROR_INVALID_VALUE);
}

/* Event nodes record and wait like cuEventRecord and cuStreamWaitEvent. */
static void event_nodes(CUstream s, CUstream other)
{
    CUevent ev, got;
    SGT_CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    CUgraph rec, wait;
    CUgraphNode node;
    SGT_CHECK(cuGraphCreate(&rec, 0));
    SGT_CHECK(cuGraphAddEventRecordNode(&node, rec, NULL, 0, ev));
    SGT_CHECK(cuGraphEventRecordNodeGetEvent(node, &got));
    SGT_EXPECT(got == ev);
    SGT_CHECK(cuGraphCreate(&wait, 0));
    SGT_CHECK(cuGraphAddEventWaitNode(&node, wait, NULL, 0, ev));
    CUgraphExec erec, ewait;
    SGT_CHECK(cuGraphInstantiate(&erec, rec, 0));
    SGT_CHECK(cuGraphInstantiate(&ewait, wait, 0));

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(erec, s));
    SGT_EXPECT(cuEventQuery(ev) == CUDA_ERROR_NOT_READY);
    SGT_CHECK(cuGraphLaunch(ewait, other));
    SGT_EXPECT(cuStreamQuery(other) == CUDA_ERROR_NOT_READY);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(other));
    SGT_CHECK(cuEventQuery(ev));
}

/* A captured graph launched twice; cuGraphLaunch in a capture records it
 * as a child graph. */
static void capture_and_relaunch(CUstream s)
{
    CUdeviceptr dev = device_with_pattern(N, 4);
    unsigned char *host = pinned_zeroed(N);
    CUgraph g, outer;
    CUgraphExec e, eo;
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, N, s));
    SGT_CHECK(cuStreamEndCapture(s, &g));
    SGT_CHECK(cuGraphInstantiate(&e, g, 0));
    SGT_CHECK(cuGraphLaunch(e, s));
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(has_pattern(host, N, 4));
    memset(host, 0, N);
    SGT_CHECK(cuGraphLaunch(e, s));
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(has_pattern(host, N, 4));

    memset(host, 0, N);
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuGraphLaunch(e, s));
    SGT_CHECK(cuStreamEndCapture(s, &outer));
    CUgraphNode node;
    size_t n = 1;
    SGT_CHECK(cuGraphGetNodes(outer, &node, &n));
    CUgraphNodeType type;
    SGT_CHECK(cuGraphNodeGetType(node, &type));
    SGT_EXPECT(n == 1 && type == CU_GRAPH_NODE_TYPE_GRAPH && all_zero(host, N));
    CUDA_GRAPH_INSTANTIATE_PARAMS ip = { .flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD, .hUploadStream = s };
    SGT_CHECK(cuGraphInstantiateWithParams(&eo, outer, &ip));
    SGT_EXPECT(ip.result_out == CUDA_GRAPH_INSTANTIATE_SUCCESS);
    SGT_CHECK(cuGraphLaunch(eo, s));
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_EXPECT(has_pattern(host, N, 4));
    SGT_EXPECT(cuGraphInstantiate(&eo, outer, CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) == CUDA_ERROR_INVALID_VALUE);
}

/* The instantiate ABIs as cuGetProcAddress hands them out. */
static void lookups(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), *fn;
    SGT_EXPECT(lib != NULL);
    CUdriverProcAddressQueryResult st;
    SGT_CHECK(cuGetProcAddress("cuGraphInstantiate", &fn, 12000, 0, &st));
    SGT_EXPECT(fn == dlsym(lib, "cuGraphInstantiateWithFlags"));
    SGT_CHECK(cuGetProcAddress("cuGraphInstantiate", &fn, 11000, 0, &st));
    SGT_EXPECT(fn == dlsym(lib, "cuGraphInstantiate_v2"));
    SGT_CHECK(cuGetProcAddress("cuGraphLaunch", &fn, 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &st));
    SGT_EXPECT(fn == dlsym(lib, "cuGraphLaunch_ptsz"));
    SGT_CHECK(cuGetProcAddress("cuStreamBeginCapture", &fn, 12000, 0, &st));
    SGT_EXPECT(fn == dlsym(lib, "cuStreamBeginCapture_v2"));
    SGT_CHECK(cuGetProcAddress("cuStreamGetCaptureInfo", &fn, 12030, 0, &st));
    SGT_EXPECT(fn == dlsym(lib, "cuStreamGetCaptureInfo_v3"));
}

int main(void)
{
    sgt_watchdog(30);
    CUcontext ctx = sgt_init();
    CUstream s, other;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
    build_and_launch(ctx, s, other);
    event_nodes(s, other);
    capture_and_relaunch(s);
    lookups();
    return pass("t-graph", "graphs run their nodes in order as one operation in stream order");
}
