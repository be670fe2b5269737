/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_pageable_async: cuMemcpyDtoHAsync into pageable (malloc'ed) memory is
 * synchronous: the call returns only once the copy is complete.  Reading
 * the destination right after the call is therefore no race, and syncguard
 * must neither guard nor report it.
 *
 * The stream is held; the copy call itself is the host wait that releases
 * it.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    uint32_t *host = malloc(SGT_BYTES);
    if (!host) {
        perror("malloc");
        return 2;
    }
    CUdeviceptr dev;
    sgt_buffers_for(&dev, host);

    sgt_hold *hold = sgt_hold_stream(s);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));  /* returns when done */

    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));
    free(host);
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_verdict(wrong, "right after the pageable cuMemcpyDtoHAsync");
}
