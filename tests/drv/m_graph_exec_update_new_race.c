/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_update_new_race: graphs completely: executable updates.  An executable
 * graph's memcpy node is changed (cuGraphExecMemcpyNodeSetParams) to copy
 * into another pinned buffer; the next launch copies there, and reading
 * that buffer before synchronizing is a race.  Its twin reads the old
 * destination, which the launch does not touch: no race.  Built with
 * SG_WHOLE the change comes from cuGraphExecUpdate with a graph of the
 * same shape.  Twin: m_graph_exec_update_old_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_exec_update_new_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_exec_update_old_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_shapes.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *old_dst;
    CUcontext ctx = sgt_start(&dev, &old_dst);
    uint32_t *new_dst = sgt_pinned(SGT_BYTES);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        new_dst[i] = SGT_OLD;
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUgraph g = sgt_memcpy_graph(sgt_flat_dtoh(old_dst, dev), ctx);
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    CUDA_MEMCPY3D p = sgt_flat_dtoh(new_dst, dev);
#ifdef SG_WHOLE
    CUgraphExecUpdateResultInfo info;
    SGT_CHECK(cuGraphExecUpdate(exec, sgt_memcpy_graph(p, ctx), &info));
#else
    CUgraphNode node;
    size_t n = 1;
    SGT_CHECK(cuGraphGetNodes(g, &node, &n));
    SGT_CHECK(cuGraphExecMemcpyNodeSetParams(exec, node, &p, ctx));
#endif
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN
    unsigned untouched = SGT_COUNT_WRONG(old_dst, SGT_WORDS, SGT_OLD);
    SGT_CHECK(cuStreamSynchronize(s));
    return sgt_verdict(untouched + SGT_COUNT_WRONG(new_dst, SGT_WORDS, SGT_NEW),
                       "the old destination, then the new one after cuStreamSynchronize");
#else
    return sgt_verdict(SGT_COUNT_WRONG(new_dst, SGT_WORDS, SGT_NEW), "the new destination, before synchronizing");
#endif
}
