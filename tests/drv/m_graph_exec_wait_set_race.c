/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_wait_set_race: a graph's event wait node made waiting for
 * the event recorded after a held copy on stream A; after instantiation
 * cuGraphExecEventWaitNodeSetEvent makes the executable graph's node wait
 * for an event of idle work instead.  Its launch on stream B does not wait
 * for the copy: synchronizing B says nothing about it, and reading it is a
 * race.  Twin: m_graph_exec_wait_set_ok (made waiting for the idle event,
 * set to the copy's: synchronizing B observes the copy).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_exec_wait_set_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_exec_wait_set_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING), b = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUstream idle = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent after_copy = sgt_event(), after_idle = sgt_event();
#ifdef SG_TWIN /* m_graph_exec_wait_set_ok */
    CUevent made_with = after_idle, set_to = after_copy;
#else
    CUevent made_with = after_copy, set_to = after_idle;
#endif
    CUgraph g;
    CUgraphNode node;
    CUgraphExec exec;
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphAddEventWaitNode(&node, g, NULL, 0, made_with));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    SGT_CHECK(cuGraphExecEventWaitNodeSetEvent(exec, node, set_to));

    SGT_CHECK(cuEventRecord(after_idle, idle));
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(after_copy, a));
    SGT_CHECK(cuGraphLaunch(exec, b));
#ifdef SG_TWIN /* the launch waits for the copy */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(b));
#else
    SGT_CHECK(cuStreamSynchronize(b)); /* the launch waited for idle work only */
    sgt_release_when_host_waits(hold);
#endif
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless the twin */
    SGT_CHECK(cuStreamSynchronize(a));
    SGT_CHECK(cuGraphExecDestroy(exec));
    SGT_CHECK(cuGraphDestroy(g));
    return sgt_verdict(wrong, "after synchronizing the launch stream");
}
