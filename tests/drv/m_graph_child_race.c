/* SPDX-License-Identifier: Apache-2.0 */
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
#include "sgt_shapes.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    CUcontext ctx = sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
#ifdef SG_TWIN /* m_graph_relaunch_ok */
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
#else
    CUgraph outer;
    CUgraphNode child;
    SGT_CHECK(cuGraphCreate(&outer, 0));
    SGT_CHECK(cuGraphAddEmptyNode(&child, outer, NULL, 0));
    SGT_CHECK(cuGraphAddChildGraphNode(&child, outer, &child, 1,
                                       sgt_memcpy_graph(sgt_flat_dtoh(host, dev), ctx)));
#endif
    CUgraphExec exec;
#ifdef SG_TWIN /* m_graph_relaunch_ok */
    SGT_CHECK(cuGraphInstantiate(&exec, sgt_memcpy_graph(sgt_flat_dtoh(host, dev), ctx), 0));
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
