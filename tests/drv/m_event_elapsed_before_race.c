/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_elapsed_before_race: missing observations.  A successful cuEventElapsedTime
 * means both events completed (an incomplete one gives
 * CUDA_ERROR_NOT_READY).  Here both events were recorded BEFORE the copy:
 * their completion covers nothing of it, and reading is a race.  Its twin
 * records the second event after the copy: then the elapsed time, once it
 * succeeds, shows the copy complete.  Twin: m_event_elapsed_after_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_event_elapsed_before_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_event_elapsed_after_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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
    CUevent e0, e1;
    SGT_CHECK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    SGT_CHECK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    SGT_CHECK(cuEventRecord(e0, s));
#ifndef SG_TWIN
    SGT_CHECK(cuEventRecord(e1, s));
#endif
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
#ifdef SG_TWIN
    SGT_CHECK(cuEventRecord(e1, s));
    sgt_release(hold);
#endif
    float ms;
    CUresult r;
    while ((r = cuEventElapsedTime(&ms, e0, e1)) == CUDA_ERROR_NOT_READY)
        ;                               /* polls, as a profiling loop may */
    SGT_CHECK(r);
#ifndef SG_TWIN
    sgt_release_when_host_waits(hold);
#endif
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventElapsedTime succeeded");
}
