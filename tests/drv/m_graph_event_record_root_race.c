/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_event_record_root_race: graphs completely.  An event record node records its
 * event when the node runs, after the nodes it depends on.  Here the
 * record node is a root and the memcpy node (device to pinned host) waits,
 * through an event wait node, for an event recorded on a held stream: the
 * host synchronizes the recorded event and reads, a race.  Its twin makes
 * the record node depend on the memcpy node: then the event covers the
 * copy.  Twin: m_graph_event_record_after_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_event_record_root_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_event_record_after_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING), gate = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent recorded = sgt_event(), opened = sgt_event();
    CUgraph g;
    CUgraphNode rec, wait, copy;
    CUDA_MEMCPY3D p = sgt_flat_dtoh(host, dev);
    SGT_CHECK(cuGraphCreate(&g, 0));
#ifdef SG_TWIN
    SGT_CHECK(cuGraphAddEventWaitNode(&wait, g, NULL, 0, opened));
    SGT_CHECK(cuGraphAddMemcpyNode(&copy, g, &wait, 1, &p, ctx));
    SGT_CHECK(cuGraphAddEventRecordNode(&rec, g, &copy, 1, recorded));
#else
    SGT_CHECK(cuGraphAddEventRecordNode(&rec, g, NULL, 0, recorded));
    SGT_CHECK(cuGraphAddEventWaitNode(&wait, g, NULL, 0, opened));
    SGT_CHECK(cuGraphAddMemcpyNode(&copy, g, &wait, 1, &p, ctx));
#endif
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    sgt_hold *hold = sgt_hold_stream(gate);
    SGT_CHECK(cuEventRecord(opened, gate));     /* completes once the gate opens */
    SGT_CHECK(cuGraphLaunch(exec, s));
#ifdef SG_TWIN
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(recorded));
#else
    SGT_CHECK(cuEventSynchronize(recorded));
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing the graph's recorded event");
}
