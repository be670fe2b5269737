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
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "sgtest.h"

#define OLD 0x0badf00du                 /* the host page before the copies */
#define NEW_A 0xaaaa0001u               /* what A's copy delivers */
#define NEW_B 0xbbbb0002u               /* what B's copy delivers */

static unsigned count_wrong(const volatile uint32_t *h, size_t words, uint32_t want)
{
    unsigned wrong = 0;
    for (size_t i = 0; i < words; i++)
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

    /* The race: these bytes are B's, and B was never synchronized. */
    unsigned early = count_wrong(second, words, NEW_B);

    SGT_CHECK(cuStreamSynchronize(b));
    unsigned late_first = count_wrong(first, words, NEW_A);
    unsigned late_second = count_wrong(second, words, NEW_B);
    printf("second half read early: %u of %zu words wrong; after both syncs: %u + %u of %zu\n",
           early, words, late_first, late_second, 2 * words);
    SGT_CHECK(cuMemFreeHost(buf));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(a));
    SGT_CHECK(cuStreamDestroy(b));
    if (early || late_first || late_second) {
        printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}
