/* m_graph_memcpy_node_ok: graphs.  The memcpy-node graph of
 * m_graph_memcpy_node_race, with an event recorded after the launch and
 * synchronized: no race.  Twin: m_graph_memcpy_node_race.
 *
 * SG-EXPECT: silent
 */
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
    CUevent e;
    SGT_CHECK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, memcpy_graph(host, dev, ctx), 0));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    SGT_CHECK(cuEventRecord(e, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after an event recorded after cuGraphLaunch");
}
