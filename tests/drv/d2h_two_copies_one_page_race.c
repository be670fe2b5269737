/* SPDX-License-Identifier: Apache-2.0 */
/* d2h_two_copies_one_page_race: as d2h_two_copies_one_page, two small
 * async copies fill the two halves of one pinned page from streams A and B,
 * and the host synchronizes only A; but then it reads the SECOND half,
 * which belongs to B's copy: a race, although the first half is fine.
 *
 * B's hold is set to go at the next host wait only after
 * cuStreamSynchronize(A), so without syncguard the read sees the old data.
 *
 * SG-EXPECT: early-host-read
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * d2h_two_copies_one_page.c (the lines under #ifdef SG_TWIN are the twin's). */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "sgtest.h"

#define NEW_A 0xaaaa0001u               /* what A's copy delivers */
#define NEW_B 0xbbbb0002u               /* what B's copy delivers */

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), half = page / 2, words = half / sizeof(uint32_t);
    sgt_init();
    CUstream a = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUstream b = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev;
    SGT_CHECK(cuMemAlloc(&dev, page));
    SGT_CHECK(cuMemsetD32(dev, NEW_A, words));
    SGT_CHECK(cuMemsetD32(dev + half, NEW_B, words));
    SGT_CHECK(cuCtxSynchronize());      /* only the copies below are pending */
    char *buf;
    SGT_CHECK(cuMemAllocHost((void **)&buf, 2 * page));
    uint32_t *first = (uint32_t *)(((uintptr_t)buf + page - 1) & ~(uintptr_t)(page - 1));
    uint32_t *second = first + words;   /* same page */
    for (size_t i = 0; i < 2 * words; i++)
        first[i] = SGT_OLD;             /* the host page before the copies */

    sgt_hold *hold_b = sgt_hold_stream(b);
    SGT_CHECK(cuMemcpyDtoHAsync(second, dev + half, half, b));
    SGT_CHECK(cuMemcpyDtoHAsync(first, dev, half, a));
    SGT_CHECK(cuStreamSynchronize(a));  /* A's copy is done; B's is held */
    sgt_release_when_host_waits(hold_b);

#ifdef SG_TWIN /* d2h_two_copies_one_page */
    /* No race: every byte read belongs to A's completed copy (8 words). */
    unsigned wrong_first = 0;
    for (size_t i = 0; i < words; i += words / 8)
        wrong_first += ((volatile uint32_t *)first)[i] != NEW_A;
#else
    /* The race: these bytes are B's, and B was never synchronized. */
    unsigned early = SGT_COUNT_WRONG(second, words, NEW_B);
#endif

    SGT_CHECK(cuStreamSynchronize(b));
    unsigned late_first = SGT_COUNT_WRONG(first, words, NEW_A);
    unsigned late_second = SGT_COUNT_WRONG(second, words, NEW_B);
#ifdef SG_TWIN /* d2h_two_copies_one_page */
    printf("first half while B's copy was pending: %u of 8 sampled words wrong; "
           "after both syncs: %u + %u of %zu words wrong\n",
           wrong_first, late_first, late_second, 2 * words);
#else
    printf("second half read early: %u of %zu words wrong; after both syncs: %u + %u of %zu\n",
           early, words, late_first, late_second, 2 * words);
#endif
    SGT_CHECK(cuMemFreeHost(buf));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(a));
    SGT_CHECK(cuStreamDestroy(b));
#ifdef SG_TWIN /* d2h_two_copies_one_page */
    if (wrong_first || late_first || late_second) {
        printf("check: MISMATCH a half of the page does not hold its copy's data\n");
#else
    if (early || late_first || late_second) {
        printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
#endif
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
