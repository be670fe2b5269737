/* d2h_ctx_sync: cuCtxSynchronize after a cuMemcpyDtoHAsync on a created
 * stream: it waits for all work of the context, so its return observes the
 * copy's completion and the read afterwards is no race.
 *
 * SG-EXPECT: silent
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_memcpy_async_generic_sync.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

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
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(s);
#ifdef SG_TWIN /* d2h_memcpy_async_generic_sync */
    SGT_CHECK(cuMemcpyAsync((CUdeviceptr)(uintptr_t)host, dev, BYTES, s));
#else
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
#endif
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* d2h_memcpy_async_generic_sync */
    SGT_CHECK(cuStreamSynchronize(s));  /* waits for the copy: releases the hold */
#else
    SGT_CHECK(cuCtxSynchronize());      /* waits for the copy: releases the hold */
#endif

    unsigned wrong = count_wrong(host, NEW);
#ifdef SG_TWIN /* d2h_memcpy_async_generic_sync */
    printf("after cuStreamSynchronize: %u of %u words wrong\n", wrong, WORDS);
#else
    printf("after cuCtxSynchronize: %u of %u words wrong\n", wrong, WORDS);
#endif
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (wrong) {
        printf("check: MISMATCH the synchronized read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
