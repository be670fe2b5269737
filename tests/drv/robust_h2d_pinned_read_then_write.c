/* SPDX-License-Identifier: Apache-2.0 */
/* robust_h2d_pinned_read_then_write: the source of a host-to-device copy
 * is guarded PROT_READ while the copy is in flight.  Reading it early is no
 * race (the copy only reads it too): several full passes of reads must be
 * silent and see the source unchanged.  A later write, still before the
 * host has observed the copy, is a race: one early-host-write report at the
 * write's line, the write waits for the copy, so the device receives the
 * ORIGINAL data and the host keeps what it wrote.
 *
 * The copy waits behind a hold on its stream (released when the host first
 * blocks in the driver: syncguard's wait for the copy), so without syncguard
 * the device would receive the overwritten data.
 *
 * SG-EXPECT: early-host-write
 * SG-NOGREP: ^SUMMARY: syncguard: early-host-read
 * SG-GREP: ^  WRITE at 0x[0-9a-f]* (byte 4096 of a 16384-byte copy at 0x[0-9a-f]*)
 * SG-GREP: ^SUMMARY: syncguard: early-host-write robust_h2d_pinned_read_then_write.c:[0-9]* in write_late
 * SG-GREP: syncguard: 1 race reported (0 early-host-read, 1 early-host-write
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgt_robust.h"

#define WORDS 4096u                     /* 16 KiB, four pages */
#define BYTES (WORDS * sizeof(uint32_t))
#define ORIG 0x0c0ffee0u                /* the source when the copy is enqueued */
#define LATER 0xdeadbeefu               /* what the host writes too early */
#define PASSES 5                        /* read passes before the write */
#define FIRST_WRITTEN 1024u             /* the write starts on the second page */

/* Reads every word: no race, PROT_READ lets it through without a fault. */
static __attribute__((noinline)) unsigned read_early(const volatile uint32_t *src)
{
    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += src[i] != ORIG;
    return wrong;
}

/* The race: the copy may not have read these words yet. */
static __attribute__((noinline)) void write_late(volatile uint32_t *src)
{
    for (unsigned i = FIRST_WRITTEN; i < WORDS; i++)
        src[i] = LATER;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, 0); /* only the copy below is pending */
    uint32_t *src = sgt_pinned_words(WORDS, ORIG);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoDAsync(dev, src, BYTES, s));
    sgt_release_when_host_waits(hold);

    unsigned read_wrong = 0;
    for (int p = 0; p < PASSES; p++)
        read_wrong += read_early(src);
    /* Still in flight: the reads did not wait (the hold is only released
     * when the host blocks). */
    CUresult q = cuStreamQuery(s);
    write_late(src);

    SGT_CHECK(cuStreamSynchronize(s));
    uint32_t *back = sgt_malloc(BYTES);
    SGT_CHECK(cuMemcpyDtoH(back, dev, BYTES));
    unsigned wrong = 0, lost = 0;
    for (unsigned i = 0; i < WORDS; i++) {
        wrong += back[i] != ORIG;
        lost += src[i] != (i < FIRST_WRITTEN ? ORIG : LATER);
    }
    printf("early reads: %u wrong words in %d passes; stream still busy after them: %s\n",
           read_wrong, PASSES, q == CUDA_ERROR_NOT_READY ? "yes" : "no");
    printf("device copy: %u of %u words not the original; host source: %u words not as written\n",
           wrong, WORDS, lost);
    free(back);
    sgt_free_all(s, dev, src);
    return sgt_check_line(!read_wrong && q == CUDA_ERROR_NOT_READY && !wrong && !lost);
}
