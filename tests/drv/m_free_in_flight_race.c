/* SPDX-License-Identifier: Apache-2.0 */
/* m_free_in_flight_race: freeing pinned memory (cuMemFreeHost) while a copy
 * into it is in flight.  syncguard must not crash or hang, and reports it
 * as "free-in-flight".  Twin: m_free_after_sync_ok.
 *
 * SG-EXPECT: free-in-flight
 * SG-NO-CHECK
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_free_after_sync_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
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
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* m_free_after_sync_ok */
    SGT_CHECK(cuStreamSynchronize(s));
    int r = sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after cuStreamSynchronize");
    SGT_CHECK(cuMemFreeHost(host));
    return r;
#else
    SGT_CHECK(cuMemFreeHost(host));     /* the copy is still in flight */
    SGT_CHECK(cuStreamSynchronize(s));
    printf("freed while in flight\n");
    return 0;
#endif
}
