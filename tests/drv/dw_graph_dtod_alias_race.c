/* SPDX-License-Identifier: Apache-2.0 */
/* dw_graph_dtod_alias_race: a device-to-device copy whose destination is
 * the device's own address of mapped pinned memory, captured into a graph
 * (a memcpy node with two device sides); each launch writes the host
 * memory, and the host reads it before observing the launch.  Twin:
 * dw_graph_dtod_alias_event_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: Copy enqueued on .* by cuGraphLaunch .memcpy node.
 */
#include "k_launch.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr alias, dev = sgt_device_words(SGT_WORDS, SGT_NEW);
    uint32_t *host = k_mapped_words(&alias);
    CUstream c = sgt_stream(CU_STREAM_NON_BLOCKING), s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUgraph g;
    CUgraphExec exec;
    SGT_CHECK(cuStreamBeginCapture(c, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuMemcpyDtoDAsync(alias, dev, SGT_BYTES, c));
    SGT_CHECK(cuStreamEndCapture(c, &g));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
#ifdef SG_TWIN /* dw_graph_dtod_alias_event_ok */
    CUevent e = sgt_event();
#endif

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
#ifdef SG_TWIN
    SGT_CHECK(cuEventRecord(e, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
#else
    sgt_release_when_host_waits(hold);
#endif
    unsigned first = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race, unless synchronized */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuGraphExecDestroy(exec));
    SGT_CHECK(cuGraphDestroy(g));
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    return sgt_race_verdict(first, late, "cuStreamSynchronize");
}
