/* SPDX-License-Identifier: Apache-2.0 */
/* free_while_pending: cuMemFreeHost of a pinned buffer while an async copy
 * into it is still in flight.  syncguard must drop its guard on the range
 * before the driver takes the memory back, and must not crash when the
 * address range is handed out again and used without any copy. The free
 * itself is a race (the device may still write memory the program gave
 * back): reported once as free-in-flight, at the cuMemFreeHost line.
 *
 * SG-EXPECT: free-in-flight
 * SG-GREP: pinned memory freed
 * SG-NO-CHECK
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define NEW 0x5eed1234u                 /* what the copy delivers */
#define MINE 0x600df00du                /* what the host stores in the new buffer */

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(WORDS, NEW);
    void *host = sgt_pinned(BYTES);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemFreeHost(host));     /* the copy is still in flight */
    SGT_CHECK(cuStreamSynchronize(s));

    /* New pinned memory (often at the same address), used by the host only. */
    uint32_t *again;
    SGT_CHECK(cuMemAllocHost((void **)&again, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        again[i] = MINE;
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += ((volatile uint32_t *)again)[i] != MINE;
    printf("%s buffer: %u of %u words wrong\n",
           (void *)again == host ? "reused" : "new", wrong, WORDS);
    SGT_CHECK(cuMemFreeHost(again));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (wrong) {
        printf("check: MISMATCH the host's own stores did not stick\n");
        return 1;
    }
    return 0;
}
