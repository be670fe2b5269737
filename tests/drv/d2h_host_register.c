/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_host_register: memory from malloc (page-aligned) made page-locked
 * with cuMemHostRegister is pinned memory like cuMemAllocHost's: an async
 * copy into it runs after the call returns, and reading it before
 * synchronizing is a race.  Twin: d2h_host_register_sync.
 *
 * SG-EXPECT: early-host-read
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_host_register_sync.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sgtest.h"

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    uint32_t *host;
    if (posix_memalign((void **)&host, (size_t)sysconf(_SC_PAGESIZE), SGT_BYTES) != 0) {
        perror("posix_memalign");
        return 2;
    }
    CUdeviceptr dev;
    sgt_buffers_for(&dev, host);
    SGT_CHECK(cuMemHostRegister(host, SGT_BYTES, 0));

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* d2h_host_register_sync */
    SGT_CHECK(cuStreamSynchronize(s));  /* waits for the copy: releases the hold */
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
#else
    /* The race: nothing tells the host that the copy is done. */
    unsigned early = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW);
#endif
    SGT_CHECK(cuMemHostUnregister(host));
    free(host);
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
#ifdef SG_TWIN /* d2h_host_register_sync */
    return sgt_verdict(wrong, "after cuStreamSynchronize");
#else
    return sgt_race_verdict(early, late, "after cuStreamSynchronize");
#endif
}
