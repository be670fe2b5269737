/* SPDX-License-Identifier: Apache-2.0 */
/* m_graph_host_fill_race: a graph host node fills a pinned staging buffer
 * that an async host-to-device copy reads.  Here the graph is launched on
 * ANOTHER non-blocking stream, not ordered with the copy (held on A): the
 * node's writes race with it, are reported, and go through once the copy
 * has read the buffer (the device receives ORIG).  Twin:
 * m_graph_host_fill_ok, where the graph is launched on A before the copy:
 * stream order places the node's writes before the copy starts, so they go
 * through at once (faults_ordered_before), with no report and no wait.
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: ^SUMMARY: syncguard: early-host-write .*m_graph_host_fill_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_graph_host_fill_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

#define ORIG 0x0c0ffee0u /* the staging buffer before the host node */
#define FILL 0xfeedf00du /* what the host node writes */

static uint32_t *staging;

static void CUDA_CB fill(void *arg)
{
    (void)arg;
    for (unsigned i = 0; i < SGT_WORDS; i++)
        ((volatile uint32_t *)staging)[i] = FILL;
    sgt_set_done(NULL);
}

/* A graph of one host node running fill, captured on a stream of its own. */
static CUgraphExec fill_graph(void)
{
    CUstream c = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUgraph g;
    CUgraphExec x;
    SGT_CHECK(cuStreamBeginCapture(c, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuLaunchHostFunc(c, fill, NULL));
    SGT_CHECK(cuStreamEndCapture(c, &g));
    SGT_CHECK(cuGraphInstantiate(&x, g, 0));
    return x;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(SGT_WORDS, 0);
    staging = sgt_pinned(SGT_BYTES);
    for (unsigned i = 0; i < SGT_WORDS; i++)
        staging[i] = ORIG;
    CUgraphExec x = fill_graph();
    sgt_hold *hold = sgt_hold_stream(a);
#ifdef SG_TWIN /* m_graph_host_fill_ok */
    SGT_CHECK(cuGraphLaunch(x, a));
    SGT_CHECK(cuMemcpyHtoDAsync(dev, staging, SGT_BYTES, a));
    sgt_release(hold);
    const uint32_t want = FILL;
#else
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    SGT_CHECK(cuMemcpyHtoDAsync(dev, staging, SGT_BYTES, a));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuGraphLaunch(x, b));
    const uint32_t want = ORIG;
#endif
    sgt_wait_done();
    SGT_CHECK(cuStreamSynchronize(a));
    uint32_t *back = malloc(SGT_BYTES);
    SGT_EXPECT(back != NULL);
    SGT_CHECK(cuMemcpyDtoH(back, dev, SGT_BYTES));
    return sgt_verdict(SGT_COUNT_WRONG(back, SGT_WORDS, want), "the device after the copy");
}
