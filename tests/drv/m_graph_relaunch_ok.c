/* m_graph_relaunch_ok: graphs.  "Each launch is ordered behind both any
 * previous work in hStream and any previous launches of hGraphExec"
 * (cuGraphLaunch):  the graph is launched on stream A (held), then launched
 * again on stream B; synchronizing B therefore observes the first launch's
 * copy as well.  Twin: m_graph_memcpy_node_race.
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
    CUstream b;
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, memcpy_graph(host, dev, ctx), 0));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    SGT_CHECK(cuGraphLaunch(exec, b));  /* behind the first launch */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(b));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing the second launch's stream");
}
