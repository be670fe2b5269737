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

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du                 /* the host buffer before the copy */
#define NEW 0x5eed1234u                 /* what the copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, uint32_t want)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += h[i] != want;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host = malloc(BYTES);
    if (!host) {
        perror("malloc");
        return 2;
    }
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(s);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));  /* returns when done */

    unsigned wrong = count_wrong(host, NEW);
    printf("right after the pageable cuMemcpyDtoHAsync: %u of %u words wrong\n", wrong, WORDS);
    SGT_CHECK(cuStreamSynchronize(s));
    free(host);
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (wrong) {
        printf("check: MISMATCH the pageable copy had not completed when its call returned\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
