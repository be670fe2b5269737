/* SPDX-License-Identifier: Apache-2.0 */
/* m_stream_sync_other_race: stream order.  Synchronizing ANOTHER
 * non-blocking stream tells the host nothing about the copy's stream: the
 * read is a race.  Twin: m_stream_sync_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_stream_sync_other_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_stream_sync_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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
#ifdef SG_TWIN /* m_stream_sync_ok */
#else
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
#endif
    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, a));
#ifdef SG_TWIN /* m_stream_sync_ok */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuStreamSynchronize(a));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(copy stream)");
#else
    SGT_CHECK(cuStreamSynchronize(b));  /* idle, unrelated */
    sgt_release_when_host_waits(hold);
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize(other stream)");
#endif
}
