/* SPDX-License-Identifier: Apache-2.0 */
/* m_capture_fork_race: stream capture.  A real copy is in flight on stream
 * S when S starts capturing; inside the capture an event recorded on S
 * forks stream T into the capture and T is joined back.  Those records and
 * waits are graph edges, not stream order: T never waited for S's copy, so
 * synchronizing T after the capture says nothing about it: a race.  Twin:
 * m_wait_event_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_capture_fork_race
 */
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
    CUstream t = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent fork = sgt_event(), join = sgt_event();
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));  /* real, in flight */
    CUgraph g;
    SGT_CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuEventRecord(fork, s));
    SGT_CHECK(cuStreamWaitEvent(t, fork, 0));           /* T joins the capture */
    SGT_CHECK(cuEventRecord(join, t));
    SGT_CHECK(cuStreamWaitEvent(s, join, 0));           /* and is joined back */
    SGT_CHECK(cuStreamEndCapture(s, &g));
    SGT_CHECK(cuStreamSynchronize(t));                  /* T has no work at all */
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(T) following the capture");
}
