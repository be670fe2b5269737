/* SPDX-License-Identifier: Apache-2.0 */
/* m_legacy_event_nonblocking_race: legacy default stream.  The copy runs on
 * a NON-BLOCKING created stream A; then a memset and an event record go to
 * the legacy stream (NULL) and the event is synchronized.  Non-blocking
 * streams do not synchronize with the legacy stream: the event does not
 * cover the copy.  Twin: m_legacy_event_blocking_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_legacy_event_nonblocking_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_legacy_event_blocking_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUdeviceptr scratch;
    SGT_CHECK(cuMemAlloc(&scratch, 64));
#ifdef SG_TWIN /* m_legacy_event_blocking_ok */
    CUstream a = sgt_stream(CU_STREAM_DEFAULT);
#else
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    CUevent e = sgt_event();
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuMemsetD8Async(scratch, 0, 64, NULL));   /* legacy stream */
    SGT_CHECK(cuEventRecord(e, NULL));
#ifdef SG_TWIN /* m_legacy_event_blocking_ok */
    sgt_release_when_host_waits(hold);
#endif
    SGT_CHECK(cuEventSynchronize(e));
#ifdef SG_TWIN /* m_legacy_event_blocking_ok */
#else
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after synchronizing a legacy-stream event");
}
