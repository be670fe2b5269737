/* d2h_two_copies_one_page: two small async copies fill the two halves of
 * one pinned page, the first on stream A, the second on stream B (held).
 * After cuStreamSynchronize(A) the first half is safe to read although the
 * page is still guarded for B's copy: the reads touch none of B's bytes, so
 * they are no race (syncguard must step over them silently) and see A's
 * data.  Twin: d2h_two_copies_one_page_race reads the second half.
 *
 * Only a few words are read while B's copy is pending.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "sgtest.h"

#define OLD 0x0badf00du                 /* the host page before the copies */
#define NEW_A 0xaaaa0001u               /* what A's copy delivers */
#define NEW_B 0xbbbb0002u               /* what B's copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, size_t words, size_t stride, uint32_t want)
{
    unsigned wrong = 0;
    for (size_t i = 0; i < words; i += stride)
        wrong += h[i] != want;
    return wrong;
}

int main(void)
{
    sgt_watchdog(60);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), half = page / 2, words = half / sizeof(uint32_t);
    sgt_init();
    CUstream a, b;
    SGT_CHECK(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
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
        first[i] = OLD;

    sgt_hold *hold_b = sgt_hold_stream(b);
    SGT_CHECK(cuMemcpyDtoHAsync(second, dev + half, half, b));
    SGT_CHECK(cuMemcpyDtoHAsync(first, dev, half, a));
    SGT_CHECK(cuStreamSynchronize(a));  /* A's copy is done; B's is held */
    sgt_release_when_host_waits(hold_b);

    /* No race: every byte read belongs to A's completed copy. */
    unsigned wrong_first = count_wrong(first, words, words / 8, NEW_A);

    SGT_CHECK(cuStreamSynchronize(b));
    unsigned late_first = count_wrong(first, words, 1, NEW_A);
    unsigned late_second = count_wrong(second, words, 1, NEW_B);
    printf("first half while B's copy was pending: %u of 8 sampled words wrong; "
           "after both syncs: %u + %u of %zu words wrong\n",
           wrong_first, late_first, late_second, 2 * words);
    SGT_CHECK(cuMemFreeHost(buf));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(a));
    SGT_CHECK(cuStreamDestroy(b));
    if (wrong_first || late_first || late_second) {
        printf("check: MISMATCH a half of the page does not hold its copy's data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
