/* m_graph_h2d_write_race: graphs.  A memcpy node copies FROM pinned host
 * memory to the device; the host overwrites the source after cuGraphLaunch,
 * before synchronizing: a race (the device must get the old contents).
 * Twin: m_graph_memcpy_node_ok.
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: ^SUMMARY: syncguard: early-host-write .*m_graph_h2d_write_race
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    CUcontext ctx = sgt_init();
    CUdeviceptr dev;
    uint32_t *host;
    sgt_buffers(&dev, &host);
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_NEW;                  /* the source */
    SGT_CHECK(cuMemsetD32(dev, 0, SGT_WORDS));
    SGT_CHECK(cuCtxSynchronize());
    CUDA_MEMCPY3D p = { 0 };
    p.srcMemoryType = CU_MEMORYTYPE_HOST;
    p.srcHost = host;
    p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    p.dstDevice = dev;
    p.WidthInBytes = SGT_BYTES;
    p.Height = 1;
    p.Depth = 1;
    CUgraph g;
    CUgraphNode node;
    CUgraphExec exec;
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphAddMemcpyNode(&node, g, NULL, 0, &p, ctx));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
    ((volatile uint32_t *)host)[10] = SGT_OLD;     /* the race: the source is still being read */
    SGT_CHECK(cuStreamSynchronize(s));
    static uint32_t back[SGT_WORDS];
    SGT_CHECK(cuMemcpyDtoH(back, dev, SGT_BYTES));
    return sgt_verdict(SGT_COUNT_WRONG(back, SGT_WORDS, SGT_NEW), "device copy of the source");
}
