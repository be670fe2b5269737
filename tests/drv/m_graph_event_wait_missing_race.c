/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_event_wait_missing_race: graphs completely.  A pinned copy is held on stream a,
 * and an event recorded after it.  A graph launched on stream s has an
 * empty node only: synchronizing s covers nothing of a, so reading is a
 * race.  Its twin's graph has an event wait node for that event instead:
 * the launch, and everything after it on s, then waits for a's copy.  Twin: m_graph_event_wait_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_event_wait_missing_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_event_wait_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_shapes.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING), s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent done = sgt_event();
    CUgraph g;
    CUgraphNode node;
    SGT_CHECK(cuGraphCreate(&g, 0));
#ifdef SG_TWIN
    SGT_CHECK(cuGraphAddEventWaitNode(&node, g, NULL, 0, done));
#else
    SGT_CHECK(cuGraphAddEmptyNode(&node, g, NULL, 0));
#endif
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(done, a));
    SGT_CHECK(cuGraphLaunch(exec, s));
#ifdef SG_TWIN
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(s));
#else
    SGT_CHECK(cuStreamSynchronize(s));
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing the graph's stream");
}
