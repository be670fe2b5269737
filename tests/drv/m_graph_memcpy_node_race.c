/* m_graph_memcpy_node_race: graphs.  A graph built with
 * cuGraphAddMemcpyNode (host destination), instantiated and launched:
 * reading before synchronizing is a race.  Twin: m_graph_memcpy_node_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_memcpy_node_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_memcpy_node_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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
#ifdef SG_TWIN /* m_graph_memcpy_node_ok */
    CUevent e;
    SGT_CHECK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
#endif
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, memcpy_graph(host, dev, ctx), 0));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
#ifdef SG_TWIN /* m_graph_memcpy_node_ok */
    SGT_CHECK(cuEventRecord(e, s));
#endif
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_graph_memcpy_node_ok */
    SGT_CHECK(cuEventSynchronize(e));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after an event recorded after cuGraphLaunch");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read after cuGraphLaunch, before synchronizing");
#endif
}
