/* SPDX-License-Identifier: Apache-2.0 */
/* huge_h2d_write_race: the pinned source of a cuMemcpyHtoDAsync is a 6 MiB
 * cuMemAllocHost on huge pages (huge_pinned), and the host overwrites a
 * word in the middle of its second huge page before it has observed the
 * copy's completion. syncguard reports the write and lets it through only
 * after the copy, so the device receives the original data. Twin:
 * huge_h2d_read_ok (reads the source instead: no race).
 *
 * SG-EXPECT: early-host-write
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * huge_h2d_read_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "huge_pinned.h"
#include "sgtest.h"

#define BYTES (3 * HUGE_PAGE)
#define WORDS (BYTES / sizeof(uint32_t))
#define ORIG 0x0c0ffee0u
#define LATER 0xdeadbeefu
#define AT (WORDS / 2) /* inside the second huge page */

int main(void)
{
    sgt_watchdog(60);
    huge_require();
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(WORDS, 0);
    uint32_t *src;
    SGT_CHECK(cuMemAllocHost((void **)&src, BYTES));
    SGT_EXPECT(huge_mapping(src) == 1);
    for (unsigned i = 0; i < WORDS; i++)
        src[i] = ORIG;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoDAsync(dev, src, BYTES, s));
    sgt_release_when_host_waits(hold);
#ifdef SG_TWIN /* huge_h2d_read_ok */
    /* No race: reading a copy's source while the device reads it too. */
    unsigned seen = ((volatile uint32_t *)src)[AT];
    SGT_EXPECT(seen == ORIG);
#else
    /* The race: the copy may not have read the source yet. */
    ((volatile uint32_t *)src)[AT] = LATER;
#endif
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
#ifndef SG_TWIN
    SGT_EXPECT(src[AT] == LATER); /* the program's write was not lost */
#endif
    printf("device copy: %u of %u words not the original\n", wrong, (unsigned)WORDS);
    free(back);
    SGT_CHECK(cuMemFreeHost(src));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    if (wrong) {
        printf("check: MISMATCH the device did not receive the source as enqueued\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
