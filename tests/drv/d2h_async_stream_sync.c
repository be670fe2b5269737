/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_async_stream_sync: the host reads the pinned destination of a
 * cuMemcpyDtoHAsync only after cuStreamSynchronize on the copy's stream has
 * returned.  That observes the copy's completion: no report, and the data
 * is the copied data.  Twin of d2h_async_read_race.
 *
 * SG-EXPECT: silent
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_verbose_log.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>

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
    SGT_CHECK(cuStreamSynchronize(s));  /* waits for the copy: releases the hold */

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_verdict(wrong, "after cuStreamSynchronize");
}
