/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_memcpy_node_race: graphs.  A graph built with
 * cuGraphAddMemcpyNode (host destination), instantiated and launched:
 * reading before synchronizing is a race.  Twin: m_graph_memcpy_node_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_graph_memcpy_node_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_memcpy_node_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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
#ifdef SG_TWIN /* m_graph_memcpy_node_ok */
    CUevent e = sgt_event();
#endif
    CUgraphExec exec;
    SGT_CHECK(cuGraphInstantiate(&exec, sgt_memcpy_graph(sgt_flat_dtoh(host, dev), ctx), 0));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
#ifdef SG_TWIN /* m_graph_memcpy_node_ok */
    SGT_CHECK(cuEventRecord(e, s));
#endif
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_graph_memcpy_node_ok */
    SGT_CHECK(cuEventSynchronize(e));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after an event recorded after cuGraphLaunch");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read after cuGraphLaunch, before synchronizing");
#endif
}
