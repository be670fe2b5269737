/* SPDX-License-Identifier: Apache-2.0 */
/* robust_small_buffers_packed: 32 small pinned buffers packed in one page
 * (one page-aligned page registered with cuMemHostRegister and carved into
 * 32 buffers of 128 bytes, as a small-object allocator does).  Async copies
 * fill the 16 even buffers; while they are in flight the host reads and
 * writes the 16 odd buffers heavily (100000 read-modify-writes).  Those
 * bytes belong to no copy: no report, every value right (the odd buffers
 * hold exactly what the host wrote, the even ones the copied data after
 * cuStreamSynchronize).  Every one of those accesses is a neighbour fault
 * (the verbosity=1 counters say so) and none is taken for a race.  Its speed
 * is measured in bench/, never bounded here: a loaded CI machine may be
 * arbitrarily slow.
 *
 * The copies wait behind a hold on their stream, released when the host
 * first blocks in the driver, so they are certainly in flight when the loop
 * starts.
 *
 * SG-EXPECT: silent
 * SG-OPTIONS: verbosity=1
 * SG-GREP: stats: .* faults_race=0,
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * robust_small_buffers_gated.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sgt_robust.h"

#define NBUF 32u
#define BUF_BYTES 128u
#define BUF_WORDS (BUF_BYTES / sizeof(uint32_t))
#ifdef SG_TWIN /* robust_small_buffers_gated */
#define ACCESSES 2000u                  /* > 64: more than a handful per page */
#define WATCHDOG_SECONDS 20
#else
#define ACCESSES 20000u
#define WATCHDOG_SECONDS 60
#endif

static uint32_t old_value(unsigned k) { return 0x01000000u | k; }
static uint32_t new_value(unsigned k) { return 0xa0000000u | k; }

int main(void)
{
    sgt_watchdog(WATCHDOG_SECONDS);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (page < NBUF * BUF_BYTES) {
        fprintf(stderr, "page too small\n");
        return 2;
    }
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, NBUF * BUF_BYTES));
    for (unsigned k = 0; k < NBUF; k++)
        SGT_CHECK(cuMemsetD32(dev + k * BUF_BYTES, new_value(k), BUF_WORDS));
    SGT_CHECK(cuCtxSynchronize());      /* only the copies below are pending */

    unsigned char *arena;
    if (posix_memalign((void **)&arena, page, page) != 0) {
        perror("posix_memalign");
        return 2;
    }
    volatile uint32_t *buf[NBUF];
    for (unsigned k = 0; k < NBUF; k++) {
        buf[k] = (volatile uint32_t *)(arena + k * BUF_BYTES);
        for (unsigned j = 0; j < BUF_WORDS; j++)
            buf[k][j] = old_value(k);
    }
    SGT_CHECK(cuMemHostRegister(arena, page, 0));

#ifdef SG_TWIN /* robust_small_buffers_gated */
    /* The gate: the host opens it after its loop, never earlier. */
#endif
    sgt_hold *hold = sgt_hold_stream(s);
    for (unsigned k = 0; k < NBUF; k += 2)
        SGT_CHECK(cuMemcpyDtoHAsync((void *)buf[k], dev + k * BUF_BYTES, BUF_BYTES, s));
#ifdef SG_TWIN /* robust_small_buffers_gated */
#else
    sgt_release_when_host_waits(hold);
    CUresult q = cuStreamQuery(s);      /* NOT_READY: held */
#endif

    /* No race: the odd buffers are the host's alone. */
    for (unsigned i = 0; i < ACCESSES; i++) {
        unsigned k = 1 + 2 * (i % (NBUF / 2)), j = (i / (NBUF / 2)) % BUF_WORDS;
        buf[k][j] = buf[k][j] + 1;
    }
#ifdef SG_TWIN /* robust_small_buffers_gated */
    CUresult q = cuStreamQuery(s);      /* NOT_READY: the gate is closed */
    sgt_release(hold);
#endif

    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong_copied = 0, wrong_host = 0;
    uint32_t per_word = ACCESSES / (NBUF / 2 * BUF_WORDS);
    for (unsigned k = 0; k < NBUF; k++)
        for (unsigned j = 0; j < BUF_WORDS; j++) {
            if (k % 2 == 0)
                wrong_copied += buf[k][j] != new_value(k);
            else {
                /* Word j of odd buffer k was incremented once per pass over
                 * all odd words, plus once more for the early words of the
                 * last partial pass. */
                unsigned idx = j * (NBUF / 2) + (k - 1) / 2;
                uint32_t n = per_word + (idx < ACCESSES % (NBUF / 2 * BUF_WORDS));
                wrong_host += buf[k][j] != old_value(k) + n;
            }
        }
#ifdef SG_TWIN /* robust_small_buffers_gated */
    printf("copies still gated after the host loop: %s\n", q == CUDA_ERROR_NOT_READY ? "yes" : "no");
#else
    printf("copies in flight at the start: %s; %u host read-modify-writes\n",
           q == CUDA_ERROR_NOT_READY ? "yes" : "no", ACCESSES);
#endif
    printf("after cuStreamSynchronize: %u copied words wrong, %u host words wrong\n",
           wrong_copied, wrong_host);
    SGT_CHECK(cuMemHostUnregister(arena));
    free(arena);
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    int ok = q == CUDA_ERROR_NOT_READY && !wrong_copied && !wrong_host;
    return sgt_check_line(ok);
}
