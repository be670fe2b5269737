/* d2h_legacy_nonblocking_race: as d2h_legacy_covers_blocking, but the copy
 * runs on a NON-BLOCKING stream, which the legacy default stream does not
 * wait for: the event recorded on stream NULL says nothing about the copy,
 * and reading the pinned destination after synchronizing it is a race.
 *
 * The stream's hold is set to go at the next host wait only after
 * cuEventSynchronize (which must not be what lets the copy run), so
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
    CUstream a;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    CUevent ev;
    SGT_CHECK(cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, NEW, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *host;
    SGT_CHECK(cuMemAllocHost((void **)&host, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        host[i] = OLD;

    sgt_hold *hold = sgt_hold_stream(a);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, a));
    SGT_CHECK(cuEventRecord(ev, NULL)); /* legacy stream: not after A's copy */
    SGT_CHECK(cuEventSynchronize(ev));
    sgt_release_when_host_waits(hold);

    /* The race: the legacy stream does not wait for non-blocking streams. */
    unsigned early = count_wrong(host, NEW);

    SGT_CHECK(cuStreamSynchronize(a));
    unsigned late = count_wrong(host, NEW);
    printf("early read: %u of %u words wrong; after cuStreamSynchronize(A): %u\n", early, WORDS,
           late);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuEventDestroy(ev));
    SGT_CHECK(cuStreamDestroy(a));
    if (early || late) {
        printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
