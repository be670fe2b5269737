/* SPDX-License-Identifier: Apache-2.0 */
/* m_event_query_notready_race: events.  A cuEventQuery that returned
 * CUDA_ERROR_NOT_READY observes nothing.  Twin: m_event_query_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_event_query_notready_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_event_query_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <sched.h>

#include "sgtest.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUevent e = sgt_event();
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_CHECK(cuEventRecord(e, a));
    SGT_EXPECT(cuEventQuery(e) == CUDA_ERROR_NOT_READY);
#ifdef SG_TWIN /* m_event_query_ok */
    sgt_release(hold);
    CUresult r;
    while ((r = cuEventQuery(e)) == CUDA_ERROR_NOT_READY)
        sched_yield();                  /* the hold makes this end */
    SGT_CHECK(r);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventQuery returned CUDA_SUCCESS");
#else
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuEventQuery returned NOT_READY");
#endif
}
