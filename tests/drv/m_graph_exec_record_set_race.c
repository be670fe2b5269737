/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_exec_record_set_race: a graph's event record node made with
 * event E1; after instantiation cuGraphExecEventRecordNodeSetEvent gives
 * the executable graph's node event E2.  A launch after a held copy on
 * the same stream records E2, not E1: synchronizing E1 (never recorded:
 * complete at once) says nothing about the copy, and reading it is a
 * race.  Twins: m_graph_exec_record_set_ok (synchronizing E2 observes the
 * copy) and m_graph_exec_node_record_ok (the same, the update through
 * cuGraphExecNodeSetParams).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_exec_record_set_race
 */
/* This program is also built as its twins: SG_TWIN for both (the lines
 * under #ifdef SG_TWIN are theirs), SG_GENERIC too for
 * m_graph_exec_node_record_ok. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

static void set_record(CUgraphExec exec, CUgraphNode node, CUevent e)
{
#ifdef SG_GENERIC
    CUgraphNodeParams np = { .type = CU_GRAPH_NODE_TYPE_EVENT_RECORD };
    np.eventRecord.event = e;
    SGT_CHECK(cuGraphExecNodeSetParams(exec, node, &np));
#else
    SGT_CHECK(cuGraphExecEventRecordNodeSetEvent(exec, node, e));
#endif
}

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUevent e1 = sgt_event(), e2 = sgt_event();
    CUgraph g;
    CUgraphNode node;
    CUgraphExec exec;
    SGT_CHECK(cuGraphCreate(&g, 0));
    SGT_CHECK(cuGraphAddEventRecordNode(&node, g, NULL, 0, e1));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    set_record(exec, node, e2);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    SGT_CHECK(cuGraphLaunch(exec, s)); /* records E2 after the copy */
#ifdef SG_TWIN /* m_graph_exec_record_set_ok, m_graph_exec_node_record_ok */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e2));
#else
    SGT_CHECK(cuEventSynchronize(e1)); /* the event the node no longer records */
    sgt_release_when_host_waits(hold);
#endif
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless a twin */
    SGT_CHECK(cuStreamSynchronize(s));
    SGT_CHECK(cuGraphExecDestroy(exec));
    SGT_CHECK(cuGraphDestroy(g));
    return sgt_verdict(wrong, "after synchronizing an event of the graph");
}
