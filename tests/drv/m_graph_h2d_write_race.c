/* SPDX-License-Identifier: Apache-2.0 */
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
#include "sgt_shapes.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    CUcontext ctx = sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_NEW;                  /* the source */
    SGT_CHECK(cuMemsetD32(dev, 0, SGT_WORDS));
    SGT_CHECK(cuCtxSynchronize());
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, sgt_memcpy_graph(sgt_flat_htod(dev, host), ctx), 0));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
    ((volatile uint32_t *)host)[10] = SGT_OLD;     /* the race: the source is still being read */
    SGT_CHECK(cuStreamSynchronize(s));
    static uint32_t back[SGT_WORDS];
    SGT_CHECK(cuMemcpyDtoH(back, dev, SGT_BYTES));
    return sgt_verdict(SGT_COUNT_WRONG(back, SGT_WORDS, SGT_NEW), "device copy of the source");
}
