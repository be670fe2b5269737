/* SPDX-License-Identifier: Apache-2.0 */
/* huge_madvise_refused: advice that drops a mapping's pages
 * (MADV_DONTNEED, MADV_DONTNEED_LOCKED, MADV_FREE, MADV_REMOVE) on a pinned
 * allocation on syncguard's huge pages (huge_pinned) fails with EINVAL, as
 * the driver's own pinned mapping is taken to answer (assumed: a GPU run
 * prints the driver's answer for its own allocation below). On plain
 * anonymous memory it would succeed and hand the program zeroed pages while
 * the device kept writing the pinned ones: the data stay, and a copy into
 * the block after the calls still reaches what the program reads. Other
 * advice on a block, and dropping advice elsewhere, pass through.
 *
 * SG-EXPECT: silent
 */
#include <cuda.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#include "huge_pinned.h"
#include "sgtest.h"

#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif

#define BYTES (2 * HUGE_PAGE)
#define WORDS (BYTES / sizeof(uint32_t))
#define PAGE 4096u

static const int dropping[] = { MADV_DONTNEED, MADV_DONTNEED_LOCKED, MADV_FREE, MADV_REMOVE };

/* Every dropping advice on [p, p+n): refused with EINVAL. */
static void refused(void *p, size_t n)
{
    for (unsigned i = 0; i < sizeof dropping / sizeof *dropping; i++) {
        errno = 0;
        SGT_EXPECT(madvise(p, n, dropping[i]) == -1 && errno == EINVAL);
    }
}

/* What the driver says to MADV_DONTNEED on its own pinned allocation
 * (large and WRITECOMBINED, which huge_pinned leaves to it): printed for
 * the GPU run, where it confirms the assumption above, never asserted
 * (the emulator's allocation is plain anonymous memory). Not touched
 * after: on a real driver's mapping a dropped page may not come back. */
static void drivers_answer(void)
{
    void *p;
    SGT_CHECK(cuMemHostAlloc(&p, BYTES, CU_MEMHOSTALLOC_WRITECOMBINED));
    errno = 0;
    int r = madvise(p, BYTES, MADV_DONTNEED);
    printf("the driver's own allocation: madvise(MADV_DONTNEED) = %d, errno %d%s\n", r, errno,
           sgt_on_emulator() ? " (the emulator's: anonymous memory)" : "");
    SGT_CHECK(cuMemFreeHost(p));
}

int main(void)
{
    sgt_watchdog(60);
    huge_require();
    sgt_init();
    uint32_t *block;
    SGT_CHECK(cuMemHostAlloc((void **)&block, BYTES, 0));
    SGT_EXPECT(huge_mapping(block) == 1);
    for (unsigned i = 0; i < WORDS; i++)
        block[i] = SGT_OLD;
    refused(block, BYTES);
    refused((char *)block + HUGE_PAGE, PAGE);      /* one page inside */
    refused((char *)block + BYTES - PAGE, 1);      /* a length short of a page */
    SGT_EXPECT(SGT_COUNT_WRONG(block, WORDS, SGT_OLD) == 0);
    SGT_EXPECT(madvise(block, BYTES, MADV_WILLNEED) == 0);
    SGT_EXPECT(madvise(block, BYTES, MADV_NORMAL) == 0);
    SGT_EXPECT(madvise(block, 0, MADV_DONTNEED) == 0); /* nothing to drop: as the kernel says */

    /* Still the pages the device writes. */
    CUdeviceptr dev = sgt_device_words(WORDS, SGT_NEW);
    SGT_CHECK(cuMemcpyDtoH(block, dev, BYTES));
    unsigned wrong = SGT_COUNT_WRONG(block, WORDS, SGT_NEW);

    /* Elsewhere the call is the program's, and works. */
    unsigned char *plain = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SGT_EXPECT(plain != MAP_FAILED);
    plain[0] = 7;
    SGT_EXPECT(madvise(plain, PAGE, MADV_DONTNEED) == 0 && plain[0] == 0);
    munmap(plain, PAGE);

    drivers_answer();
    SGT_CHECK(cuMemFreeHost(block));
    SGT_CHECK(cuMemFree(dev));
    return sgt_verdict(wrong, "after a synchronous copy into the block the advice left");
}
