/* m_graph_instantiate_v11_race: graphs.  A CUDA 11.x runtime instantiates
 * graphs through cuGetProcAddress("cuGraphInstantiate", 11000), which
 * answers the 11.0 ABI cuGraphInstantiate_v2 (error node and log buffer
 * instead of flags).  The memcpy node's copy runs at the launch all the
 * same: reading before synchronizing is a race.  Twin:
 * m_graph_memcpy_node_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_instantiate_v11_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

typedef CUresult (*instantiate_v11_fn)(CUgraphExec *, CUgraph, CUgraphNode *, char *, size_t);

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
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    SGT_CHECK(cuGetProcAddress("cuGraphInstantiate", &fn, 11000, 0, &st));
    SGT_EXPECT(st == CU_GET_PROC_ADDRESS_SUCCESS && fn);
    instantiate_v11_fn instantiate = (instantiate_v11_fn)fn;
    CUgraphExec exec;
    char log[64];
    SGT_CHECK(instantiate(&exec, memcpy_graph(host, dev, ctx), NULL, log, sizeof log));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read after cuGraphLaunch, before synchronizing");
}
