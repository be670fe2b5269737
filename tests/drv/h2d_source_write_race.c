/* SPDX-License-Identifier: Apache-2.0 */
/* h2d_source_write_race: the host overwrites the pinned source of a
 * cuMemcpyHtoDAsync before it has observed the copy's completion.  syncguard
 * must report the write, wait for the copy and only then let the write
 * through, so the device receives the ORIGINAL data.  Twin: h2d_source_read_ok.
 *
 * The copy waits behind a hold on its stream, so without syncguard the
 * device would receive the overwritten data.
 *
 * SG-EXPECT: early-host-write
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * h2d_source_read_ok.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtest.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#ifdef SG_TWIN /* h2d_source_read_ok */
#define ORIG 0x0c0ffee0u                /* the source */
#else
#define ORIG 0x0c0ffee0u                /* the source when the copy is enqueued */
#define LATER 0xdeadbeefu               /* what the host writes too early */
#endif

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_device_words(WORDS, 0);
    uint32_t *src = sgt_pinned(BYTES);
    for (unsigned i = 0; i < WORDS; i++)
        src[i] = ORIG;

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoDAsync(dev, src, BYTES, s));
    sgt_release_when_host_waits(hold);

#ifdef SG_TWIN /* h2d_source_read_ok */
    /* No race: reading a copy's source while the device reads it too. */
    unsigned changed = 0;
#else
    /* The race: the copy may not have read the source yet. */
#endif
    for (unsigned i = 0; i < WORDS; i++)
#ifdef SG_TWIN /* h2d_source_read_ok */
        changed += ((volatile uint32_t *)src)[i] != ORIG;
#else
        ((volatile uint32_t *)src)[i] = LATER;
#endif

    SGT_CHECK(cuStreamSynchronize(s));
    uint32_t *back = malloc(BYTES);
    if (!back) {
        perror("malloc");
        return 2;
    }
    SGT_CHECK(cuMemcpyDtoH(back, dev, BYTES));
#ifdef SG_TWIN /* h2d_source_read_ok */
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
#else
    unsigned wrong = 0, lost = 0;
    for (unsigned i = 0; i < WORDS; i++) {
#endif
        wrong += back[i] != ORIG;
#ifdef SG_TWIN /* h2d_source_read_ok */
    printf("source read during the copy: %u of %u words changed; device copy: %u wrong\n",
           changed, WORDS, wrong);
#else
        lost += src[i] != LATER;
    }
    printf("device copy: %u of %u words not the original; host source: %u words not rewritten\n",
           wrong, WORDS, lost);
#endif
    free(back);
    SGT_CHECK(cuMemFreeHost(src));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
#ifdef SG_TWIN /* h2d_source_read_ok */
    if (changed || wrong) {
        printf("check: MISMATCH the source or the device copy is not the original data\n");
#else
    if (wrong || lost) {
        printf("check: MISMATCH the device did not receive the source as it was at the copy\n");
#endif
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
