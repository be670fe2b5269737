/* SPDX-License-Identifier: Apache-2.0 */
/* dw_graph_memset_race: a graph's memset node on pinned host memory (its
 * host address) runs at each launch, in stream order; the host reads the
 * memory after cuGraphLaunch, before observing the launch.  syncguard
 * reads the node at instantiation and guards its rows at the launch.
 * Twin: dw_graph_memset_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: Memset enqueued on .* by cuGraphLaunch .memset node.
 */
#include <cuda.h>
#include <stdint.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    CUcontext ctx = sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUDA_MEMSET_NODE_PARAMS p = { .dst = (CUdeviceptr)(uintptr_t)host, .pitch = 0,
                                  .value = SGT_NEW, .elementSize = 4, .width = SGT_WORDS,
                                  .height = 1 };
    CUgraph g;
    CUgraphNode node;
    CUgraphExec exec;
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphAddMemsetNode(&node, g, NULL, 0, &p, ctx));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* dw_graph_memset_ok */
    SGT_CHECK(cuStreamSynchronize(s));
#endif
    unsigned first = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless synchronized */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuGraphExecDestroy(exec));
    SGT_CHECK(cuGraphDestroy(g));
    sgt_free_buffers(dev, host);
    return sgt_race_verdict(first, late, "cuStreamSynchronize");
}
