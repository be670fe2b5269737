/* m_graph_child_race: graphs.  The memcpy node sits in a child graph
 * (cuGraphAddChildGraphNode): its copy runs at each launch just the same,
 * so reading before synchronizing is a race.  Twin: m_graph_memcpy_node_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_child_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_relaunch_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

/* A graph of one memcpy node: device to pinned host. */
static CUgraph memcpy_graph(uint32_t *host, CUdeviceptr dev, CUcontext ctx)
{
    CUDA_MEMCPY3D p = { 0 };
    p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    p.srcDevice = dev;
    p.dstMemoryType = CU_MEMORYTYPE_HOST;
    p.dstHost = host;
    p.WidthInBytes = SGT_BYTES;
    p.Height = 1;
    p.Depth = 1;
    CUgraph g;
    CUgraphNode node;
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphAddMemcpyNode(&node, g, NULL, 0, &p, ctx));
    return g;
}

int main(void)
{
    sgt_watchdog(60);
    CUcontext ctx = sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
#ifdef SG_TWIN /* m_graph_relaunch_ok */
    CUstream b;
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
#else
    CUgraph outer;
    CUgraphNode child;
    SGT_CHECK(cuGraphCreate(&outer, 0));
    SGT_CHECK(cuGraphAddEmptyNode(&child, outer, NULL, 0));
    SGT_CHECK(cuGraphAddChildGraphNode(&child, outer, &child, 1, memcpy_graph(host, dev, ctx)));
#endif
    CUgraphExec exec;
#ifdef SG_TWIN /* m_graph_relaunch_ok */
    SGT_CHECK(cuGraphInstantiate(&exec, memcpy_graph(host, dev, ctx), 0));
#else
    SGT_CHECK(cuGraphInstantiate(&exec, outer, 0));
#endif
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
#ifdef SG_TWIN /* m_graph_relaunch_ok */
    SGT_CHECK(cuGraphLaunch(exec, b));  /* behind the first launch */
#endif
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_graph_relaunch_ok */
    SGT_CHECK(cuStreamSynchronize(b));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing the second launch's stream");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read after cuGraphLaunch, before synchronizing");
#endif
}
