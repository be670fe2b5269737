/* SPDX-License-Identifier: Apache-2.0 */
/* m_capture_launch_race: stream capture.  The captured D2H copy runs when
 * the graph is launched: reading the buffer after cuGraphLaunch without
 * synchronizing is a race.  Twin: m_capture_launch_sync_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_capture_launch_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_capture_launch_sync_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUgraph g;
    CUgraphExec exec;
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));  /* recorded, not run */
    SGT_CHECK(cuStreamEndCapture(s, &g));
    SGT_CHECK(cuGraphInstantiate(&exec, g, 0));
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuGraphLaunch(exec, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_capture_launch_sync_ok */
    SGT_CHECK(cuStreamSynchronize(s));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuGraphLaunch and cuStreamSynchronize");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "read after cuGraphLaunch, before synchronizing");
#endif
}
