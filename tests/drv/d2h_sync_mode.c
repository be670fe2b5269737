/* d2h_sync_mode: with mode=sync, an early read of a cuMemcpyDtoHAsync
 * destination is not reported: syncguard silently waits for the copy and
 * lets the read go on with the copied data, and the exit status is the
 * program's own.
 *
 * SG-OPTIONS: mode=sync
 * SG-EXPECT: silent
 * SG-EXIT: 0
 */
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
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);

    /* The race, which syncguard resolves without a word. */
    unsigned early = count_wrong(host, NEW);

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned late = count_wrong(host, NEW);
    printf("early read: %u of %u words wrong; after cuStreamSynchronize: %u\n", early, WORDS, late);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (early || late) {
        printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
