/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_conditional_race: graphs completely: conditional nodes.  An IF node whose
 * condition is 1 at every launch (cuGraphConditionalHandleCreate with
 * CU_GRAPH_COND_ASSIGN_DEFAULT) runs its body graph, here a memcpy node
 * (device to pinned host): reading before synchronizing is a race.  Twin: m_graph_conditional_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_conditional_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_conditional_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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
    CUgraph g, body;
    CUgraphNode cond, copy;
    SGT_CHECK(cuGraphCreate(&g, 0));
    CUgraphConditionalHandle h;
    CUresult r = cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT);
    if (r == CUDA_ERROR_NOT_SUPPORTED || r == CUDA_ERROR_NOT_FOUND) {
        printf("SKIP: no conditional nodes here\n");
        return 77;
    }
    SGT_CHECK(r);
    CUgraphNodeParams np = { .type = CU_GRAPH_NODE_TYPE_CONDITIONAL };
    np.conditional.handle = h;
    np.conditional.type = CU_GRAPH_COND_TYPE_IF;
    np.conditional.size = 1;
    np.conditional.phGraph_out = &body;
    np.conditional.ctx = ctx;
    SGT_CHECK(cuGraphAddNode(&cond, g, NULL, NULL, 0, &np));
    CUDA_MEMCPY3D p = sgt_flat_dtoh(host, dev);
    r = cuGraphAddMemcpyNode(&copy, body, NULL, 0, &p, ctx);
    if (r != CUDA_SUCCESS) {
        printf("SKIP: a conditional body here takes no copy into pinned host memory (error %d)\n", (int)r);
        return 77;
    }
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN
    SGT_CHECK(cuStreamSynchronize(s));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read before synchronizing");
#endif
}
