/* d2h_other_stream_sync_race: the copy runs on non-blocking stream A; the
 * host synchronizes only non-blocking stream B (which has work of its own).
 * Nothing orders A's copy before B's work, so reading the pinned
 * destination afterwards is a race.  Twin: d2h_stream_wait_event, where B
 * is made to wait for A.
 *
 * A's hold is set to go at the next host wait only after
 * cuStreamSynchronize(B) (which must not be what lets the copy run), so
 * without syncguard the read sees the old data.
 *
 * SG-EXPECT: early-host-read
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
    CUstream a, b;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev, scratch;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemAlloc(&scratch, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, a));
    SGT_CHECK(cuMemsetD32Async(scratch, 0, WORDS, b));
    SGT_CHECK(cuStreamSynchronize(b));  /* the mistake: the wrong stream */
    sgt_release_when_host_waits(hold);

    /* The race: B's completion says nothing about A. */
    unsigned early = count_wrong(host, NEW);

    SGT_CHECK(cuStreamSynchronize(a));
    unsigned late = count_wrong(host, NEW);
    printf("early read: %u of %u words wrong; after cuStreamSynchronize(A): %u\n", early, WORDS,
           late);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuMemFree(scratch));
    SGT_CHECK(cuStreamDestroy(a));
    SGT_CHECK(cuStreamDestroy(b));
    if (early || late) {
        printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
