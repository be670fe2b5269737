/* h2d_source_read_ok: the host only READS the pinned source of a
 * cuMemcpyHtoDAsync while the copy is in flight.  Both sides only read
 * those bytes: no race, no report, and the device receives the data.
 * Twin of h2d_source_write_race.
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
#define ORIG 0x0c0ffee0u                /* the source */

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, BYTES));
    SGT_CHECK(cuMemsetD32(dev, 0, WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copy below is pending */
    uint32_t *src;
    SGT_CHECK(cuMemAllocHost((void **)&src, BYTES));
    for (unsigned i = 0; i < WORDS; i++)
        src[i] = ORIG;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoDAsync(dev, src, BYTES, s));
    sgt_release_when_host_waits(hold);

    /* No race: reading a copy's source while the device reads it too. */
    unsigned changed = 0;
    for (unsigned i = 0; i < WORDS; i++)
        changed += ((volatile uint32_t *)src)[i] != ORIG;

    SGT_CHECK(cuStreamSynchronize(s));
    uint32_t *back = malloc(BYTES);
    if (!back) {
        perror("malloc");
        return 2;
    }
    SGT_CHECK(cuMemcpyDtoH(back, dev, BYTES));
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += back[i] != ORIG;
    printf("source read during the copy: %u of %u words changed; device copy: %u wrong\n",
           changed, WORDS, wrong);
    free(back);
    SGT_CHECK(cuMemFreeHost(src));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (changed || wrong) {
        printf("check: MISMATCH the source or the device copy is not the original data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
