/* SPDX-License-Identifier: Apache-2.0 */
/* m_stream_query_notready_race: cuStreamQuery.  A query that returned
 * CUDA_ERROR_NOT_READY observes nothing: the read after it is a race.
 * Twin: m_stream_query_poll_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_stream_query_notready_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_stream_query_poll_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
    SGT_EXPECT(cuStreamQuery(a) == CUDA_ERROR_NOT_READY);
#ifdef SG_TWIN /* m_stream_query_poll_ok */
    sgt_release(hold);
    CUresult r;
    while ((r = cuStreamQuery(a)) == CUDA_ERROR_NOT_READY)
        sched_yield();                  /* the hold makes this end */
    SGT_CHECK(r);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamQuery returned CUDA_SUCCESS");
#else
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamQuery returned NOT_READY");
#endif
}
