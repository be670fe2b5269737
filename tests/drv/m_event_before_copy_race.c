/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_before_copy_race: events.  An event recorded BEFORE the copy
 * captures only the work before it: synchronizing it says nothing about the
 * copy.  Twin: m_event_after_copy_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_event_before_copy_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_event_after_copy_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent e = sgt_event();
#ifdef SG_TWIN /* m_event_after_copy_ok */
#else
    SGT_CHECK(cuEventRecord(e, a));
#endif
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN /* m_event_after_copy_ok */
    SGT_CHECK(cuEventRecord(e, a));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventSynchronize(event after the copy)");
#else
    SGT_CHECK(cuEventSynchronize(e));   /* complete: does not wait */
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventSynchronize(event before the copy)");
#endif
}
