/* SPDX-License-Identifier: Apache-2.0 */
/* m_managed_no_observation_race: managed memory is not pageable memory.  A pinned copy
 * is held on stream s; then an async copy from the device into MANAGED
 * memory is enqueued on s.  Its return shows nothing complete (it is not a
 * copy into pageable memory, which returns once done), so reading the
 * pinned buffer is a race.  Twin: m_managed_no_observation_ok.
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .*m_managed_no_observation_race
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * m_managed_no_observation_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"
#include "sgt_hostkinds.h"

int main(void)
{
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    uint32_t *managed = sgt_managed();
    if (!managed) {
        printf("SKIP: no managed memory here\n");
        return 77;
    }
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    /* (a driver that made the next copy wait would get the hold released) */
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoHAsync(managed, dev, SGT_BYTES, s));
#ifdef SG_TWIN
    SGT_CHECK(cuStreamSynchronize(s));
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW) + SGT_COUNT_WRONG(managed, SGT_WORDS, SGT_NEW),
                       "after cuStreamSynchronize");
#else
    return sgt_verdict(SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW), "after an async copy into managed memory");
#endif
}
